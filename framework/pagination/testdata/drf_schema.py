"""DRF's OpenAPI description of its pagination styles, for
schema_drf_test.go.

Run with Debian's Django 3.2 / DRF 3.14, and with the DRF 3.18 / Django
5.2 of conformance/reference/drf318 (PYTHONPATH); the test runs it at
each level and compares:

    /usr/bin/python3 framework/pagination/testdata/drf_schema.py
    PYTHONPATH=conformance/reference/drf318 /usr/bin/python3 framework/pagination/testdata/drf_schema.py

For each style of STYLES (a pagination class and its attributes) it
prints, as JSON by name, the query parameters of a list
(get_schema_operation_parameters) and the answer's schema around a
list's ({"type": "array"}, get_paginated_response_schema).
"""
import json

import django
from django.conf import settings

settings.configure(
    SECRET_KEY="x",
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
)
django.setup()

from rest_framework import pagination  # noqa: E402

STYLES = {
    "page-number": (pagination.PageNumberPagination, {"page_size": 5}),
    "page-number-params": (pagination.PageNumberPagination,
                           {"page_size": 5, "page_query_param": "p", "page_size_query_param": "size"}),
    "limit-offset": (pagination.LimitOffsetPagination, {"default_limit": 5}),
    "limit-offset-params": (pagination.LimitOffsetPagination,
                            {"default_limit": 5, "limit_query_param": "l", "offset_query_param": "o"}),
    "cursor": (pagination.CursorPagination, {"page_size": 5, "ordering": "id"}),
    "cursor-params": (pagination.CursorPagination,
                      {"page_size": 5, "ordering": "id", "cursor_query_param": "c", "page_size_query_param": "page_size"}),
}

out = {}
for name, (base, attrs) in STYLES.items():
    style = type(name, (base,), attrs)()
    out[name] = {
        "parameters": style.get_schema_operation_parameters(None),
        "response": style.get_paginated_response_schema({"type": "array"}),
    }
print(json.dumps({"items": out}, default=str, indent=1, sort_keys=True))
