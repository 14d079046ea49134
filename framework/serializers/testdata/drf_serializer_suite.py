"""DRF's answers to the items of DRF 3.18's tests/test_serializer.py that
drftests_serializer_test.go ports (the Go test runs this script).

Run with Debian's Django 3.2 / DRF 3.14, and with the DRF 3.18 / Django 5.2
of conformance/reference/drf318 (scripts/install-references lays it out):

    /usr/bin/python3 framework/serializers/testdata/drf_serializer_suite.py
    PYTHONPATH=conformance/reference/drf318 /usr/bin/python3 framework/serializers/testdata/drf_serializer_suite.py

Each item is DRF's test method, its serializers and data as DRF's test
writes them; it prints, as JSON by "Class.method", what the method
asserts on: whether the data is valid, the errors, what was validated
and what is rendered.
"""
import json
import re
import sys

import django
from django.conf import settings

settings.configure(DEBUG=True, SECRET_KEY="x", INSTALLED_APPS=["rest_framework"], USE_TZ=True)
django.setup()

import rest_framework  # noqa: E402
from django.http import QueryDict  # noqa: E402
from rest_framework import exceptions, serializers  # noqa: E402


class MockObject:
    """DRF's tests/utils.py MockObject."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        for key, val in kwargs.items():
            setattr(self, key, val)


def plain(value):
    """value as JSON: dictionaries and lists of DRF's return types as such."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def outcome(serializer, **kwargs):
    valid = serializer.is_valid(**kwargs)
    out = {"valid": valid, "errors": plain(serializer.errors)}
    out["validated"] = plain(serializer.validated_data) if valid else {}
    return out


class ExampleSerializer(serializers.Serializer):
    """TestSerializer's ExampleSerializer."""
    char = serializers.CharField()
    integer = serializers.IntegerField()


def valid_serializer():
    s = ExampleSerializer(data={"char": "abc", "integer": 123})
    out = outcome(s)
    out["data"] = plain(s.data)
    return out


def custom_to_internal_value():
    class Point:
        def __init__(self, srid, x, y):
            self.srid = srid
            self.coords = (x, y)

    class NestedPointSerializer(serializers.Serializer):
        longitude = serializers.FloatField(source="x")
        latitude = serializers.FloatField(source="y")

        def to_internal_value(self, data):
            kwargs = super().to_internal_value(data)
            return Point(srid=4326, **kwargs)

    s = NestedPointSerializer(data={"longitude": 6.958307, "latitude": 50.941357})
    valid = s.is_valid()
    return {"valid": valid, "errors": plain(s.errors), "srid": s.validated_data.srid,
            "coords": list(s.validated_data.coords)}


def iterable_validators():
    data = {"char": "abc", "integer": 123}
    out = {}
    for name, validators in (("list", []), ("tuple", ()), ("set", set())):
        class Empty(serializers.Serializer):
            char = serializers.CharField(validators=validators)
            integer = serializers.IntegerField()
        out["none " + name] = outcome(Empty(data=data))

    def raise_exception(value):
        raise exceptions.ValidationError("Raised error")

    for name, validators in (("list", [raise_exception]), ("tuple", (raise_exception,)), ("set", {raise_exception})):
        class Raising(serializers.Serializer):
            char = serializers.CharField(validators=validators)
            integer = serializers.IntegerField()
        out["raising " + name] = outcome(Raising(data=data))
    return out


def validate_method(error):
    class Example(ExampleSerializer):
        def validate(self, attrs):
            raise serializers.ValidationError(error)

    return outcome(Example(data={"char": "abc", "integer": 123}))


class EmailSerializer(serializers.BaseSerializer):
    """TestBaseSerializer's ExampleSerializer."""

    def to_representation(self, obj):
        return {"id": obj["id"], "email": obj["name"] + "@" + obj["domain"]}

    def to_internal_value(self, data):
        name, domain = str(data["email"]).split("@")
        return {"id": int(data["id"]), "name": name, "domain": domain}


INSTANCES = [{"id": 1, "name": "tom", "domain": "example.com"}, {"id": 2, "name": "ann", "domain": "example.com"}]
EMAILS = [{"id": 1, "email": "tom@example.com"}, {"id": 2, "email": "ann@example.com"}]


class NestedSerializer1(serializers.Serializer):
    a = serializers.IntegerField()
    b = serializers.IntegerField()


class NestedSerializer2(serializers.Serializer):
    c = serializers.IntegerField()
    d = serializers.IntegerField()


class NestedBaseSerializer(serializers.Serializer):
    nested1 = NestedSerializer1(source="*")
    nested2 = NestedSerializer2(source="*")


class NullableNestedSerializer(serializers.Serializer):
    nested = NestedSerializer1(source="*", allow_null=True)


class CustomField(serializers.Field):
    def to_representation(self, instance):
        return getattr(instance, "foo", None)

    def to_internal_value(self, data):
        return {"foo": data}


class NullableFieldSerializer(serializers.Serializer):
    field = CustomField(source="*", allow_null=True)


STARRED = {"nested1": {"a": 1, "b": 2}, "nested2": {"c": 3, "d": 4}}


class DefaultOutput(serializers.Serializer):
    has_default = serializers.CharField(default="x")
    has_default_callable = serializers.CharField(default=lambda: "y")
    no_default = serializers.CharField()


def nested_not_required_querydict():
    class Nested(serializers.Serializer):
        x = serializers.CharField()

    class Parent(serializers.Serializer):
        name = serializers.CharField()
        nested = Nested(required=False)

    return outcome(Parent(data=QueryDict("name=test")))


def default_for_allow_null():
    class AllowNull(serializers.Serializer):
        foo = serializers.CharField()
        bar = serializers.CharField(source="foo.bar", allow_null=True)
        optional = serializers.CharField(required=False, allow_null=True)

    return {"data": plain(AllowNull({"foo": None}).data)}


class DefaultInclusions(serializers.Serializer):
    char = serializers.CharField(default="abc")
    integer = serializers.IntegerField()


def regression_4606():
    class Example(serializers.Serializer):
        name = serializers.CharField(required=True)
        choices = serializers.CharField(required=True)

    s = Example(data=[{"name": "liz"}], many=True)
    try:
        s.is_valid(raise_exception=True)
    except serializers.ValidationError as exc:
        return {"raises": True, "detail": plain(exc.detail)}
    return {"raises": False}


def regex_field():
    class Example(serializers.Serializer):
        name = serializers.RegexField(re.compile(r"\d"), required=True)

    return outcome(Example(data={"name": "2"}))


def warning_many_to_many():
    from django.db import models

    class ManyToManyTarget(models.Model):
        name = models.CharField(max_length=100)

        class Meta:
            app_label = "tests"

    class ManyToManySource(models.Model):
        name = models.CharField(max_length=100)
        targets = models.ManyToManyField(ManyToManyTarget, related_name="sources")

        class Meta:
            app_label = "tests"

    class ManyToManySourceSerializer(serializers.ModelSerializer):
        targets = serializers.PrimaryKeyRelatedField(many=True, queryset=ManyToManyTarget.objects.all(), default=None)

        class Meta:
            model = ManyToManySource
            fields = "__all__"

    try:
        ManyToManySourceSerializer(data={"name": "Invalid Example"}).get_fields()
    except ValueError as exc:
        return {"error": str(exc)}
    return {"error": None}


ITEMS = {
    "TestSerializer.test_valid_serializer": valid_serializer,
    "TestSerializer.test_invalid_serializer": lambda: outcome(ExampleSerializer(data={"char": "abc"})),
    "TestSerializer.test_invalid_datatype": lambda: outcome(ExampleSerializer(data=[{"char": "abc"}])),
    "TestSerializer.test_partial_validation": lambda: outcome(ExampleSerializer(data={"char": "abc"}, partial=True)),
    "TestSerializer.test_validate_none_data": lambda: outcome(ExampleSerializer(data=None)),
    "TestSerializer.test_custom_to_internal_value": custom_to_internal_value,
    "TestSerializer.test_iterable_validators": iterable_validators,
    "TestValidateMethod.test_non_field_error_validate_method": lambda: validate_method("Non field error"),
    "TestValidateMethod.test_field_error_validate_method": lambda: validate_method({"char": "Field error"}),
    "TestBaseSerializer.test_serialize_instance": lambda: {"data": plain(EmailSerializer(INSTANCES[0]).data)},
    "TestBaseSerializer.test_serialize_list": lambda: {"data": plain(EmailSerializer(INSTANCES, many=True).data)},
    "TestBaseSerializer.test_validate_data": lambda: outcome(EmailSerializer(data=EMAILS[0])),
    "TestBaseSerializer.test_validate_list": lambda: outcome(EmailSerializer(data=EMAILS, many=True)),
    "TestStarredSource.test_nested_validate": lambda: outcome(NestedBaseSerializer(data=STARRED)),
    "TestStarredSource.test_nested_null_validate": lambda: {
        "valid": NullableNestedSerializer(data={"nested": None}).is_valid()},
    "TestStarredSource.test_nested_serialize": lambda: {"data": plain(NestedBaseSerializer(
        {"a": 1, "b": 2, "c": 3, "d": 4}).data)},
    "TestStarredSource.test_field_validate": lambda: outcome(NullableFieldSerializer(data={"field": "bar"})),
    "TestStarredSource.test_field_null_validate": lambda: outcome(NullableFieldSerializer(data={"field": None})),
    "TestDefaultOutput.test_default_not_used_when_in_dict": lambda: {"data": plain(DefaultOutput(
        {"has_default": "def", "has_default_callable": "ghi", "no_default": "abc"}).data)},
    "TestDefaultOutput.test_default_not_used_when_in_object": lambda: {"data": plain(DefaultOutput(MockObject(
        has_default="def", has_default_callable="ghi", no_default="abc")).data)},
    "TestDefaultOutput.test_nested_serializer_not_required_with_querydict": nested_not_required_querydict,
    "TestDefaultOutput.test_default_for_allow_null": default_for_allow_null,
    "TestDefaultInclusions.test_default_should_included_on_create": lambda: outcome(DefaultInclusions(
        data={"integer": 456})),
    "TestDefaultInclusions.test_default_should_be_included_on_update": lambda: outcome(DefaultInclusions(
        MockObject(char="def", integer=123), data={"integer": 456})),
    "TestDefaultInclusions.test_default_should_not_be_included_on_partial_update": lambda: outcome(DefaultInclusions(
        MockObject(char="def", integer=123), data={"integer": 456}, partial=True)),
    "TestSerializerValidationWithCompiledRegexField.test_validation_success": regex_field,
    "Test4606Regression.test_4606_regression": regression_4606,
    "TestWarningManyToMany.test_warning_many_to_many": warning_many_to_many,
}

json.dump({
    "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
    "items": {name: fn() for name, fn in ITEMS.items()},
}, sys.stdout, indent=1, sort_keys=True)
print()
