"""DRF's answers for a ListSerializer (many=True) validating a list of items
(Serializer.ValidateList).

TestValidateListAsDRF runs it with Debian's Django 3.2 / DRF 3.14, and with
the DRF 3.18 / Django 5.2 of conformance/reference/drf318
(scripts/install-references lays it out), through internal/drfsuite.RunDRF,
and compares each answer.

From DRF 3.18's tests/test_serializer_lists.py (TestListSerializer,
TestListSerializerClass, TestNestedListSerializer's validation,
TestEmptyListSerializer, TestMaxMinLengthListSerializer): for each list
serializer of LISTS it prints, as JSON, the errors or the representation
of what it validated, for each input. list_drf_test.go pins what it
prints.
"""
import json
import sys

import django
from django.conf import settings

settings.configure(DEBUG=True, SECRET_KEY="x", INSTALLED_APPS=["rest_framework"], USE_TZ=True)
django.setup()

import rest_framework  # noqa: E402
from rest_framework import serializers  # noqa: E402


class ItemSerializer(serializers.Serializer):
    a = serializers.IntegerField()
    b = serializers.CharField(required=False)


INPUTS = [
    [{"a": 1}, {"a": 2, "b": "x"}],
    [],
    [{"a": 1}, {"a": "x"}, {}],
    [{"a": 1}, {"a": 2}, {"a": 3}],
    [{"a": 1}, "x", None],
    {"a": 1},
    "x",
    1,
    None,
]

# name: ListSerializer's arguments (the Go test's options are the same).
LISTS = {
    "plain": {},
    "not_empty": {"allow_empty": False},
    "lengths": {"max_length": 2, "min_length": 1},
}


def answers(kwargs):
    out = []
    for data in INPUTS:
        s = ItemSerializer(data=data, many=True, **kwargs)
        if s.is_valid():
            out.append([data, {"validated": ItemSerializer(s.validated_data, many=True).data}])
        else:
            out.append([data, {"errors": s.errors}])
    return out


json.dump({
    "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
    "lists": {name: answers(kwargs) for name, kwargs in LISTS.items()},
}, sys.stdout, indent=1)
print()
