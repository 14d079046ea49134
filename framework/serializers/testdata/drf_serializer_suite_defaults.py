"""DRF's answers for a serializer field's default= (DRF's
Field(default=...)), which drftests_serializer_test.go's
TestFieldDefaultAsDRF compares with the drf tag's default=.

Run with Debian's Django 3.2 / DRF 3.14, and with the DRF 3.18 / Django 5.2
of conformance/reference/drf318 (scripts/install-references lays it out):

    /usr/bin/python3 framework/serializers/testdata/drf_serializer_suite_defaults.py
    PYTHONPATH=conformance/reference/drf318 /usr/bin/python3 framework/serializers/testdata/drf_serializer_suite_defaults.py

Each item validates data (JSON, or an HTML form as a QueryDict) as a
create, a full update or a partial update of INSTANCE, and prints whether
it is valid, the errors and the validated data, as JSON by item.
"""
import json
import sys

import django
from django.conf import settings

settings.configure(DEBUG=True, SECRET_KEY="x", INSTALLED_APPS=["rest_framework"], USE_TZ=True)
django.setup()

import rest_framework  # noqa: E402
from django.http import QueryDict  # noqa: E402
from rest_framework import serializers  # noqa: E402


class Defaults(serializers.Serializer):
    char = serializers.CharField(default="abc")
    integer = serializers.IntegerField(default=5)
    flag = serializers.BooleanField(default=True)
    note = serializers.CharField(default=None, allow_null=True)
    name = serializers.CharField()


INSTANCE = {"char": "def", "integer": 9, "flag": False, "note": "n", "name": "old"}


def outcome(data, instance=None, partial=False):
    s = Defaults(instance, data=data, partial=partial)
    valid = s.is_valid()
    return {"valid": valid, "errors": s.errors, "validated": s.validated_data if valid else {}}


ITEMS = {
    "json create": lambda: outcome({"name": "x"}),
    "json update": lambda: outcome({"name": "x"}, INSTANCE),
    "json partial update": lambda: outcome({"name": "x"}, INSTANCE, partial=True),
    "json given": lambda: outcome({"char": "c", "integer": 7, "flag": False, "note": "m", "name": "x"}),
    "json null": lambda: outcome({"char": None, "integer": None, "note": None, "name": "x"}),
    "form create": lambda: outcome(QueryDict("name=x")),
    "form blank": lambda: outcome(QueryDict("name=x&char=&integer=&note=")),
    "form partial update": lambda: outcome(QueryDict("name=x"), INSTANCE, partial=True),
}

json.dump({
    "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
    "items": {name: fn() for name, fn in ITEMS.items()},
}, sys.stdout, indent=1, sort_keys=True)
print()
