"""DRF's answers for the model serializer mappings of framework/serializers.

TestModelSerializerAsDRF runs it with Debian's Django 3.2 / DRF 3.14, and
with the DRF 3.18 / Django 5.2 of conformance/reference/drf318
(scripts/install-references lays it out), through internal/drfsuite.RunDRF,
and compares each answer.

From DRF 3.18's tests/test_model_serializer.py: a field declared on a
ModelSerializer but left out of Meta.fields (test_missing_field), a
DecimalField with choices (test_choices_with_nonstandard_args) and a
non-editable field with choices (test_non_editable_choice_field). It
prints, as JSON, the versions, the setup error of the first, and of a
serializer of the model of the two others its OPTIONS "actions"
(SimpleMetadata) and, for each input of INPUTS, the errors or the
representation of the validated item; model_serializer_drf_test.go pins
what it prints.
"""
import decimal
import json
import sys

import django
from django.conf import settings

settings.configure(
    DEBUG=True,
    SECRET_KEY="x",
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    USE_TZ=True,
)
django.setup()

import rest_framework  # noqa: E402
from django.db import models  # noqa: E402
from rest_framework import serializers  # noqa: E402
from rest_framework.metadata import SimpleMetadata  # noqa: E402
from rest_framework.utils.encoders import JSONEncoder  # noqa: E402

COLOR_CHOICES = (("red", "Red"), ("blue", "Blue"), ("green", "Green"))
DECIMAL_CHOICES = ((decimal.Decimal("0.1"), "low"), (decimal.Decimal("0.5"), "medium"), (decimal.Decimal("0.9"), "high"))


class ChoiceModel(models.Model):
    price = models.DecimalField(max_digits=3, decimal_places=1, choices=DECIMAL_CHOICES)
    color = models.CharField(choices=COLOR_CHOICES, default="red", editable=False, max_length=5)

    class Meta:
        app_label = "tests"


class ChoiceSerializer(serializers.ModelSerializer):
    class Meta:
        model = ChoiceModel
        fields = ["id", "price", "color"]


INPUTS = [
    {"price": "0.1"},
    {"price": 0.5},
    {"price": "0.9", "color": "blue"},
    {"price": "0.3"},
    {"price": "0.10"},
    {"price": None},
    {},
]


def missing_field_error():
    class TestSerializer(serializers.ModelSerializer):
        missing = serializers.ReadOnlyField()

        class Meta:
            model = ChoiceModel
            fields = ("id",)

    try:
        TestSerializer().fields
    except AssertionError as e:
        return str(e)
    return None


def main():
    answers = []
    for data in INPUTS:
        s = ChoiceSerializer(data=data)
        if s.is_valid():
            answers.append([data, {"validated": ChoiceSerializer(ChoiceModel(id=1, **s.validated_data)).data}])
        else:
            answers.append([data, {"errors": s.errors}])
    json.dump({
        "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
        "missing_field": missing_field_error(),
        "actions": SimpleMetadata().get_serializer_info(ChoiceSerializer()),
        "inputs": answers,
    }, sys.stdout, indent=1, cls=JSONEncoder)
    print()


main()
