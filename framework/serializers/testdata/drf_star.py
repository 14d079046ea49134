"""DRF's answers for nested serializers of source='*' (serializers.Group).

TestGroupAsDRF runs it with Debian's Django 3.2 / DRF 3.14, and with the
DRF 3.18 / Django 5.2 of conformance/reference/drf318
(scripts/install-references lays it out), through internal/drfsuite.RunDRF,
and compares each answer.

From DRF 3.18's tests/test_serializer.py (TestStarredSource), with an
optional nested serializer and a plain field beside them: it prints, as
JSON, the representation of a flat item, the OPTIONS "actions"
(SimpleMetadata), and for each input of INPUTS (JSON or a form, full or
partial) the errors or the validated data, flat as DRF merges it;
star_drf_test.go pins what it prints.
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
from rest_framework.metadata import SimpleMetadata  # noqa: E402


class NestedSerializer1(serializers.Serializer):
    a = serializers.IntegerField()
    b = serializers.IntegerField(required=False)


class NestedSerializer2(serializers.Serializer):
    c = serializers.IntegerField()
    d = serializers.IntegerField()


class NestedBaseSerializer(serializers.Serializer):
    x = serializers.IntegerField(required=False)
    nested1 = NestedSerializer1(source="*")
    nested2 = NestedSerializer2(source="*", required=False)


# [mode, partial, input]: mode is "json" or "form" (an urlencoded body).
INPUTS = [
    ["json", False, {"nested1": {"a": 1, "b": 2}, "nested2": {"c": 3, "d": 4}}],
    ["json", False, {"nested1": {"a": 1}}],
    ["json", False, {}],
    ["json", False, {"nested1": "x"}],
    ["json", False, {"nested1": [1]}],
    ["json", False, {"nested1": 1}],
    ["json", False, {"nested1": None}],
    ["json", False, {"nested1": {}}],
    ["json", False, {"nested1": {"a": "z"}, "nested2": {"c": 1}}],
    ["json", True, {"nested1": {"a": 1}}],
    ["json", True, {"nested1": {"b": 2}}],
    ["json", True, {}],
    ["form", False, "nested1.a=1&nested1.b=2&x=3"],
    ["form", False, "x=3"],
    ["form", False, "nested1.a=z&nested2.c=1&nested2.d=2"],
]


def main():
    answers = []
    for mode, partial, data in INPUTS:
        s = NestedBaseSerializer(data=QueryDict(data) if mode == "form" else data, partial=partial)
        if s.is_valid():
            answers.append([mode, partial, data, {"validated": dict(s.validated_data)}])
        else:
            answers.append([mode, partial, data, {"errors": s.errors}])
    json.dump({
        "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
        "output": NestedBaseSerializer({"x": 5, "a": 1, "b": 2, "c": 3, "d": 4}).data,
        "actions": SimpleMetadata().get_serializer_info(NestedBaseSerializer()),
        "inputs": answers,
    }, sys.stdout, indent=1)
    print()


main()
