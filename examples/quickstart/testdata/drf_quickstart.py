"""DRF's quickstart (tutorial/quickstart), served by real DRF, for
examples/quickstart's test to compare with: the same serializers, viewsets,
router and settings as the tutorial's, over django.contrib.auth's User and
Group.

main_test.go and schema_test.go run it with the DRF 3.18 / Django 5.2 of
conformance/reference/drf318, through internal/drfsuite.RunDRF:

    PYTHONPATH=conformance/reference/drf318 /usr/bin/python3 \
        examples/quickstart/testdata/drf_quickstart.py < /dev/null

Given "schema" as JSON on its stdin (echo '"schema"' | ...), it prints
instead, as JSON, DRF's OpenAPI map_serializer of the quickstart's two
serializers and of PKUserSerializer (a ModelSerializer of User's keys and
many-to-many fields), which schema_test.go compares with the components
go-drf generates.

Otherwise it makes the superuser admin (password "pw-admin") and the user bob, then
sends each exchange of EXCHANGES through Django's test client, and prints,
as JSON, the versions and for each exchange the request and the answer's
status, its headers of HEADERS, and its body (parsed when it is JSON).
main_test.go replays the requests on the Go service and compares.
"""
import base64
import json
import sys

import django
from django.conf import settings

settings.configure(
    DEBUG=False,
    SECRET_KEY="x",
    ALLOWED_HOSTS=["testserver"],
    ROOT_URLCONF=__name__,
    INSTALLED_APPS=[
        "django.contrib.auth",
        "django.contrib.contenttypes",
        "django.contrib.sessions",
        "rest_framework",
    ],
    MIDDLEWARE=[
        "django.middleware.security.SecurityMiddleware",
        "django.contrib.sessions.middleware.SessionMiddleware",
        "django.middleware.common.CommonMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
        "django.middleware.clickjacking.XFrameOptionsMiddleware",
    ],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    USE_TZ=True,
    TIME_ZONE="UTC",
    REST_FRAMEWORK={
        "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
        "PAGE_SIZE": 10,
    },
)
django.setup()

import rest_framework  # noqa: E402
from django.contrib.auth.models import Group, User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import include, path  # noqa: E402
from rest_framework import permissions, routers, serializers, viewsets  # noqa: E402


# serializers.py
class UserSerializer(serializers.HyperlinkedModelSerializer):
    class Meta:
        model = User
        fields = ["url", "username", "email", "groups"]


class GroupSerializer(serializers.HyperlinkedModelSerializer):
    class Meta:
        model = Group
        fields = ["url", "name"]


# views.py
class UserViewSet(viewsets.ModelViewSet):
    queryset = User.objects.all().order_by("-date_joined")
    serializer_class = UserSerializer
    permission_classes = [permissions.IsAuthenticated]


class GroupViewSet(viewsets.ModelViewSet):
    queryset = Group.objects.all().order_by("name")
    serializer_class = GroupSerializer
    permission_classes = [permissions.IsAuthenticated]


class PKUserSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ["id", "username", "groups", "user_permissions"]


# urls.py
router = routers.DefaultRouter()
router.register(r"users", UserViewSet)
router.register(r"groups", GroupViewSet)
urlpatterns = [
    path("", include(router.urls)),
    path("api-auth/", include("rest_framework.urls", namespace="rest_framework")),
]

ADMIN = "Basic " + base64.b64encode(b"admin:pw-admin").decode()
BOB = "Basic " + base64.b64encode(b"bob:pw-bob").decode()
WRONG = "Basic " + base64.b64encode(b"admin:wrong").decode()
JSON = "application/json"

# (method, path, authorization, content type, body): the quickstart's
# routes, read and written, with the errors a client meets.
EXCHANGES = [
    ("GET", "/", None, None, None),
    ("GET", "/users/", None, None, None),
    ("GET", "/users/", WRONG, None, None),
    ("GET", "/users/", ADMIN, None, None),
    ("GET", "/groups/", BOB, None, None),
    ("POST", "/groups/", ADMIN, JSON, '{"name": "editors"}'),
    ("POST", "/groups/", ADMIN, JSON, '{"name": "authors"}'),
    ("POST", "/groups/", ADMIN, JSON, '{"name": "editors"}'),
    ("POST", "/groups/", ADMIN, JSON, '{}'),
    ("GET", "/groups/", ADMIN, None, None),
    ("POST", "/users/", ADMIN, JSON,
     '{"username": "carol", "email": "carol@example.com", "groups": ["http://testserver/groups/1/", "http://testserver/groups/2/"]}'),
    ("POST", "/users/", ADMIN, JSON, '{"username": "carol", "groups": []}'),
    ("POST", "/users/", ADMIN, JSON, '{"username": "bad name!", "groups": []}'),
    ("POST", "/users/", ADMIN, JSON, '{"username": "dave", "email": "not-an-email", "groups": "x"}'),
    ("POST", "/users/", ADMIN, JSON, '{"username": "erin", "groups": ["http://testserver/groups/99/"]}'),
    ("POST", "/users/", ADMIN, JSON, '{"username": "erin", "groups": ["http://testserver/users/1/"]}'),
    ("POST", "/users/", ADMIN, JSON, '{"username": "erin", "groups": [1]}'),
    ("POST", "/users/", ADMIN, JSON, '{"email": "x@example.com"}'),
    ("POST", "/users/", ADMIN, "application/x-www-form-urlencoded",
     "username=frank&email=&groups=http%3A%2F%2Ftestserver%2Fgroups%2F2%2F"),
    ("GET", "/users/", ADMIN, None, None),
    ("GET", "/users/3/", ADMIN, None, None),
    ("GET", "/users/3.json", ADMIN, None, None),
    ("GET", "/users/?format=json&page=1", ADMIN, None, None),
    ("PATCH", "/users/3/", ADMIN, JSON, '{"groups": ["http://testserver/groups/2/"]}'),
    ("PUT", "/users/3/", ADMIN, JSON, '{"username": "carol", "email": "carol@example.org", "groups": []}'),
    ("GET", "/users/3/", ADMIN, None, None),
    ("GET", "/users/?page=2", ADMIN, None, None),
    ("GET", "/users/99/", ADMIN, None, None),
    ("OPTIONS", "/users/", ADMIN, None, None),
    ("OPTIONS", "/groups/1/", ADMIN, None, None),
    ("DELETE", "/groups/1/", ADMIN, None, None),
    ("GET", "/users/4/", ADMIN, None, None),
    ("DELETE", "/users/4/", ADMIN, None, None),
    ("GET", "/users/", ADMIN, None, None),
    ("PUT", "/users/", ADMIN, JSON, "{}"),
    ("GET", "/groups/2", ADMIN, None, None),
]

HEADERS = ["Content-Type", "Allow", "Vary", "WWW-Authenticate", "Location", "X-Frame-Options",
           "X-Content-Type-Options", "Referrer-Policy", "Cross-Origin-Opener-Policy"]


def main():
    call_command("migrate", verbosity=0)
    User.objects.create_superuser("admin", "admin@example.com", "pw-admin")
    User.objects.create_user("bob", "bob@example.com", "pw-bob")
    client = Client()
    answers = []
    for method, url, auth, ctype, body in EXCHANGES:
        extra = {}
        if auth:
            extra["HTTP_AUTHORIZATION"] = auth
        if body is None:
            r = client.generic(method, url, **extra)
        else:
            r = client.generic(method, url, body, content_type=ctype, **extra)
        content = r.content.decode()
        try:
            content = json.loads(content)
        except ValueError:
            pass
        answers.append({
            "request": [method, url, auth, ctype, body],
            "status": r.status_code,
            "headers": {h: r[h] for h in HEADERS if r.has_header(h)},
            "body": content,
        })
    json.dump({
        "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
        "exchanges": answers,
    }, sys.stdout, indent=1)
    print()


def schema():
    from rest_framework.schemas.openapi import AutoSchema
    json.dump({name: AutoSchema().map_serializer(ser) for name, ser in
               [("User", UserSerializer()), ("Group", GroupSerializer()), ("PKUser", PKUserSerializer())]},
              sys.stdout, indent=1)
    print()


if json.loads(sys.stdin.read() or "null") == "schema":
    schema()
else:
    main()
