"""DRF's answers for lists and dictionaries whose child is a list, a
dictionary, a nullable field or no field (containers_drf_test.go).

Run with Debian's Django 3.2 / DRF 3.14, and with the DRF 3.18 / Django 5.2
of conformance/reference/drf318 (scripts/install-references lays it out):

    /usr/bin/python3 framework/serializers/testdata/drf_containers.py
    PYTHONPATH=conformance/reference/drf318 /usr/bin/python3 framework/serializers/testdata/drf_containers.py

It prints, as JSON by "field mode input", what a Serializer of that one
field (named "f", a field of FIELDS) answers for the input (mode "json":
the text of a JSON object; "form": an urlencoded body, a QueryDict):
{"value": ...} (validated_data["f"] as the field renders it) or
{"errors": ...} (errors["f"]); and, under "lists", what a
ListSerializer whose child is a field (LISTS) answers for the input as
the top-level serializer: {"value": data} or {"errors": errors}.
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

I = serializers.IntegerField  # noqa: E741
L = serializers.ListField
D = serializers.DictField

FIELDS = {
    "list_of_lists": lambda: L(child=L(child=I())),
    "dict_of_dicts": lambda: D(child=D(child=serializers.CharField())),
    "list_of_dicts": lambda: L(child=D(child=I())),
    "dict_of_lists": lambda: D(child=L(child=I())),
    "null_char_dict": lambda: D(child=serializers.CharField(allow_null=True)),
    "null_int_list": lambda: L(child=I(allow_null=True)),
    "any_list": lambda: L(),
    "any_dict": lambda: D(),
    "child_options": lambda: L(child=L(child=I(max_value=10), allow_empty=False, max_length=2), min_length=1),
    "null_child_list": lambda: L(child=L(child=I(), allow_null=True)),
    "not_empty_dicts": lambda: L(child=D(allow_empty=False)),
}

CASES = [
    # DRF's TestNestedListField.
    ("list_of_lists", "json", '[[1, 2], [3]]'),
    ("list_of_lists", "json", '[[]]'),
    ("list_of_lists", "json", '["not a list"]'),
    ("list_of_lists", "json", '[[1, 2, "error"], ["error"]]'),
    ("list_of_lists", "json", '[{"one": "two"}]'),
    ("list_of_lists", "json", '[null]'),
    ("list_of_lists", "json", '[[null]]'),
    ("list_of_lists", "form", 'f[0][0]=1&f[0][1]=2&f[1][0]=3'),
    ("list_of_lists", "form", 'f[1][0]=x&f[0][0]=1'),
    ("list_of_lists", "form", 'f[0]=1'),
    ("list_of_lists", "form", 'f[0]x=1'),
    # DRF's TestNestedDictField.
    ("dict_of_dicts", "json", '{"0": {"a": 1, "b": "2"}, "1": {"3": 3}}'),
    ("dict_of_dicts", "json", '{"0": {"a": 1, "b": null}, "1": {"c": null}}'),
    ("dict_of_dicts", "json", '{"0": "not a dict"}'),
    ("dict_of_dicts", "json", '{"0": []}'),
    ("list_of_dicts", "json", '[{"a": 1}, {}, {"b": "2"}]'),
    ("list_of_dicts", "json", '[{"a": "x"}, [1], {"b": null}]'),
    ("list_of_dicts", "form", 'f[0]a=1&f[1]b=2'),
    ("list_of_dicts", "form", 'f[0].a=1&f[1].b=x'),
    ("dict_of_lists", "json", '{"a": [1, "2"], "b": []}'),
    ("dict_of_lists", "json", '{"a": [1, "x"], "b": {"c": 1}, "d": null}'),
    # DRF's TestDictFieldWithNullChild.
    ("null_char_dict", "json", '{"a": null, "b": "2", "3": 3}'),
    ("null_int_list", "json", '[1, null, "3"]'),
    ("null_int_list", "json", '[1, null, "x"]'),
    # DRF's TestUnvalidatedListField and TestUnvalidatedDictField.
    ("any_list", "json", '[1, "2", true, [4, 5, 6], null, {"a": 1.5}]'),
    ("any_list", "json", '"not a list"'),
    ("any_list", "form", 'f=1&f=2'),
    ("any_dict", "json", '{"a": 1, "b": [4, 5, 6], "1": 123}'),
    ("any_dict", "json", '"not a dict"'),
    ("child_options", "json", '[[1, 2], [3]]'),
    ("child_options", "json", '[[1, 2, 3], [], [11]]'),
    ("child_options", "json", '[]'),
    ("null_child_list", "json", '[[1], null]'),
    ("null_child_list", "json", '[[null]]'),
    # DRF's TestListSerializerDictErrorBehavior's list_field.
    ("not_empty_dicts", "json", '[{"ok": "x"}, {}, {"valid": "y"}, {}]'),
    ("not_empty_dicts", "json", '[{"ok": "x"}]'),
]


def answer(name, mode, text):
    class One(serializers.Serializer):
        f = FIELDS[name]()

    data = QueryDict(text) if mode == "form" else {"f": json.loads(text)}
    s = One(data=data)
    if not s.is_valid():
        return {"errors": s.errors["f"]}
    return {"value": One().fields["f"].to_representation(s.validated_data["f"])}


class Integers(serializers.ListSerializer):
    child = serializers.IntegerField(max_value=10)


class IntegerLists(serializers.ListSerializer):
    child = serializers.ListField(child=serializers.IntegerField())


LISTS = {"integers": Integers, "integer_lists": IntegerLists}

# A ListSerializer whose child is a field, as the top-level serializer
# (DRF's TestListSerializer): its errors are a ListSerializer's.
LIST_CASES = [
    ("integers", "json", '["1", 2]'),
    ("integers", "json", '["1", "x", null, 11]'),
    ("integers", "json", '"abc"'),
    ("integers", "json", '{"a": 1}'),
    ("integers", "form", '[0]=1&[1]=x'),
    ("integers", "form", ''),
    ("integer_lists", "json", '[[1], ["x"], "y"]'),
    ("integer_lists", "form", '[0][0]=1&[1][0]=2'),
]


def list_answer(name, mode, text):
    s = LISTS[name](data=QueryDict(text) if mode == "form" else json.loads(text))
    if not s.is_valid():
        return {"errors": s.errors}
    return {"value": s.data}


json.dump({
    "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
    "items": {f"{name} {mode} {text}": answer(name, mode, text) for name, mode, text in CASES},
    "lists": {f"{name} {mode} {text}": list_answer(name, mode, text) for name, mode, text in LIST_CASES},
}, sys.stdout, indent=1, sort_keys=True)
print()
