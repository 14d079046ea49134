# The Django project of TestRemakeAsDjangoMigrate: the remake app on the
# SQLite database of $MIGRATIONS_DATABASE_PATH.
import os

SECRET_KEY = 'migrations-test'
INSTALLED_APPS = ['remake']
DEFAULT_AUTO_FIELD = 'django.db.models.AutoField'
USE_TZ = True
DATABASES = {'default': {'ENGINE': 'django.db.backends.sqlite3', 'NAME': os.environ['MIGRATIONS_DATABASE_PATH']}}
