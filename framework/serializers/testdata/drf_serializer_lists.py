"""DRF's answers to the items of DRF 3.18's tests/test_serializer_lists.py
that drftests_lists_test.go ports (the Go test runs this script).

Run with Debian's Django 3.2 / DRF 3.14, and with the DRF 3.18 / Django 5.2
of conformance/reference/drf318 (scripts/install-references lays it out):

    /usr/bin/python3 framework/serializers/testdata/drf_serializer_lists.py
    PYTHONPATH=conformance/reference/drf318 /usr/bin/python3 framework/serializers/testdata/drf_serializer_lists.py

Each item is DRF's test method, its serializers and data as DRF's test
writes them; it prints, as JSON by "Class.method", what the method
asserts on: whether the data is valid, what was validated (or saved, or
rendered) and the errors.
"""
import json
import sys

import django
from django.conf import settings

settings.configure(DEBUG=True, SECRET_KEY="x", INSTALLED_APPS=["rest_framework"], USE_TZ=True)
django.setup()

import rest_framework  # noqa: E402
from django.http import QueryDict  # noqa: E402
from django.utils.datastructures import MultiValueDict  # noqa: E402
from rest_framework import serializers  # noqa: E402


class BasicObject:
    """DRF's mock object of the saves."""

    def __init__(self, **kwargs):
        self._data = kwargs
        for key, value in kwargs.items():
            setattr(self, key, value)


def plain(value):
    """value as JSON: BasicObjects as their data, sets as sorted lists."""
    if isinstance(value, BasicObject):
        return plain(value._data)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, set):
        return sorted(plain(v) for v in value)
    return value


def outcome(serializer):
    valid = serializer.is_valid()
    out = {"valid": valid, "errors": plain(serializer.errors)}
    if valid:
        out["validated"] = plain(serializer.validated_data)
    return out


class TestSerializer(serializers.Serializer):
    integer = serializers.IntegerField()
    boolean = serializers.BooleanField()

    def create(self, validated_data):
        return BasicObject(**validated_data)


class IntegersSerializer(serializers.ListSerializer):
    child = serializers.IntegerField()


class ObjectListSerializer(serializers.ListSerializer):
    child = TestSerializer()


NESTED_INPUT = [{"integer": "123", "boolean": "true"}, {"integer": "456", "boolean": "false"}]


def nested_validate():
    return outcome(ObjectListSerializer(data=NESTED_INPUT))


def nested_create():
    s = ObjectListSerializer(data=NESTED_INPUT)
    return {"valid": s.is_valid(), "saved": plain(s.save())}


def nested_serialize():
    objs = [BasicObject(integer=123, boolean=True), BasicObject(integer=456, boolean=False)]
    return {"data": plain(ObjectListSerializer(objs).data)}


def nested_html():
    return outcome(ObjectListSerializer(data=MultiValueDict({
        "[0]integer": ["123"], "[0]boolean": ["true"], "[1]integer": ["456"], "[1]boolean": ["false"]})))


def update_custom_child_validation():
    class TestUpdateSerializer(serializers.Serializer):
        integer = serializers.IntegerField()
        boolean = serializers.BooleanField()

        def update(self, instance, validated_data):
            instance._data.update(validated_data)
            return instance

        def validate(self, data):
            assert isinstance(self.instance, BasicObject)
            assert self.initial_data["pk"] == self.instance.pk
            return super().validate(data)

    class ListUpdateSerializer(serializers.ListSerializer):
        child = TestUpdateSerializer()

        def run_child_validation(self, data):
            child_instance = next(o for o in self.instance if o.pk == data["pk"])
            self.child.instance = child_instance
            self.child.initial_data = data
            return super().run_child_validation(data)

        def update(self, instance, validated_data):
            return [self.child.update(instance, attrs) for instance, attrs in zip(self.instance, validated_data)]

    instance = [BasicObject(pk=1, integer=11, private_field="a"), BasicObject(pk=2, integer=22, private_field="b")]
    s = ListUpdateSerializer(instance, data=[
        {"pk": 1, "integer": "123", "boolean": "true"},
        {"pk": 2, "integer": "456", "boolean": "false"},
    ])
    if not rest_framework.VERSION >= "3.15":
        # DRF 3.14 has no run_child_validation: the child validates each
        # item without its instance, and update() pairs them in order.
        del ListUpdateSerializer.run_child_validation
        TestUpdateSerializer.validate = serializers.Serializer.validate
    return {"valid": s.is_valid(), "saved": plain(s.save())}


class ListsSerializer(serializers.Serializer):
    integers = serializers.ListSerializer(child=serializers.IntegerField())
    booleans = serializers.ListSerializer(child=serializers.BooleanField())

    def create(self, validated_data):
        return BasicObject(**validated_data)


LISTS_INPUT = {"integers": ["123", "456"], "booleans": ["true", "false"]}


def lists_create():
    s = ListsSerializer(data=LISTS_INPUT)
    return {"valid": s.is_valid(), "saved": plain(s.save())}


def lists_html():
    return outcome(ListsSerializer(data=MultiValueDict({
        "integers[0]": ["123"], "integers[1]": ["456"], "booleans[0]": ["true"], "booleans[1]": ["false"]})))


class ListsOfListsSerializer(serializers.Serializer):
    integers = serializers.ListSerializer(child=serializers.ListSerializer(child=serializers.IntegerField()))
    booleans = serializers.ListSerializer(child=serializers.ListSerializer(child=serializers.BooleanField()))


class Colors(serializers.Serializer):
    colors = serializers.ListField(allow_null=True, child=serializers.CharField(label="Colors", max_length=7),
                                   required=False)


class RequiredColors(serializers.Serializer):
    colors = serializers.ListField(child=serializers.CharField(label="Colors", max_length=7), required=True)


class NamedColors(Colors):
    name = serializers.CharField(max_length=100)


class ListData(serializers.Serializer):
    listdata = serializers.ListField()


class MultipleChoice(serializers.Serializer):
    multiplechoice = serializers.MultipleChoiceField(choices=[1, 2, 3])


class Fields(serializers.Serializer):
    update_field = serializers.IntegerField()
    store_field = serializers.IntegerField()


INSTANCE = [{"update_field": 11, "store_field": 12}, {"update_field": 21, "store_field": 22}]
UPDATES = [{"update_field": 31}, {"update_field": 41}]


def fails_custom_list_validate():
    class CustomListSerializer(serializers.ListSerializer):
        def validate(self, attrs):
            raise serializers.ValidationError("Non field error")

    class Empty(serializers.Serializer):
        class Meta:
            list_serializer_class = CustomListSerializer

    return outcome(Empty(data=[], many=True))


class IntegerSerializer(serializers.Serializer):
    some_int = serializers.IntegerField()


def lengths(n):
    data = {"many_int": [{"some_int": i} for i in range(n)]}
    out = {}
    for name, kwargs in (("max", {"max_length": 5}), ("min", {"min_length": 3}), ("max_min", {"min_length": 3, "max_length": 5})):
        class Wrapper(serializers.Serializer):
            many_int = IntegerSerializer(many=True, **kwargs)
        out[name] = outcome(Wrapper(data=data))
    return out


class Boolean(serializers.Serializer):
    num = serializers.BooleanField()


def nested_allow_empty(allow_empty):
    class ChildSerializer(serializers.Serializer):
        id = serializers.IntegerField()

    class ParentSerializer(serializers.Serializer):
        ids = ChildSerializer(many=True, allow_empty=allow_empty)

    return {f"partial={partial}": outcome(ParentSerializer(data={"ids": []}, partial=partial)) for partial in (False, True)}


def as_field(allow_empty, update):
    class Serializer(serializers.Serializer):
        extra_field = serializers.IntegerField()
        list_field = Fields(many=True, allow_empty=allow_empty)

    instance = {"extra_field": 1, "list_field": INSTANCE}
    if not update:
        return outcome(Serializer(instance, data={}, partial=True))
    return {"data_1": outcome(Serializer(instance, data={"extra_field": 2}, partial=True)),
            "data_2": outcome(Serializer(instance, data={"list_field": UPDATES}, partial=True))}


def listserializer_and_listfield():
    class ChildSerializer(serializers.Serializer):
        num = serializers.BooleanField()

    class WrapperSerializer(serializers.Serializer):
        list_serializer = ChildSerializer(many=True)
        list_field = serializers.ListField(child=serializers.DictField(allow_empty=False))

    return outcome(WrapperSerializer(data={
        "list_serializer": [{"num": "1"}, {"num": "wrong"}, {"num": "0"}, {"num": ""}],
        "list_field": [{"ok": "x"}, {}, {"valid": "y"}, {}],
    }))


class IntegerListSerializer(serializers.ListSerializer):
    child = IntegerSerializer()


ITEMS = {
    "TestListSerializer.test_validate": lambda: outcome(IntegersSerializer(data=["123", "456"])),
    "TestListSerializer.test_validate_html_input": lambda: outcome(IntegersSerializer(data=MultiValueDict({
        "[0]": ["123"], "[1]": ["456"]}))),
    "TestListSerializerContainingNestedSerializer.test_validate": nested_validate,
    "TestListSerializerContainingNestedSerializer.test_create": nested_create,
    "TestListSerializerContainingNestedSerializer.test_serialize": nested_serialize,
    "TestListSerializerContainingNestedSerializer.test_validate_html_input": nested_html,
    "TestListSerializerContainingNestedSerializer.test_update_allow_custom_child_validation": update_custom_child_validation,
    "TestNestedListSerializer.test_validate": lambda: outcome(ListsSerializer(data=LISTS_INPUT)),
    "TestNestedListSerializer.test_create": lists_create,
    "TestNestedListSerializer.test_serialize": lambda: {"data": plain(ListsSerializer(BasicObject(
        integers=[123, 456], booleans=[True, False])).data)},
    "TestNestedListSerializer.test_validate_html_input": lists_html,
    "TestNestedListOfListsSerializer.test_validate": lambda: outcome(ListsOfListsSerializer(data={
        "integers": [["123", "456"], ["789", "0"]], "booleans": [["true", "true"], ["false", "true"]]})),
    "TestNestedListOfListsSerializer.test_validate_html_input": lambda: outcome(ListsOfListsSerializer(data=MultiValueDict({
        "integers[0][0]": ["123"], "integers[0][1]": ["456"], "integers[1][0]": ["789"], "integers[1][1]": ["000"],
        "booleans[0][0]": ["true"], "booleans[0][1]": ["true"], "booleans[1][0]": ["false"], "booleans[1][1]": ["true"]}))),
    "TestListFieldHTMLInput.test_listfield_with_indexed_keys": lambda: outcome(Colors(data=MultiValueDict({
        "colors[0]": ["#ffffff"], "colors[1]": ["#000000"]}))),
    "TestListFieldHTMLInput.test_listfield_standard_form_submission": lambda: outcome(RequiredColors(data=MultiValueDict({
        "colors": ["#ffffff", "#000000", "#ff0000"]}))),
    "TestListSerializerClass.test_list_serializer_class_validate": fails_custom_list_validate,
    "TestSerializerPartialUsage.test_partial_listfield": lambda: outcome(ListData(data=MultiValueDict(), partial=True)),
    "TestSerializerPartialUsage.test_partial_multiplechoice": lambda: outcome(MultipleChoice(data=MultiValueDict(),
                                                                                            partial=True)),
    "TestSerializerPartialUsage.test_partial_listfield_with_non_indexed_list": lambda: outcome(Colors(
        data=MultiValueDict({"colors": ["#ffffff", "#000000"]}), partial=True)),
    "TestSerializerPartialUsage.test_listfield_mixed_plain_and_indexed_keys": lambda: outcome(Colors(
        data=MultiValueDict({"colors": ["#aaaaaa", "#bbbbbb"], "colors[0]": ["#ffffff"], "colors[1]": ["#000000"]}),
        partial=True)),
    "TestSerializerPartialUsage.test_partial_listfield_no_data_returns_empty": lambda: outcome(NamedColors(
        data=MultiValueDict({"name": ["Community Name"]}), partial=True)),
    "TestSerializerPartialUsage.test_allow_empty_true": lambda: outcome(Fields(INSTANCE, data=[], partial=True,
                                                                              many=True)),
    "TestSerializerPartialUsage.test_update_allow_empty_true": lambda: outcome(Fields(INSTANCE, data=UPDATES,
                                                                                     partial=True, many=True)),
    "TestSerializerPartialUsage.test_allow_empty_false": lambda: outcome(Fields(INSTANCE, data=[], allow_empty=False,
                                                                               partial=True, many=True)),
    "TestSerializerPartialUsage.test_update_allow_empty_false": lambda: outcome(Fields(
        INSTANCE, data=UPDATES, allow_empty=False, partial=True, many=True)),
    "TestNestedListSerializerAllowEmpty.test_allow_empty_true": lambda: nested_allow_empty(True),
    "TestNestedListSerializerAllowEmpty.test_allow_empty_false": lambda: nested_allow_empty(False),
    "TestSerializerPartialUsage.test_as_field_allow_empty_true": lambda: as_field(True, False),
    "TestSerializerPartialUsage.test_update_as_field_allow_empty_true": lambda: as_field(True, True),
    "TestSerializerPartialUsage.test_as_field_allow_empty_false": lambda: as_field(False, False),
    "TestSerializerPartialUsage.test_update_as_field_allow_empty_false": lambda: as_field(False, True),
    "TestListSerializerDictErrorBehavior.test_listserializer_and_listfield_consistency": listserializer_and_listfield,
    "TestEmptyListSerializer.test_nested_serializer_with_list_json": lambda: outcome(IntegerListSerializer(data=[])),
    "TestEmptyListSerializer.test_nested_serializer_with_list_multipart": lambda: outcome(IntegerListSerializer(
        data=QueryDict(""))),
    "TestMaxMinLengthListSerializer.test_min_max_length_two_items": lambda: lengths(2),
    "TestMaxMinLengthListSerializer.test_min_max_length_four_items": lambda: lengths(4),
    "TestMaxMinLengthListSerializer.test_min_max_length_six_items": lambda: lengths(6),
    "TestListSerializerDictErrorBehavior.test_listserializer_dict_error_format": lambda: outcome(Boolean(data=[
        {"num": "1"}, {"num": "x"}, {"num": "0"}, {"num": "hello"}], many=True)),
}

json.dump({
    "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
    "items": {name: fn() for name, fn in ITEMS.items()},
}, sys.stdout, indent=1, sort_keys=True)
print()
