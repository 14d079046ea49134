"""Django 3.2 with its auth and contenttypes apps only, on the database the
Go test names in the environment (DJANGO_DB: an SQLite path, or
DJANGO_PG_* for PostgreSQL): the permission tests let it migrate a
database and compare what it created with what the Go migrations create."""
import os

SECRET_KEY = "contrib-auth-permission-tests"
USE_TZ = True
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
INSTALLED_APPS = ["django.contrib.auth", "django.contrib.contenttypes"]
if os.environ.get("DJANGO_PG_NAME"):
    DATABASES = {"default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": os.environ["DJANGO_PG_NAME"],
        "USER": os.environ.get("DJANGO_PG_USER", ""),
        "PASSWORD": os.environ.get("DJANGO_PG_PASSWORD", ""),
        "HOST": os.environ.get("DJANGO_PG_HOST", ""),
        "PORT": os.environ.get("DJANGO_PG_PORT", ""),
    }}
else:
    DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.environ["DJANGO_DB"]}}
