"""DRF's answers for the options of DecimalField (the drf tag's
coerce_to_string, rounding, normalize_output, min_value and max_value).

TestDecimalOptionsAsDRF runs it with Debian's Django 3.2 / DRF 3.14, and
with the DRF 3.18 / Django 5.2 of conformance/reference/drf318
(scripts/install-references lays it out), through internal/drfsuite.RunDRF,
and compares each answer.

From DRF 3.18's tests/test_fields.py (TestMinMaxDecimalField,
TestAllowEmptyStrDecimalFieldWithValidators, TestNoMaxDigitsDecimalField,
TestNoStringCoercionDecimalField, TestAllowNullNoStringCoercionDecimalField,
TestNormalizedOutputValueDecimalField, TestRoundingDecimalField) and more
inputs: for each field of FIELDS it prints, as JSON, the errors or the
rendering of what it validated for each input, and its rendering of each
stored value (through a Serializer, with DRF's JSONEncoder, as a response
writes it). DRF 3.14 has no normalize_output: at that level the field is
built without it, which is how the framework answers at the 3.14 level.
decimal_drf_test.go pins what it prints.
"""
import decimal
import json
import sys

import django
from django.conf import settings

settings.configure(DEBUG=True, SECRET_KEY="x", INSTALLED_APPS=["rest_framework"], USE_TZ=True)
django.setup()

import rest_framework  # noqa: E402
from rest_framework import serializers  # noqa: E402
from rest_framework.utils.encoders import JSONEncoder  # noqa: E402

NORMALIZE = rest_framework.VERSION >= "3.15"

INPUTS = ["12.3", "0.1", 10, "9.9", "20.1", "10.0", "20.0", 5, -1, 11, "", " ", None, "1.234", "abc", "12.345", "0.01"]
OUTPUTS = ["1.09", "0.04", "-0.04", "1", "1.000", "1.234", "-1.234", "1.235", "1.225", "-1.225", "1.2350", "1.2", "0.000", "12", "100", "9.999"]

# name: DecimalField's arguments (the Go test's fields are the same).
FIELDS = {
    "plain": dict(max_digits=3, decimal_places=1),
    "number": dict(max_digits=3, decimal_places=1, coerce_to_string=False),
    "null_number": dict(max_digits=3, decimal_places=1, coerce_to_string=False, allow_null=True),
    "min_max": dict(max_digits=3, decimal_places=1, min_value=decimal.Decimal("10.0"), max_value=decimal.Decimal("20.0")),
    "null_min_max": dict(max_digits=3, decimal_places=1, allow_null=True, min_value=0, max_value=10),
    "no_max_digits": dict(max_digits=None, decimal_places=2, min_value=0, max_value=100),
    "no_places": dict(max_digits=6, decimal_places=None),
    "round_up": dict(max_digits=4, decimal_places=2, rounding=decimal.ROUND_UP),
    "round_down": dict(max_digits=4, decimal_places=2, rounding=decimal.ROUND_DOWN),
    "round_ceiling": dict(max_digits=4, decimal_places=2, rounding=decimal.ROUND_CEILING),
    "round_floor": dict(max_digits=4, decimal_places=2, rounding=decimal.ROUND_FLOOR),
    "round_half_up": dict(max_digits=4, decimal_places=2, rounding=decimal.ROUND_HALF_UP),
    "round_half_down": dict(max_digits=4, decimal_places=2, rounding=decimal.ROUND_HALF_DOWN),
    "round_half_even": dict(max_digits=4, decimal_places=2, rounding=decimal.ROUND_HALF_EVEN),
    "round_05up": dict(max_digits=4, decimal_places=2, rounding=decimal.ROUND_05UP),
    "normalize": dict(max_digits=4, decimal_places=3, normalize_output=True),
    "normalize_number": dict(max_digits=4, decimal_places=3, normalize_output=True, coerce_to_string=False),
}


def answers(kwargs):
    if not NORMALIZE:
        kwargs = {k: v for k, v in kwargs.items() if k != "normalize_output"}
    S = type("S", (serializers.Serializer,), {"f": serializers.DecimalField(**kwargs)})
    inputs = []
    for data in INPUTS:
        s = S(data={"f": data})
        if s.is_valid():
            inputs.append([data, {"validated": json.loads(json.dumps(S(s.validated_data).data, cls=JSONEncoder))}])
        else:
            inputs.append([data, {"errors": s.errors}])
    outputs = []
    for stored in OUTPUTS:
        try:
            out = json.loads(json.dumps(S({"f": decimal.Decimal(stored)}).data, cls=JSONEncoder))
        except decimal.InvalidOperation:
            continue  # beyond max_digits: DRF's quantize raises (a 500)
        outputs.append([stored, out])
    return {"inputs": inputs, "outputs": outputs}


def rounding_error():
    try:
        serializers.DecimalField(max_digits=1, decimal_places=1, rounding="ROUND_UNKNOWN")
    except AssertionError as e:
        return str(e)


json.dump({
    "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
    "rounding_error": rounding_error(),
    "fields": {name: answers(kwargs) for name, kwargs in FIELDS.items()},
}, sys.stdout, indent=1)
print()
