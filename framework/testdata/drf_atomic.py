"""DRF's answers for framework's ATOMIC_REQUESTS tests (atomic_drf_test.go).

Serves each case's APIView under ATOMIC_REQUESTS on an SQLite database
and prints, as JSON by case name, the status it answered, the rows of
table t afterwards and the transaction.on_commit callbacks that ran.
Runs on Debian's DRF 3.14 / Django 3.2, or DRF 3.18 / Django 5.2 with
PYTHONPATH=conformance/reference/drf318.
"""
import json
import sys

import django
from django.conf import settings

settings.configure(SECRET_KEY="atomic", DEBUG=False, ALLOWED_HOSTS=["*"], USE_TZ=True, ROOT_URLCONF=__name__,
                   DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:",
                                          "ATOMIC_REQUESTS": True}},
                   INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"],
                   REST_FRAMEWORK={"DEFAULT_AUTHENTICATION_CLASSES": [], "UNAUTHENTICATED_USER": None})
django.setup()

from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import path  # noqa: E402
from django.utils.decorators import method_decorator  # noqa: E402
from rest_framework import exceptions  # noqa: E402
from rest_framework.response import Response  # noqa: E402
from rest_framework.views import APIView  # noqa: E402

ran = []


def insert(x):
    with connection.cursor() as c:
        c.execute("INSERT INTO t (x) VALUES (%s)", [x])
    transaction.on_commit(lambda: ran.append(x))


class Created(APIView):
    """Writes and answers 201."""
    def post(self, request):
        insert(1)
        return Response({"x": 1}, status=201)


class Invalid(APIView):
    """Writes, then fails validation: a handled exception."""
    def post(self, request):
        insert(1)
        raise exceptions.ValidationError({"x": ["This field is required."]})


class NotFound(APIView):
    """Writes, then raises NotFound."""
    def post(self, request):
        insert(1)
        raise exceptions.NotFound()


class Answered400(APIView):
    """Writes, then answers 400 itself, with no exception."""
    def post(self, request):
        insert(1)
        return Response({"x": ["bad"]}, status=400)


class Crashed(APIView):
    """Writes, then fails with an error no handler answers: 500."""
    def post(self, request):
        insert(1)
        raise RuntimeError("boom")


class Savepoint(APIView):
    """Writes, then writes in a nested atomic block that fails and is
    caught: the block's row and callback are undone, the rest committed."""
    def post(self, request):
        insert(1)
        try:
            with transaction.atomic():
                insert(2)
                raise RuntimeError("inner")
        except RuntimeError:
            pass
        with transaction.atomic():
            insert(3)
        return Response(status=201)


@method_decorator(transaction.non_atomic_requests, name="dispatch")
class NonAtomic(APIView):
    """Opts out (non_atomic_requests): its write stays though it fails."""
    def post(self, request):
        insert(1)
        raise exceptions.ValidationError({"x": ["This field is required."]})


class ReadsItsWrite(APIView):
    """Reads its own write back within the request."""
    def post(self, request):
        insert(7)
        with connection.cursor() as c:
            c.execute("SELECT count(*) FROM t")
            n = c.fetchone()[0]
        return Response({"count": n}, status=201)


VIEWS = {"created": Created, "invalid": Invalid, "not_found": NotFound, "answered_400": Answered400,
         "crashed": Crashed, "savepoint": Savepoint, "non_atomic": NonAtomic, "reads_its_write": ReadsItsWrite}
urlpatterns = [path(name + "/", view.as_view()) for name, view in VIEWS.items()]

with connection.cursor() as c:
    c.execute("CREATE TABLE t (x integer)")
client = Client(raise_request_exception=False)
out = {}
for name in VIEWS:
    with connection.cursor() as c:
        c.execute("DELETE FROM t")
    ran.clear()
    resp = client.post("/" + name + "/")
    with connection.cursor() as c:
        c.execute("SELECT x FROM t ORDER BY x")
        rows = [r[0] for r in c.fetchall()]
    out[name] = {"status": resp.status_code, "rows": rows, "on_commit": list(ran),
                 "body": resp.content.decode() if resp.get("Content-Type", "").startswith("application/json") else ""}
json.dump(out, sys.stdout, indent=1, sort_keys=True)
