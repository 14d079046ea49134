"""A minimal Django 3.2 site sharing its database and logins with a Go
service: the settings docs/django.md describes, read from the environment
the interop tests set."""
import os

SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]
DEBUG = False
ALLOWED_HOSTS = ["testserver", "127.0.0.1"]
USE_TZ = True
TIME_ZONE = "UTC"
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "django.contrib.sessions",
    "rest_framework",
    "rest_framework.authtoken",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ["DJANGO_DB"],
    }
}

# Sessions in the database, Django's default engine and serializer.
SESSION_ENGINE = "django.contrib.sessions.backends.db"
AUTHENTICATION_BACKENDS = ["django.contrib.auth.backends.ModelBackend"]

# Django's hashers with low costs, so that the tests run fast; the Go side
# is configured with the same.
PASSWORD_HASHERS = [
    "djangosite.hashers.PBKDF2PasswordHasher",
    "djangosite.hashers.PBKDF2SHA1PasswordHasher",
    "djangosite.hashers.Argon2PasswordHasher",
    "djangosite.hashers.BCryptSHA256PasswordHasher",
    "djangosite.hashers.BCryptPasswordHasher",
]
