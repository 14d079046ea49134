"""DRF's answers for DecimalField(localize=True) (DRF 3.18's
TestLocalizedDecimalField, with more languages, inputs and outputs).

TestLocalizedDecimalAsDRF runs it with Debian's Django 3.2 / DRF 3.14
(under USE_L10N = True, as Django 3.2's startproject sets it), and with the
DRF 3.18 / Django 5.2 of conformance/reference/drf318
(internal/drfsuite.RunDRF), and compares each answer with a request
localized by framework/translation's LocaleMiddleware.

For each language of LANGUAGES, with USE_THOUSAND_SEPARATOR off and on,
and each field of FIELDS, it prints, as JSON, what a Serializer of that
one field (named "f") answers under the language: for each input of
INPUTS, {"value": ...} (the validated value as the field renders it,
through DRF's JSONRenderer) or {"errors": [...]}; for each stored value of
OUTPUTS, {"value": ...} (the field's rendering of that Decimal).
"""
import decimal
import json
import sys

import django
from django.conf import settings

config = dict(DEBUG=True, SECRET_KEY="x", INSTALLED_APPS=["rest_framework"], USE_TZ=True, USE_I18N=True)
if django.VERSION < (4, 0):
    config["USE_L10N"] = True
settings.configure(**config)
django.setup()

import rest_framework  # noqa: E402
from django.test.utils import override_settings  # noqa: E402
from django.utils import translation  # noqa: E402
from rest_framework import serializers  # noqa: E402
from rest_framework.renderers import JSONRenderer  # noqa: E402

LANGUAGES = ["pl", "de", "en", "fr", "de-ch", "hi", "es-ar", "nb"]

# name: DecimalField's arguments (the Go test's fields are the same).
FIELDS = {
    "test": dict(max_digits=2, decimal_places=1, localize=True),
    "number": dict(max_digits=2, decimal_places=1, coerce_to_string=False, localize=True),
    "wide": dict(max_digits=15, decimal_places=3, localize=True),
    "free": dict(max_digits=None, decimal_places=None, localize=True),
}

INPUTS = ["1,1", "1.1", 1.1, 11, " 1,5 ", "-0,5", "1\u00a0234,5", "1 234,5", "1.234,5", "1,234.5", "1.234",
          "1.23", "12,345", "1.234.567", "1,2,3", "abc", "", "1e3"]
# The last three are past numberformat.format's 200 digits: scientific.
OUTPUTS = ["1.1", "-0.5", "1234567.891", "-1234.5", "0.05", "1000000", "999999999999.999",
           "1" + "0" * 250, "0." + "0" * 205 + "1", "-" + "9" * 201 + ".5"]


def answer(field, kind, value):
    S = type("S", (serializers.Serializer,), {"f": serializers.DecimalField(**FIELDS[field])})
    if kind == "out":
        try:
            data = S({"f": decimal.Decimal(value)}).data
        except decimal.InvalidOperation:
            return None  # beyond max_digits: DRF's quantize raises (a 500)
        return {"value": json.loads(JSONRenderer().render(data["f"]))}
    s = S(data={"f": value})
    if not s.is_valid():
        return {"errors": [str(m) for m in s.errors["f"]]}
    return {"value": json.loads(JSONRenderer().render(s.fields["f"].to_representation(s.validated_data["f"])))}


cases = []
for lang in LANGUAGES:
    for thousands in (False, True):
        with translation.override(lang), override_settings(USE_THOUSAND_SEPARATOR=thousands):
            for field in FIELDS:
                for kind, values in (("in", INPUTS), ("out", OUTPUTS)):
                    for value in values:
                        got = answer(field, kind, value)
                        if got is not None:
                            cases.append([lang, thousands, field, kind, value, got])

json.dump({"versions": {"rest_framework": rest_framework.VERSION, "django": django.get_version()}, "cases": cases},
          sys.stdout, indent=1, ensure_ascii=True)
sys.stdout.write("\n")
