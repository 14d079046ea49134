"""DRF's answers under its settings of the fields' formats
(DATETIME_FORMAT, DATETIME_INPUT_FORMATS, DATE_FORMAT, DATE_INPUT_FORMATS,
TIME_FORMAT, TIME_INPUT_FORMATS, COERCE_DECIMAL_TO_STRING) and Django's
USE_TZ and TIME_ZONE, with and without a field's own options.

TestSettingsFormatsAsDRF runs it with Debian's Django 3.2 / DRF 3.14, and
with the DRF 3.18 / Django 5.2 of conformance/reference/drf318
(scripts/install-references lays it out), through internal/drfsuite.RunDRF,
and compares each answer.

For each case of CASES (the settings, over USE_TZ=True and TIME_ZONE='UTC')
it prints, as JSON, for each field of FIELDS and each of its inputs the
errors or the rendering (by DRF's JSONRenderer) of what it validated, and
its rendering of each stored value (datetimes stored in UTC, or naive
without USE_TZ, as Django reads them). settings_drf_test.go pins what it
prints.
"""
import datetime
import decimal
import json
import sys

import django
from django.conf import settings

settings.configure(DEBUG=True, SECRET_KEY="x", INSTALLED_APPS=["rest_framework"], USE_TZ=True, TIME_ZONE="UTC")
django.setup()

from django.test import override_settings  # noqa: E402

import rest_framework  # noqa: E402
from rest_framework import serializers  # noqa: E402
from rest_framework.renderers import JSONRenderer  # noqa: E402

FORMATS = {
    "DATETIME_FORMAT": "%d/%m/%Y %H:%M", "DATETIME_INPUT_FORMATS": ["%d/%m/%Y %H:%M", "iso-8601"],
    "DATE_FORMAT": "%d %b %Y", "DATE_INPUT_FORMATS": ["%d %b %Y"],
    "TIME_FORMAT": "%I:%M%p", "TIME_INPUT_FORMATS": ["%I:%M%p", "iso-8601"],
    "COERCE_DECIMAL_TO_STRING": False,
}

# name: (REST_FRAMEWORK, Django's settings); the Go test's cases are the same.
CASES = {
    "default": ({}, {}),
    "formats": (FORMATS, {}),
    "none": ({"DATETIME_FORMAT": None, "DATE_FORMAT": None, "TIME_FORMAT": None}, {}),
    "iso": ({"DATETIME_FORMAT": "ISO-8601", "DATETIME_INPUT_FORMATS": ["iso-8601", "%Y"],
             "DATE_INPUT_FORMATS": ["iso-8601", "%d/%m/%Y"], "TIME_INPUT_FORMATS": ["%H.%M", "iso-8601"]}, {}),
    "paris": ({}, {"TIME_ZONE": "Europe/Paris"}),
    "paris_formats": ({"DATETIME_FORMAT": "%Y-%m-%d %H:%M %z"}, {"TIME_ZONE": "Europe/Paris"}),
    "naive": ({}, {"USE_TZ": False}),
    "naive_formats": ({"DATETIME_FORMAT": "%Y-%m-%d %H:%M:%S.%f%z", "DATETIME_INPUT_FORMATS": ["%Y-%m-%d %H:%M%z"]},
                      {"USE_TZ": False}),
}

if django.VERSION < (4,):
    import pytz
    PARIS = pytz.timezone("Europe/Paris")
else:
    import zoneinfo
    PARIS = zoneinfo.ZoneInfo("Europe/Paris")

# name: a field with its own options or none, its inputs and its stored
# values (the Go test's struct has the same fields).
FIELDS = {
    "datetime": (lambda: serializers.DateTimeField(),
                 ["2001-01-01T13:00", "2001-01-01T13:00:00+05:00", "2001-01-01 13:00:00.123456Z", "31/12/2001 23:59",
                  "2001", "2001-01-01 13:00+0100", "abc", 1],
                 ["2001-01-01T13:00:00", "2001-07-01T12:00:00.000001"]),
    "datetime_own": (lambda: serializers.DateTimeField(format="%Y-%m-%d %H:%M", input_formats=["%Y-%m-%d %H:%M"]),
                     ["2001-01-01 13:00", "2001-01-01T13:00", "31/12/2001 23:59"],
                     ["2001-01-01T13:00:00"]),
    "datetime_paris": (lambda: serializers.DateTimeField(default_timezone=PARIS),
                       ["2001-01-01T13:00", "2001-01-01T13:00:00Z"],
                       ["2001-07-01T12:00:00"]),
    "datetime_iso": (lambda: serializers.DateTimeField(format="iso-8601"),
                     ["2001-01-01T13:00"],
                     ["2001-07-01T12:00:00.5"]),
    "date": (lambda: serializers.DateField(),
             ["2001-01-31", "31 Jan 2001", "31 jan 2001", "31/01/2001", "2001-02-30", "30 Feb 2001", "abc", 5],
             ["2001-01-31", "0999-12-01"]),
    "date_own": (lambda: serializers.DateField(format="iso-8601", input_formats=["iso-8601"]),
                 ["2001-01-31", "31 Jan 2001"],
                 ["2001-01-31"]),
    "date_none": (lambda: serializers.DateField(format=None, input_formats=["%Y%m%d"]),
                  ["20010131", "2001-01-31"],
                  ["2001-01-31"]),
    "time": (lambda: serializers.TimeField(),
             ["13:45", "1:45pm", "01:45PM", "13:45:00.5", "13.45", "25:00", "abc", 5],
             ["13:45:00", "01:02:03.000004"]),
    "time_own": (lambda: serializers.TimeField(format="%H.%M.%S.%f", input_formats=["%H.%M"]),
                 ["13.45", "13:45"],
                 ["01:02:03.000004"]),
    "decimal": (lambda: serializers.DecimalField(max_digits=5, decimal_places=2),
                ["12.3", 1.5, "abc"],
                ["12.3", "0.05"]),
    "decimal_own": (lambda: serializers.DecimalField(max_digits=5, decimal_places=2, coerce_to_string=True),
                    ["12.3"],
                    ["0.05"]),
}


def stored_value(name, text):
    if name.startswith("datetime"):
        value = datetime.datetime.fromisoformat(text)
        return value.replace(tzinfo=datetime.timezone.utc) if settings.USE_TZ else value
    if name.startswith("date"):
        return datetime.date.fromisoformat(text)
    if name.startswith("time"):
        return datetime.time.fromisoformat(text)
    return decimal.Decimal(text)


def rendered(data, name):
    return json.loads(JSONRenderer().render(data))[name]


def answers():
    inputs, outputs = [], []
    for name, (make, values, stored) in FIELDS.items():
        S = type("S", (serializers.Serializer,), {name: make()})
        for data in values:
            s = S(data={name: data})
            if s.is_valid():
                inputs.append([name, data, {"validated": rendered(S(s.validated_data).data, name)}])
            else:
                inputs.append([name, data, {"errors": s.errors[name]}])
        for text in stored:
            outputs.append([name, text, rendered(S({name: stored_value(name, text)}).data, name)])
    return {"inputs": inputs, "outputs": outputs}


def case(rest_framework_settings, django_settings):
    with override_settings(REST_FRAMEWORK=rest_framework_settings, **django_settings):
        return dict(answers(), settings=rest_framework_settings, django=django_settings)


json.dump({
    "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
    "cases": {name: case(*args) for name, args in CASES.items()},
}, sys.stdout, indent=1)
print()
