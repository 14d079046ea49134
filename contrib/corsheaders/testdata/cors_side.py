"""django-cors-headers' own CorsMiddleware, for corsheaders_django_test.go.

Reads the cases as JSON on stdin: {"variants": [{"settings": {...},
"signal": bool, "requests": [{"method", "path", "headers"}]}], "checks":
[{...settings}]}. Serves each variant's requests through Django's test
Client with the variant's CORS_* settings and corsheaders in MIDDLEWARE
(and, with "signal", a check_request_enabled handler that allows requests
with X-Cors-Ok: 1), and runs corsheaders' system checks on each "checks"
entry. Prints {"versions", "answers": [[{"status", "headers", "body"}]],
"checks": [[{"id", "msg"}]]} as JSON.
"""
import json
import sys
from importlib.metadata import version

import django
from django.conf import settings
from django.http import HttpResponse
from django.urls import path


def hello(request):
    return HttpResponse("hello")


def vary(request):
    response = HttpResponse("vary")
    response["Vary"] = "Accept"
    return response


def secret(request):
    # What a DRF view with an authentication scheme answers without credentials.
    response = HttpResponse('{"detail":"Authentication credentials were not provided."}',
                            status=401, content_type="application/json")
    response["WWW-Authenticate"] = "Token"
    return response


urlpatterns = [
    path("api/hello/", hello),
    path("api/vary/", vary),
    path("api/secret/", secret),
    path("other/", hello),
]

settings.configure(
    DEBUG=False,
    SECRET_KEY="corsheaders-side",
    ALLOWED_HOSTS=["testserver"],
    ROOT_URLCONF=__name__,
    INSTALLED_APPS=["corsheaders"],
    MIDDLEWARE=["corsheaders.middleware.CorsMiddleware"],
    USE_TZ=True,
)
django.setup()

from django.test import Client, override_settings  # noqa: E402

from corsheaders.checks import check_settings  # noqa: E402
from corsheaders.signals import check_request_enabled  # noqa: E402


def allow_marked(sender, request, **kwargs):
    return request.headers.get("X-Cors-Ok") == "1"


def serve(variant):
    client = Client()
    answers = []
    if variant.get("signal"):
        check_request_enabled.connect(allow_marked)
    try:
        with override_settings(**variant["settings"]):
            for req in variant["requests"]:
                extra = {"HTTP_" + k.upper().replace("-", "_"): v for k, v in req["headers"].items()}
                response = client.generic(req["method"], req["path"], **extra)
                answers.append({
                    "status": response.status_code,
                    "headers": dict(response.headers.items()),
                    "body": response.content.decode("latin-1"),
                })
    finally:
        check_request_enabled.disconnect(allow_marked)
    return answers


def checks(values):
    with override_settings(**values):
        return [{"id": e.id, "msg": e.msg} for e in check_settings()]


cases = json.load(sys.stdin)
json.dump({
    "versions": {"django": django.get_version(), "corsheaders": version("django-cors-headers")},
    "answers": [serve(v) for v in cases["variants"]],
    "checks": [checks(c) for c in cases["checks"]],
}, sys.stdout)
