"""DRF's answers for a ModelSerializer of a django.contrib.postgres
ArrayField of a size: Django's ArrayField(size=N) adds
ArrayMaxLengthValidator(N) to the model field's validators, which DRF's
ModelSerializer keeps on the ListField it derives, before the validators
of the ListField's own max_length and min_length (extra_kwargs). It prints the
serializer's OPTIONS description, its OpenAPI schema (AutoSchema's
map_serializer) and the outcome of validating each input.

TestArraySizeAsDRF (model_postgres_drf_test.go) runs it with Debian's
Django 3.2 / DRF 3.14 and with the DRF 3.18 / Django 5.2 of
conformance/reference/drf318 (internal/drfsuite.RunDRF), and compares
each answer. The serializers need no table, so no database is opened.
"""
import json
import sys
import types

import django
from django.conf import settings

sys.modules["tests"] = types.ModuleType("tests")
sys.modules["tests"].__file__ = __file__

settings.configure(
    DEBUG=True,
    SECRET_KEY="x",
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework", "tests"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
)
django.setup()

import rest_framework  # noqa: E402
from django.contrib.postgres import fields as postgres_fields  # noqa: E402
from django.db import models  # noqa: E402
from rest_framework import serializers  # noqa: E402
from rest_framework.metadata import SimpleMetadata  # noqa: E402
from rest_framework.schemas.openapi import AutoSchema  # noqa: E402


class ArraySizeModel(models.Model):
    tags = postgres_fields.ArrayField(models.CharField(max_length=5), size=2)
    one = postgres_fields.ArrayField(models.CharField(max_length=3), size=1, blank=True)
    free = postgres_fields.ArrayField(models.TextField(), blank=True)
    capped = postgres_fields.ArrayField(models.CharField(max_length=5), size=3, blank=True)

    class Meta:
        app_label = "tests"


class ArraySizeSerializer(serializers.ModelSerializer):
    class Meta:
        model = ArraySizeModel
        fields = ["tags", "one", "free", "capped"]
        extra_kwargs = {"capped": {"max_length": 2, "min_length": 1}}


INPUTS = [
    {"tags": ["a", "b"], "one": ["x"], "free": ["a", "b", "c"]},
    {"tags": ["a", "b", "c"]},
    {"tags": ["a", "b", "c", "d"], "one": ["x", "y"]},
    {"tags": ["abcdefg", "b", "c"]},
    {"tags": ["a", None, "c"]},
    {"tags": [], "one": []},
    {"tags": ["a"], "one": ["x", "y", "z"]},
    {"tags": ["a"], "one": ["wxyz", 2]},
    {"tags": "a"},
    {"tags": ["a"], "capped": ["a", "b"]},
    {"tags": ["a"], "capped": ["a", "b", "c"]},
    {"tags": ["a"], "capped": ["a", "b", "c", "d"]},
    {"tags": ["a"], "capped": []},
]


def plain(value):
    return json.loads(json.dumps(value))


def outcome(data):
    s = ArraySizeSerializer(data=data)
    valid = s.is_valid()
    return {"valid": valid, "errors": plain(s.errors)}


json.dump({
    "versions": {"rest_framework": rest_framework.VERSION, "django": django.get_version()},
    "info": plain(SimpleMetadata().get_serializer_info(ArraySizeSerializer())),
    "schema": plain(AutoSchema().map_serializer(ArraySizeSerializer())),
    "inputs": [[data, outcome(data)] for data in INPUTS],
}, sys.stdout, indent=1)
sys.stdout.write("\n")
