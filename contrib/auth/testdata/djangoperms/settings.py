"""Django with its auth and contenttypes apps only, on the database the Go
test names in the environment (DJANGO_DB: an SQLite path or a postgres://
URL, read by internal/drfsuite/pyrun's djangodb): the auth tests let it
migrate a database and compare what it created with what the Go
migrations create, and ask it and DRF what they answer over it."""
import os

from djangodb import database

SECRET_KEY = "contrib-auth-permission-tests"
USE_TZ = True
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
INSTALLED_APPS = ["django.contrib.auth", "django.contrib.contenttypes"]
DATABASES = {"default": database(os.environ["DJANGO_DB"])}
