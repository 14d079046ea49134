# Settings of the Django project that TestInspectDBOfADjangoDatabase
# migrates: the database is $INSPECT_DATABASE_URL (sqlite:////path or
# postgres://user:password@host:port/name).
import os
from urllib.parse import urlparse, unquote

SECRET_KEY = "inspectdb-test"
USE_TZ = True
TIME_ZONE = "UTC"
INSTALLED_APPS = ["inspected"]
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"

_url = urlparse(os.environ["INSPECT_DATABASE_URL"])
if _url.scheme == "sqlite":
    DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": _url.path[1:]}}
else:
    DATABASES = {"default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": _url.path[1:],
        "USER": unquote(_url.username or ""),
        "PASSWORD": unquote(_url.password or ""),
        "HOST": _url.hostname,
        "PORT": _url.port or 5432,
    }}
