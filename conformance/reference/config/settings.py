"""Settings of the DRF reference of the sample's contract (sample/README.md, conformance/).

The same settings serve DRF 3.14 on Django 3.2 and DRF 3.18 on Django 5.2 (./start --drf)."""
import os
import warnings
from datetime import timedelta
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent

# A local test oracle: the key only signs sessions and CSRF tokens of throwaway databases.
SECRET_KEY = 'drf-reference-not-a-secret'
DEBUG = False
ALLOWED_HOSTS = ['*']  # hostname versioning answers Host: v2.example.com

INSTALLED_APPS = [
    'django.contrib.auth',
    'django.contrib.contenttypes',
    'django.contrib.sessions',
    'rest_framework',
    'rest_framework.authtoken',
    'bookshelf',
    'eco',  # the /eco/ routes, then the packages they run, in this order: it numbers the
    # content types and permissions as the sample's migrate does.
    'django_filters',
    'rest_framework_simplejwt',
    'rest_framework_simplejwt.token_blacklist',
    'rest_framework_api_key',
]

MIDDLEWARE = [
    'django.middleware.security.SecurityMiddleware',
    'django.contrib.sessions.middleware.SessionMiddleware',
    'django.middleware.common.CommonMiddleware',
    'django.middleware.csrf.CsrfViewMiddleware',
    'django.contrib.auth.middleware.AuthenticationMiddleware',
    'django.middleware.clickjacking.XFrameOptionsMiddleware',
]

ROOT_URLCONF = 'config.urls'
WSGI_APPLICATION = 'config.wsgi.application'

TEMPLATES = [{
    'BACKEND': 'django.template.backends.django.DjangoTemplates',
    'APP_DIRS': True,
    'OPTIONS': {'context_processors': [
        'django.template.context_processors.request',
        'django.contrib.auth.context_processors.auth',
    ]},
}]

DB_PATH = os.environ.get('REFERENCE_DB', '/tmp/reference.sqlite3')
DATABASES = {'default': {
    'ENGINE': 'django.db.backends.sqlite3',
    'NAME': DB_PATH,
    'OPTIONS': {'timeout': 20},
}}
DEFAULT_AUTO_FIELD = 'django.db.models.AutoField'

# The throttle history must be shared by all gunicorn workers: a file cache next to the database.
CACHES = {'default': {
    'BACKEND': 'django.core.cache.backends.filebased.FileBasedCache',
    'LOCATION': DB_PATH + '.cache',
}}

AUTHENTICATION_BACKENDS = [
    'django.contrib.auth.backends.ModelBackend',
    'django.contrib.auth.backends.RemoteUserBackend',  # for /auth/remote-user/
]
LOGIN_REDIRECT_URL = '/whoami/'   # used when the login form carries no "next"
LOGOUT_REDIRECT_URL = '/whoami/'  # likewise for logout

LANGUAGE_CODE = 'en-us'
TIME_ZONE = 'UTC'
USE_I18N = True
USE_TZ = True
STATIC_URL = '/static/'

REST_FRAMEWORK = {
    'DEFAULT_AUTHENTICATION_CLASSES': [
        'rest_framework.authentication.SessionAuthentication',
        'rest_framework.authentication.TokenAuthentication',
        'rest_framework.authentication.BasicAuthentication',
    ],
    'DEFAULT_PERMISSION_CLASSES': ['rest_framework.permissions.AllowAny'],
    'DEFAULT_PAGINATION_CLASS': 'rest_framework.pagination.PageNumberPagination',
    'PAGE_SIZE': 10,
    'DEFAULT_RENDERER_CLASSES': [
        'rest_framework.renderers.JSONRenderer',
        'rest_framework.renderers.BrowsableAPIRenderer',
    ],
    'DEFAULT_VERSIONING_CLASS': None,
    # Used by the views that set a versioning_class (the versioning routes).
    'DEFAULT_VERSION': 'v1',
    'ALLOWED_VERSIONS': ['v1', 'v2'],
    # Used by the throttled token-obtain view only.
    'DEFAULT_THROTTLE_RATES': {'anon': '3/minute'},
}

# djangorestframework-simplejwt, for /eco/jwt/ (HS256 signed with SECRET_KEY, its default).
SIMPLE_JWT = {
    'ACCESS_TOKEN_LIFETIME': timedelta(minutes=5),
    'REFRESH_TOKEN_LIFETIME': timedelta(days=1),
    'ROTATE_REFRESH_TOKENS': True,
    'BLACKLIST_AFTER_ROTATION': True,
    'ALGORITHM': 'HS256',
    'SIGNING_KEY': SECRET_KEY,
    'AUTH_HEADER_TYPES': ('Bearer',),
    'USER_ID_FIELD': 'id',
    'USER_ID_CLAIM': 'user_id',
}
# PyJWT >= 2.10 warns that this 26-byte key is shorter than SHA-256's 32 bytes; it still signs.
warnings.filterwarnings('ignore', message='The HMAC key is ')

# With DEBUG off Django logs server errors only to mail_admins: send them to stderr.
LOGGING = {
    'version': 1,
    'disable_existing_loggers': False,
    'handlers': {'stderr': {'class': 'logging.StreamHandler'}},
    'loggers': {'django.request': {'handlers': ['stderr'], 'level': 'ERROR', 'propagate': False}},
}
