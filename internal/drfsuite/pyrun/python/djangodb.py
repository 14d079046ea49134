"""Django's DATABASES entry for the repository's oracles (internal/drfsuite/pyrun
puts this directory on every script's PYTHONPATH)."""
from urllib.parse import unquote, urlparse


def database(target):
    """The DATABASES["default"] of target: a postgres:// (or postgresql://)
    URL, an sqlite:///path URL, or the path of an SQLite file (":memory:"
    too)."""
    url = urlparse(target)
    if url.scheme in ("postgres", "postgresql"):
        return {"ENGINE": "django.db.backends.postgresql", "NAME": url.path.lstrip("/"),
                "USER": unquote(url.username or ""), "PASSWORD": unquote(url.password or ""), "HOST": url.hostname,
                "PORT": str(url.port or 5432)}
    if url.scheme == "sqlite":
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": url.path[1:] if url.path.startswith("//") else url.path}
    return {"ENGINE": "django.db.backends.sqlite3", "NAME": target}
