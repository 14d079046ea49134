"""Django 3.2 with djangorestframework-api-key, on the database the Go test
names in the environment (DJANGO_DB: an SQLite path or a postgres:// URL,
read by internal/drfsuite/pyrun's djangodb)."""
import os

from djangodb import database

SECRET_KEY = "contrib-apikey-tests"
USE_TZ = True
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
INSTALLED_APPS = ["django.contrib.auth", "django.contrib.contenttypes", "rest_framework_api_key"]
DATABASES = {"default": database(os.environ["DJANGO_DB"])}
