"""The Django side of the interop tests: reads one JSON command per line on
stdin, runs it with Django's own code on the shared database, and answers
one JSON object per line on stdout ({"error": ...} on failure)."""
import json
import sys
import traceback
from importlib import import_module

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import authenticate, get_user, get_user_model  # noqa: E402
from django.contrib.auth.hashers import get_hasher, make_password  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.http import HttpRequest  # noqa: E402
from django.test import Client  # noqa: E402

User = get_user_model()
SessionStore = import_module(settings.SESSION_ENGINE).SessionStore


def migrate():
    call_command("migrate", verbosity=0, interactive=False)
    return {}


def create_user(username, password, hasher, iterations=None):
    """A user whose password is hashed by the named hasher (with fewer
    iterations when given, as an older Django wrote them)."""
    h = get_hasher(hasher)
    if iterations:
        encoded = h.encode(password, h.salt(), iterations)
    else:
        encoded = make_password(password, hasher=hasher)
    user = User.objects.create(username=username, password=encoded)
    return {"id": user.pk, "password": user.password}


def check(username, password):
    """Django's authenticate(): the user, and the hash it leaves stored
    (check_password upgrades it)."""
    user = authenticate(username=username, password=password)
    stored = User.objects.get(username=username).password
    return {"user": user.username if user else None, "password": stored}


def password(username):
    return {"password": User.objects.get(username=username).password}


def set_password(username, password):
    user = User.objects.get(username=username)
    user.set_password(password)
    user.save()
    return {"password": user.password}


def login(username, password):
    """Django's login() through its test client: the sessionid it sets."""
    client = Client()
    if not client.login(username=username, password=password):
        return {"sessionid": None}
    return {"sessionid": client.cookies[settings.SESSION_COOKIE_NAME].value}


def session_user(sessionid):
    """Django's get_user() for a sessionid cookie (it flushes a session
    whose auth hash no longer matches), and whether the session remains."""
    request = HttpRequest()
    request.session = SessionStore(sessionid)
    user = get_user(request)
    return {
        "user": user.username if user.is_authenticated else None,
        "data": {k: str(v) for k, v in SessionStore(sessionid).load().items()},
        "exists": SessionStore().exists(sessionid),
    }


COMMANDS = {f.__name__: f for f in (migrate, create_user, check, password, set_password, login, session_user)}

for line in sys.stdin:
    try:
        req = json.loads(line)
        answer = COMMANDS[req.pop("cmd")](**req)
    except Exception:
        answer = {"error": traceback.format_exc()}
    print(json.dumps(answer), flush=True)
