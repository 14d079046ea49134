# The Django project of TestMakeMigrationsAsDjango: the snippets app on
# the database of $MIGRATIONS_DATABASE_URL (sqlite:////path or postgres://).
import os

from djangodb import database

SECRET_KEY = 'migrations-test'
INSTALLED_APPS = ['django.contrib.contenttypes', 'django.contrib.auth', 'snippets']
DEFAULT_AUTO_FIELD = 'django.db.models.AutoField'
USE_TZ = True

DATABASES = {'default': database(os.environ['MIGRATIONS_DATABASE_URL'])}
