# The Django project of TestMakeMigrationsAsDjango: the snippets app on
# the database of $MIGRATIONS_DATABASE_URL (sqlite:////path or postgres://).
import os
from urllib.parse import urlparse

SECRET_KEY = 'migrations-test'
INSTALLED_APPS = ['django.contrib.contenttypes', 'django.contrib.auth', 'snippets']
DEFAULT_AUTO_FIELD = 'django.db.models.AutoField'
USE_TZ = True

_url = urlparse(os.environ['MIGRATIONS_DATABASE_URL'])
if _url.scheme == 'sqlite':
    DATABASES = {'default': {'ENGINE': 'django.db.backends.sqlite3', 'NAME': _url.path[1:]}}
else:
    DATABASES = {'default': {
        'ENGINE': 'django.db.backends.postgresql', 'NAME': _url.path[1:], 'USER': _url.username,
        'PASSWORD': _url.password or '', 'HOST': _url.hostname, 'PORT': _url.port or 5432,
    }}
