"""DRF's answers for the field options of issue 41 (DRF 3.18's
tests/test_fields.py ported onto framework/serializers): a SlugField's
allow_unicode, an IPAddressField's protocol, a UUIDField's format, a
DurationField's format, min_value and max_value and the DURATION_FORMAT
setting, a BigIntegerField's coerce_to_string and COERCE_BIGINT_TO_STRING,
a JSONField's binary, the choices of an integer field and grouped choices,
and default=.

TestFieldOptionsAsDRF runs it with Debian's Django 3.2 / DRF 3.14, and
with the DRF 3.18 / Django 5.2 of conformance/reference/drf318
(internal/drfsuite.RunDRF), and compares each answer.

It prints, as JSON, the versions and, for each case of CASES, the field
(a key of FIELDS), the settings (a key of SETTINGS), how the input
arrives ("json" or "form", as drf_field_edges.py reads them), the input,
and what a Serializer of that one field (named "f") answers:
{"value": ...} (validated_data["f"] as the field renders it, through
DRF's JSONRenderer), {"absent": true}, {"errors": [...]}, or
{"unsupported": why} when this DRF has no such field, option or setting.
field_options_drf_test.go pins it.
"""
import datetime
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
    TIME_ZONE="UTC",
)
django.setup()

import rest_framework  # noqa: E402
from django.http import QueryDict  # noqa: E402
from django.test import override_settings  # noqa: E402
from rest_framework import serializers  # noqa: E402
from rest_framework.renderers import JSONRenderer  # noqa: E402
from rest_framework.settings import api_settings  # noqa: E402

# A Go time.Duration's range, as drf_field_edges.py's "duration".
GO_DURATION = datetime.timedelta(microseconds=(2**63 - 1) // 1000)
DAY = datetime.timedelta(days=1)


def duration(**kw):
    return serializers.DurationField(required=False, max_value=GO_DURATION, min_value=-GO_DURATION, **kw)


def bigint(**kw):
    return serializers.BigIntegerField(required=False, max_value=2**63 - 1, min_value=-2**63, **kw)


FIELDS = {
    "slug": lambda: serializers.SlugField(required=False),
    "slug_unicode": lambda: serializers.SlugField(required=False, allow_unicode=True),
    "ipv4": lambda: serializers.IPAddressField(required=False, protocol="IPv4"),
    "ipv6": lambda: serializers.IPAddressField(required=False, protocol="IPv6"),
    "uuid_hex": lambda: serializers.UUIDField(required=False, format="hex"),
    "uuid_int": lambda: serializers.UUIDField(required=False, format="int"),
    "uuid_urn": lambda: serializers.UUIDField(required=False, format="urn"),
    "uuid_hex_verbose": lambda: serializers.UUIDField(required=False, format="hex_verbose"),
    "duration": lambda: duration(),
    "duration_django": lambda: duration(format="django"),
    "duration_iso": lambda: duration(format="iso-8601"),
    "duration_none": lambda: duration(format=None),
    "duration_minmax": lambda: serializers.DurationField(required=False, min_value=DAY, max_value=4 * DAY),
    "bigint": lambda: bigint(),
    "bigint_string": lambda: bigint(coerce_to_string=True),
    "bigint_number": lambda: bigint(coerce_to_string=False),
    "json_binary": lambda: serializers.JSONField(required=False, binary=True),
    "int_choice": lambda: serializers.ChoiceField(
        required=False, choices=[(1, "Poor quality"), (2, "Medium quality"), (3, "Good quality")]),
    "grouped_choice": lambda: serializers.ChoiceField(required=False, choices=[
        ("Category", (("poor", "Poor quality"), ("medium", "Medium quality"))),
        ("good", "Good quality"),
    ]),
    "mixed_choice": lambda: serializers.ChoiceField(required=False, choices=[
        ("Category", (("poor", "Poor quality"),)),
        "medium",
        ("good", "Good quality"),
    ]),
    "default_int": lambda: serializers.IntegerField(default=123, max_value=2**63 - 1, min_value=-2**63),
    "default_char": lambda: serializers.CharField(default="happy"),
    "default_nullbool": lambda: serializers.BooleanField(allow_null=True, default=True),
}

SETTINGS = {
    "default": {},
    "duration_iso": {"DURATION_FORMAT": "iso-8601"},
    "duration_iso_upper": {"DURATION_FORMAT": "ISO-8601"},
    "duration_none": {"DURATION_FORMAT": None},
    "bigint_string": {"COERCE_BIGINT_TO_STRING": True},
}

J = "json"
F = "form"
D = "default"
UUID0 = "00000000-0000-0000-0000-000000000000"
CASES = [
    ("slug", D, J, '{"f": "slug-99-\\u0420"}'),
    ("slug_unicode", D, J, '{"f": "slug-99-\\u0420"}'),
    ("slug_unicode", D, J, '{"f": "\\u0441\\u043b\\u0430\\u0433_\\u0663\\u00b2"}'),
    ("slug_unicode", D, J, '{"f": "slug 99"}'),
    ("slug_unicode", D, J, '{"f": "a\\u0301"}'),
    ("slug_unicode", D, J, '{"f": "slug.99"}'),
    ("ipv4", D, J, '{"f": "127.0.0.1"}'),
    ("ipv4", D, J, '{"f": "192.168.33.255"}'),
    ("ipv4", D, J, '{"f": "127001"}'),
    ("ipv4", D, J, '{"f": "127.122.111.2231"}'),
    ("ipv4", D, J, '{"f": "2001:cdba::3257:9652"}'),
    ("ipv6", D, J, '{"f": "2001:0db8:85a3:0042:1000:8a2e:0370:7334"}'),
    ("ipv6", D, J, '{"f": "2001:cdba:0:0:0:0:3257:9652"}'),
    ("ipv6", D, J, '{"f": "2001:cdba::3257:9652"}'),
    ("ipv6", D, J, '{"f": "2001:::9652"}'),
    ("ipv6", D, J, '{"f": "2001:0db8:85a3:0042:1000:8a2e:0370:73341"}'),
    ("ipv6", D, J, '{"f": "127.0.0.1"}'),
    ("ipv6", D, J, '{"f": "::ffff:1.2.3.4"}'),
    ("uuid_hex", D, J, '{"f": "%s"}' % UUID0),
    ("uuid_hex", D, J, '{"f": "%s"}' % ("0" * 32)),
    ("uuid_hex", D, J, '{"f": "825d7aeb-05a9-45b5-a5b7-05df87923cda"}'),
    ("uuid_int", D, J, '{"f": 0}'),
    ("uuid_int", D, J, '{"f": "825d7aeb-05a9-45b5-a5b7-05df87923cda"}'),
    ("uuid_urn", D, J, '{"f": "urn:uuid:%s"}' % UUID0),
    ("uuid_urn", D, J, '{"f": "825d7aeb-05a9-45b5-a5b7-05df87923cda"}'),
    ("uuid_hex_verbose", D, J, '{"f": "%s"}' % UUID0),
    ("duration", D, J, '{"f": "3 08:32:01.000123"}'),
    ("duration", "duration_iso", J, '{"f": "3 08:32:01.000123"}'),
    ("duration", "duration_iso", J, '{"f": "-1 23:00:00"}'),
    ("duration", "duration_iso", J, '{"f": "0"}'),
    ("duration", "duration_iso_upper", J, '{"f": "13"}'),
    ("duration", "duration_none", J, '{"f": "1 00:00:00"}'),
    ("duration", "duration_none", J, '{"f": "-00:00:00.5"}'),
    ("duration", "duration_none", J, '{"f": "3 08:32:01.000123"}'),
    ("duration_django", "duration_iso", J, '{"f": "3 08:32:01.000123"}'),
    ("duration_iso", D, J, '{"f": "13"}'),
    ("duration_iso", D, J, '{"f": "P3DT08H32M01.000123S"}'),
    ("duration_iso", D, J, '{"f": "PT8H1M"}'),
    ("duration_iso", D, J, '{"f": "-P3D"}'),
    ("duration_iso", D, J, '{"f": "-00:00:01"}'),
    ("duration_iso", "duration_none", J, '{"f": "3 08:32:01.000123"}'),
    ("duration_none", D, J, '{"f": "1 00:00:00"}'),
    ("duration_none", D, J, '{"f": 3600}'),
    ("duration_minmax", D, J, '{"f": "3 08:32:01.000123"}'),
    ("duration_minmax", D, J, '{"f": 86401}'),
    ("duration_minmax", D, J, '{"f": 3600}'),
    ("duration_minmax", D, J, '{"f": "4 08:32:01.000123"}'),
    ("duration_minmax", D, J, '{"f": "3600"}'),
    ("bigint", D, J, '{"f": 1}'),
    ("bigint", "bigint_string", J, '{"f": 1}'),
    ("bigint", "bigint_string", J, '{"f": "-9223372036854775808"}'),
    ("bigint_string", D, J, '{"f": 1}'),
    ("bigint_string", D, J, '{"f": "9223372036854775807"}'),
    ("bigint_number", "bigint_string", J, '{"f": 1}'),
    ("json_binary", D, J, '{"f": "{\\"a\\": 1, \\"3\\": null, \\"b\\": [\\"some\\", \\"list\\", true, 1.23]}"}'),
    ("json_binary", D, J, '{"f": "[\\"some\\",\\"list\\",true,1.23]"}'),
    ("json_binary", D, J, '{"f": "{\\"a\\": \\"unterminated string}"}'),
    ("json_binary", D, J, '{"f": "{\\"caf\\u00e9\\":\\"a:b, c\\"}"}'),
    ("json_binary", D, F, "f=%7B%22a%22%3A1%7D"),
    ("int_choice", D, J, '{"f": "1"}'),
    ("int_choice", D, J, '{"f": 3}'),
    ("int_choice", D, J, '{"f": 5}'),
    ("int_choice", D, J, '{"f": "abc"}'),
    ("grouped_choice", D, J, '{"f": "poor"}'),
    ("grouped_choice", D, J, '{"f": "medium"}'),
    ("grouped_choice", D, J, '{"f": "good"}'),
    ("grouped_choice", D, J, '{"f": "awful"}'),
    ("grouped_choice", D, J, '{"f": "Category"}'),
    ("mixed_choice", D, J, '{"f": "poor"}'),
    ("mixed_choice", D, J, '{"f": "medium"}'),
    ("mixed_choice", D, J, '{"f": "good"}'),
    ("mixed_choice", D, J, '{"f": "awful"}'),
    ("default_int", D, J, "{}"),
    ("default_int", D, F, ""),
    ("default_int", D, F, "f="),
    ("default_int", D, J, '{"f": 7}'),
    ("default_char", D, F, ""),
    ("default_char", D, J, "{}"),
    ("default_nullbool", D, F, ""),
    ("default_nullbool", D, J, '{"f": null}'),
]


def answer(name, setting, mode, text):
    unknown = [k for k in SETTINGS[setting] if k not in api_settings.defaults]
    if unknown:
        return {"unsupported": "no setting " + ", ".join(unknown)}
    try:
        field = FIELDS[name]()
    except (AttributeError, TypeError) as e:
        return {"unsupported": type(e).__name__}
    cls = type("S", (serializers.Serializer,), {"f": field})
    data = json.loads(text) if mode == J else QueryDict(text)
    with override_settings(REST_FRAMEWORK=SETTINGS[setting]):
        s = cls(data=data)
        if not s.is_valid():
            return {"errors": [str(m) for m in s.errors["f"]]}
        if "f" not in s.validated_data:
            return {"absent": True}
        v = s.validated_data["f"]
        if v is None:
            return {"value": None}
        return {"value": json.loads(JSONRenderer().render(s.fields["f"].to_representation(v)))}


out = {
    "versions": {"rest_framework": rest_framework.VERSION, "django": django.get_version(),
                 "python": sys.version.split()[0]},
    "cases": [[name, setting, mode, text, answer(name, setting, mode, text)]
              for name, setting, mode, text in CASES],
}
json.dump(out, sys.stdout, indent=1, ensure_ascii=True)
sys.stdout.write("\n")
