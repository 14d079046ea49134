"""Django 3.2 with djangorestframework-api-key, on the database the Go test
names in the environment (DJANGO_DB: an SQLite path, or DJANGO_PG_* for
PostgreSQL)."""
import os

SECRET_KEY = "contrib-apikey-tests"
USE_TZ = True
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
INSTALLED_APPS = ["django.contrib.auth", "django.contrib.contenttypes", "rest_framework_api_key"]
if os.environ.get("DJANGO_PG_NAME"):
    DATABASES = {"default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": os.environ["DJANGO_PG_NAME"],
        "USER": os.environ.get("DJANGO_PG_USER", ""),
        "HOST": os.environ.get("DJANGO_PG_HOST", ""),
        "PORT": os.environ.get("DJANGO_PG_PORT", ""),
    }}
else:
    DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.environ["DJANGO_DB"]}}
