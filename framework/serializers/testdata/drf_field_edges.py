"""DRF's answers for the field edge cases of issue 41 (DRF 3.18's
tests/test_fields.py ported onto framework/serializers).

TestFieldEdgesAsDRF runs it with Debian's Django 3.2 / DRF 3.14, and with
the DRF 3.18 / Django 5.2 of conformance/reference/drf318
(scripts/install-references lays it out), through internal/drfsuite.RunDRF,
and compares each answer.

It prints, as JSON, the versions and, for each case of CASES, the field
(a key of FIELDS), how the input arrives ("json": the text of a JSON
object, as JSONParser reads it; "form": an urlencoded body, a QueryDict),
the input, and what a Serializer of that one field (named "f") answers:
{"value": ...} (validated_data["f"] as the field renders it, a set as
a sorted list, a float that is not finite as its repr),
{"absent": true} (no value), {"errors": [...]} (a list's: by index) or {"exception": name}
(an error DRF lets through, a 500). field_edges_test.go pins it.
"""
import datetime
import decimal
import json
import math
import sys

import django
from django.conf import settings

settings.configure(
    DEBUG=True,
    SECRET_KEY="x",
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    USE_TZ=True,
    TIME_ZONE="UTC",
)
django.setup()

import rest_framework  # noqa: E402
from django.http import QueryDict  # noqa: E402
from rest_framework import serializers  # noqa: E402
from rest_framework.utils.serializer_helpers import ReturnDict  # noqa: E402,F401

GO_DURATION = datetime.timedelta(microseconds=(2**63 - 1) // 1000)

FIELDS = {
    "bool": lambda: serializers.BooleanField(required=False),
    "nullbool": lambda: serializers.BooleanField(required=False, allow_null=True),
    "char": lambda: serializers.CharField(required=False),
    "datetime": lambda: serializers.DateTimeField(required=False),
    # A Go time.Duration: DRF's DurationField bounded by the type's range
    # in whole microseconds (serializers' structs.MaxDuration).
    "duration": lambda: serializers.DurationField(
        required=False, max_value=GO_DURATION, min_value=-GO_DURATION),
    "multiple": lambda: serializers.MultipleChoiceField(choices=["a", "b"], required=False),
    "list": lambda: serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=3, required=False),
    "dict": lambda: serializers.DictField(child=serializers.IntegerField(), required=False),
    # A Go int64: DRF's IntegerField bounded by the type's range, as DRF
    # 3.18's ModelSerializer bounds a Django BigIntegerField.
    "int": lambda: serializers.IntegerField(required=False, max_value=2**63 - 1, min_value=-2**63),
    "float": lambda: serializers.FloatField(required=False),
    "nulldecimal": lambda: serializers.DecimalField(max_digits=5, decimal_places=2, required=False, allow_null=True),
}

J = "json"
F = "form"
CASES = [
    ("bool", J, '{"f": "tRuE"}'),
    ("bool", J, '{"f": "oFf"}'),
    ("bool", J, '{"f": "TRUE"}'),
    ("bool", J, '{"f": "Yes"}'),
    ("bool", J, '{"f": "yEs"}'),
    ("bool", J, '{"f": "nO"}'),
    ("bool", J, '{"f": "x"}'),
    ("bool", F, "f=tRuE"),
    ("bool", F, ""),
    ("nullbool", J, '{"f": "Null"}'),
    ("nullbool", J, '{"f": "nULL"}'),
    ("nullbool", J, '{"f": ""}'),
    ("nullbool", F, ""),
    ("nullbool", F, "f="),
    ("nullbool", F, "f=on"),
    ("char", J, '{"f": "\\ud800"}'),
    ("char", J, '{"f": "a\\udfffb\\ud800"}'),
    ("char", J, '{"f": "\\ud83d\\ude00"}'),
    ("datetime", J, '{"f": "2020-01-01T00:00:00-24:00"}'),
    ("datetime", J, '{"f": "2020-01-01T00:00:00+24:00"}'),
    ("datetime", J, '{"f": "2020-01-01T00:00:00+23:59"}'),
    ("datetime", J, '{"f": "2020-01-01T00:00:00-23:60"}'),
    ("datetime", J, '{"f": "10000-01-01T00:00:00"}'),
    ("datetime", J, '{"f": "9999-12-31T23:59:59"}'),
    ("datetime", J, '{"f": "9999-12-31T23:59:59-01:00"}'),
    ("datetime", J, '{"f": "0001-01-01T00:00:00+01:00"}'),
    ("datetime", J, '{"f": "0000-06-01T00:00:00"}'),
    ("datetime", J, '{"f": "2020-01-01T00:00:00-2330"}'),
    ("datetime", J, '{"f": "2020-01-01T00:00:00+2400"}'),
    ("duration", J, '{"f": "999999999 23:59:59"}'),
    ("duration", J, '{"f": "-999999999 00:00:01"}'),
    ("duration", J, '{"f": "0 24000000000:00:00"}'),
    ("duration", J, '{"f": "3 08:32:01.123"}'),
    ("duration", J, '{"f": "-1000000000 00"}'),
    ("duration", J, '{"f": "1000000000 00"}'),
    ("duration", J, '{"f": "1000000000 days, 00:00:00"}'),
    ("duration", J, '{"f": "99999999999999"}'),
    ("duration", J, '{"f": 99999999999999}'),
    ("duration", J, '{"f": "106751 23:47:16.854775"}'),
    ("duration", J, '{"f": "106751 23:47:16.854776"}'),
    ("duration", J, '{"f": "-106752 00:12:43.145225"}'),
    ("duration", J, '{"f": "-106752 00:12:43.145224"}'),
    ("duration", J, '{"f": "P106752D"}'),
    ("duration", J, '{"f": "-P106752D"}'),
    ("duration", J, '{"f": "106752 days 00:00:00"}'),
    ("duration", J, '{"f": 9999999999}'),
    ("duration", J, '{"f": "P1000000000D"}'),
    ("multiple", J, '{"f": ["a", "a", "b", "a"]}'),
    ("list", J, '{"f": [1]}'),
    ("list", J, '{"f": [1, 2]}'),
    ("list", J, '{"f": [1, 2, 3, 4]}'),
    ("list", J, '{"f": [1, "x", 3, 4]}'),
    ("list", J, '{"f": []}'),
    ("list", F, "f=1"),
    ("list", F, "f[0]=1&f[1]=2&f[2]=3&f[3]=4"),
    ("dict", F, "f="),
    ("dict", F, ""),
    ("dict", F, "f.a=1"),
    ("dict", F, "f=&f.a=1"),
    ("int", J, '{"f": "123456789012345678901234567"}'),
    ("int", J, '{"f": "%s"}' % ("1" * 1001)),
    ("int", J, '{"f": 9223372036854775807}'),
    ("int", J, '{"f": "-9223372036854775808"}'),
    ("int", J, '{"f": -9223372036854775809}'),
    ("int", J, '{"f": "-123456789012345678901234567.0"}'),
    ("float", J, '{"f": 1%s}' % ("0" * 400)),
    ("float", J, '{"f": "1%s"}' % ("0" * 400)),
    ("float", J, '{"f": "inf"}'),
    ("float", J, '{"f": "-Infinity"}'),
    ("float", J, '{"f": "nan"}'),
    ("float", J, '{"f": 1e400}'),
    ("float", J, '{"f": "%s"}' % ("1" * 1001)),
    ("nulldecimal", J, '{"f": ""}'),
    ("nulldecimal", J, '{"f": "  "}'),
    ("nulldecimal", J, '{"f": null}'),
    ("nulldecimal", F, "f="),
    ("nulldecimal", F, "f=1.5"),
]


def jsonable(v):
    if isinstance(v, float) and not math.isfinite(v):
        return repr(v)
    if isinstance(v, (set, frozenset)):
        return sorted(v)
    if isinstance(v, datetime.datetime):
        return v.isoformat()
    if isinstance(v, datetime.timedelta):
        return str(v)
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, dict):
        return {k: jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    return v


def answer(name, mode, text):
    cls = type("S", (serializers.Serializer,), {"f": FIELDS[name]()})
    data = json.loads(text) if mode == J else QueryDict(text)
    s = cls(data=data)
    try:
        ok = s.is_valid()
    except Exception as e:  # noqa: BLE001 - DRF lets it through: a 500
        return {"exception": type(e).__name__}
    if not ok:
        errs = s.errors["f"]
        if isinstance(errs, dict):
            return {"errors": {str(k): [str(m) for m in v] for k, v in errs.items()}}
        return {"errors": [str(m) for m in errs]}
    if "f" not in s.validated_data:
        return {"absent": True}
    v = s.validated_data["f"]
    return {"value": None if v is None else jsonable(s.fields["f"].to_representation(v))}


out = {
    "versions": {"rest_framework": rest_framework.VERSION, "django": django.get_version(),
                 "python": sys.version.split()[0]},
    "cases": [[name, mode, text, answer(name, mode, text)] for name, mode, text in CASES],
}
json.dump(out, sys.stdout, indent=1, ensure_ascii=True)
sys.stdout.write("\n")
