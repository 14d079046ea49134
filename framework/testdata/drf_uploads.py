"""DRF's answers for framework's upload tests (upload_drf_test.go).

Reads a JSON list of requests on stdin, parses each with DRF's
MultiPartParser or FileUploadParser, and prints what request.data holds
(a file as its name, content type and size) or the error raised, as JSON.
Runs on Debian's DRF 3.14 / Django 3.2, or DRF 3.18 / Django 5.2 with
PYTHONPATH=conformance/reference/drf318.
"""
import base64
import json
import sys

import django
from django.conf import settings

settings.configure(SECRET_KEY="uploads", DEBUG=False, ALLOWED_HOSTS=["*"], USE_TZ=True,
                   INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"])
django.setup()

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation  # noqa: E402
from django.core.files.uploadedfile import UploadedFile  # noqa: E402
from django.test import RequestFactory, override_settings  # noqa: E402
from rest_framework.exceptions import APIException  # noqa: E402
from rest_framework.parsers import FileUploadParser, MultiPartParser  # noqa: E402
from rest_framework.request import Request  # noqa: E402

factory = RequestFactory()
out = []
for case in json.load(sys.stdin):
    extra = {"HTTP_" + k.upper().replace("-", "_"): v for k, v in case.get("headers", {}).items()}
    http_request = factory.generic("POST", "/upload/", data=base64.b64decode(case["body"]),
                                   content_type=case["content_type"], **extra)
    parser = FileUploadParser() if case["parser"] == "fileupload" else MultiPartParser()
    request = Request(http_request, parsers=[parser])
    if case.get("filename"):
        request.parser_context["kwargs"] = {"filename": case["filename"]}
    try:
        with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=case.get("data_max") or 2621440):
            data = request.data
        answer = {}
        for key in data:
            value = data[key]
            if isinstance(value, UploadedFile):
                answer[key] = "%s|%s|%d" % (value.name, value.content_type or "", value.size)
            else:
                answer[key] = value
        out.append({"data": answer})
    except RequestDataTooBig:
        out.append({"error": "RequestDataTooBig"})
    except APIException as e:
        out.append({"error": type(e).__name__, "detail": str(e.detail)})
    except SuspiciousOperation as e:
        out.append({"error": "SuspiciousOperation", "detail": str(e)})
json.dump(out, sys.stdout)
