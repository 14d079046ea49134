"""DRF's answers for the format options of DateTimeField (the drf tag's
format, input_formats and default_timezone).

TestDateTimeOptionsAsDRF runs it with Debian's Django 3.2 / DRF 3.14, and
with the DRF 3.18 / Django 5.2 of conformance/reference/drf318
(scripts/install-references lays it out), through internal/drfsuite.RunDRF,
and compares each answer.

From DRF 3.18's tests/test_fields.py (TestCustomInputFormatDateTimeField,
TestCustomOutputFormatDateTimeField, TestDefaultTZDateTimeField,
TestPytzNaiveDayLightSavingTimeTimeZoneDateTimeField,
TestNaiveDayLightSavingTimeTimeZoneDateTimeField) and more inputs, with
USE_TZ=True and TIME_ZONE='UTC' (the framework's): for each field of
FIELDS it prints, as JSON, the errors or the rendering of what it
validated for each input, and its rendering of each stored UTC time. Its
time zone is Django's own at each level: pytz's at Django 3.2, zoneinfo's
at Django 5.2. datetime_drf_test.go pins what it prints.
"""
import datetime
import json
import sys

import django
from django.conf import settings

settings.configure(DEBUG=True, SECRET_KEY="x", INSTALLED_APPS=["rest_framework"], USE_TZ=True, TIME_ZONE="UTC")
django.setup()

import rest_framework  # noqa: E402
from rest_framework import serializers  # noqa: E402

if django.VERSION < (4,):
    import pytz
    PARIS = pytz.timezone("Europe/Paris")
else:
    import zoneinfo
    PARIS = zoneinfo.ZoneInfo("Europe/Paris")

INPUTS = [
    "2001-01-01T13:00", "2001-01-01T13:00:00Z", "2001-01-01T13:00:00+05:00", "2001-01-01T13:00:00.123456",
    "2001-01-01 13:00", "2021-03-28T02:30:00", "2021-10-31T02:30:00", "2021-10-31T02:30:00+01:00",
    "31/12/2001 23:59", "1/2/2001 3:04", "31/12/2001  23:59", "2001-02-29T00:00", "29/02/2001 00:00", "abc", 1,
    "Jan 05 2001 01:30PM", "jan 5 2001 12:00am", "010203", "2001-01-01T13:00:00.5+0530", "2001-01-01T13:00:00.5Z",
    "2001-01-01T13:00:00.5z", "2021-03-28 02:30", "2021-10-31 02:30", "9999-12-31T23:59:59-01:00", "2001-01-01T24:00",
]
OUTPUTS = ["2001-01-01T13:00:00", "2001-07-01T12:00:00.000001", "2021-10-31T00:30:00", "2021-10-31T01:30:00", "1999-12-31T23:00:00"]

# name: DateTimeField's arguments (the Go test's fields are the same).
FIELDS = {
    "default": dict(),
    "paris": dict(default_timezone=PARIS),
    "formats": dict(format="%d/%m/%Y %H:%M", input_formats=["%d/%m/%Y %H:%M", "iso-8601"]),
    "strptime": dict(format="%Y-%m-%d %I:%M:%S.%f %p %z %B %b %y",
                     input_formats=["%Y-%m-%dT%H:%M:%S.%f%z", "%b %d %Y %I:%M%p", "%y%m%d"]),
    "paris_formats": dict(default_timezone=PARIS, format="%Y-%m-%d %H:%M:%S %z", input_formats=["%Y-%m-%d %H:%M"]),
    "iso_output": dict(format="iso-8601", input_formats=["ISO-8601"]),
}


def answers(kwargs):
    S = type("S", (serializers.Serializer,), {"f": serializers.DateTimeField(**kwargs)})
    inputs = []
    for data in INPUTS:
        s = S(data={"f": data})
        if s.is_valid():
            inputs.append([data, {"validated": S(s.validated_data).data}])
        else:
            inputs.append([data, {"errors": s.errors}])
    outputs = []
    for stored in OUTPUTS:
        value = datetime.datetime.fromisoformat(stored).replace(tzinfo=datetime.timezone.utc)
        outputs.append([stored, S({"f": value}).data])
    return {"inputs": inputs, "outputs": outputs}


json.dump({
    "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
    "fields": {name: answers(kwargs) for name, kwargs in FIELDS.items()},
}, sys.stdout, indent=1)
print()
