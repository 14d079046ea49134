"""The Django side of the JWT interop test: djangorestframework-simplejwt with
the DRF reference's SIMPLE_JWT (HS256 with the SECRET_KEY, rotation, blacklist
after rotation) on the shared database. Reads one JSON command per line on
stdin and answers one JSON object per line on stdout ({"error": ...} when
the command itself fails)."""
import json
import os
import sys
import traceback
from datetime import timedelta

from django.conf import settings

settings.configure(
    SECRET_KEY=os.environ["DJANGO_SECRET_KEY"],
    USE_TZ=True,
    TIME_ZONE="UTC",
    DEFAULT_AUTO_FIELD="django.db.models.AutoField",
    INSTALLED_APPS=[
        "django.contrib.contenttypes",
        "django.contrib.auth",
        "rest_framework",
        "rest_framework_simplejwt",
        "rest_framework_simplejwt.token_blacklist",
    ],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.environ["DJANGO_DB"]}},
    PASSWORD_HASHERS=["django.contrib.auth.hashers.PBKDF2PasswordHasher"],
    SIMPLE_JWT={
        "ACCESS_TOKEN_LIFETIME": timedelta(minutes=5),
        "REFRESH_TOKEN_LIFETIME": timedelta(days=1),
        "ROTATE_REFRESH_TOKENS": True,
        "BLACKLIST_AFTER_ROTATION": True,
        "ALGORITHM": "HS256",
        "AUTH_HEADER_TYPES": ("Bearer",),
    },
)

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from rest_framework.exceptions import APIException  # noqa: E402
from rest_framework.test import APIRequestFactory  # noqa: E402
from rest_framework_simplejwt.authentication import JWTAuthentication  # noqa: E402
from rest_framework_simplejwt.exceptions import TokenError  # noqa: E402
from rest_framework_simplejwt.serializers import TokenRefreshSerializer  # noqa: E402
from rest_framework_simplejwt.tokens import RefreshToken  # noqa: E402

User = get_user_model()


def migrate():
    call_command("migrate", verbosity=0, interactive=False)
    return {}


def create_user(username, password):
    return {"id": User.objects.create_user(username=username, password=password).pk}


def mint(username):
    """simplejwt's pair for the user, as its obtain view makes it."""
    refresh = RefreshToken.for_user(User.objects.get(username=username))
    return {"refresh": str(refresh), "access": str(refresh.access_token)}


def authenticate(token):
    """JWTAuthentication on a request bearing the token: the user's name,
    or the failure's detail."""
    request = APIRequestFactory().get("/", HTTP_AUTHORIZATION="Bearer " + token)
    try:
        user, _ = JWTAuthentication().authenticate(request)
    except APIException as e:
        return {"failed": e.detail}
    return {"username": user.username}


def refresh(token):
    """The refresh view's serializer: the new pair, or the failure."""
    s = TokenRefreshSerializer(data={"refresh": token})
    try:
        s.is_valid(raise_exception=True)
    except TokenError as e:
        return {"failed": e.args[0]}
    return dict(s.validated_data)


COMMANDS = {f.__name__: f for f in (migrate, create_user, mint, authenticate, refresh)}

for line in sys.stdin:
    req = json.loads(line)
    try:
        answer = COMMANDS[req.pop("cmd")](**req)
    except Exception:
        answer = {"error": traceback.format_exc()}
    print(json.dumps(answer, default=str), flush=True)
