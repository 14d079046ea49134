"""DRF's answers for FilePathField (DRF 3.18's tests/test_fields.py
TestFilePathField and TestFilePathFieldRequired, ported onto
framework/serializers): its choices, as Django's forms.FilePathField reads
them from the tree testdata/filepath, its OPTIONS description, and what it
answers to inputs.

TestFilePathFieldAsDRF runs it from the package's directory (the paths
are relative to it, as the Go fields' path= are) with Debian's Django 3.2
/ DRF 3.14, and with the DRF 3.18 / Django 5.2 of
conformance/reference/drf318 (internal/drfsuite.RunDRF), and compares
each answer.

It prints, as JSON, the versions and, for each field of FIELDS (each
named "f" in a Serializer of it alone): "choices", [value, label] pairs
as the field holds them; "info", SimpleMetadata's get_field_info of it;
"cases", each [how the input arrives ("json" or "form"), the input, the
answer]: {"value": ...} (validated_data["f"]), {"absent": true} or
{"errors": [...]}.
"""
import json
import sys

import django
from django.conf import settings

settings.configure(
    DEBUG=True,
    SECRET_KEY="x",
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
)
django.setup()

import rest_framework  # noqa: E402
from django.http import QueryDict  # noqa: E402
from rest_framework import serializers  # noqa: E402
from rest_framework.metadata import SimpleMetadata  # noqa: E402

ROOT = "testdata/filepath"


def fp(**kw):
    kw.setdefault("path", ROOT)
    kw.setdefault("required", False)
    return serializers.FilePathField(**kw)


FIELDS = {
    "files": lambda: fp(),
    "files_slash": lambda: fp(path=ROOT + "/"),
    "required": lambda: fp(required=True),
    "match": lambda: fp(match=r"\.txt$"),
    "folders": lambda: fp(allow_files=False, allow_folders=True),
    "both": lambda: fp(allow_folders=True),
    "recursive": lambda: fp(recursive=True),
    "recursive_slash": lambda: fp(path=ROOT + "/", recursive=True),
    "recursive_both": lambda: fp(recursive=True, allow_folders=True, match="^[a-z]"),
    "recursive_folders": lambda: fp(recursive=True, allow_files=False, allow_folders=True),
}

J = "json"
F = "form"
INPUTS = [
    (J, '{"f": "testdata/filepath/alpha.txt"}'),
    (J, '{"f": "testdata/filepath/sub/delta.txt"}'),
    (J, '{"f": "testdata/filepath/sub"}'),
    (J, '{"f": "testdata/filepath//sub"}'),
    (J, '{"f": "wrong_path"}'),
    (J, '{"f": "alpha.txt"}'),
    (J, '{"f": ""}'),
    (J, '{"f": null}'),
    (J, '{"f": 1}'),
    (J, "{}"),
    (F, "f="),
    (F, "f=testdata%2Ffilepath%2Fbeta.md"),
    (F, ""),
]


def answer(field, mode, text):
    cls = type("S", (serializers.Serializer,), {"f": field})
    s = cls(data=json.loads(text) if mode == J else QueryDict(text))
    if not s.is_valid():
        return {"errors": [str(m) for m in s.errors["f"]]}
    if "f" not in s.validated_data:
        return {"absent": True}
    return {"value": s.validated_data["f"]}


def describe(name):
    field = FIELDS[name]()
    bound = type("S", (serializers.Serializer,), {"f": FIELDS[name]()})().fields["f"]
    return {
        "choices": [[k, v] for k, v in field.choices.items()],
        "info": json.loads(json.dumps(SimpleMetadata().get_field_info(bound))),
        "cases": [[mode, text, answer(FIELDS[name](), mode, text)] for mode, text in INPUTS],
    }


out = {
    "versions": {"rest_framework": rest_framework.VERSION, "django": django.get_version(),
                 "python": sys.version.split()[0]},
    "fields": {name: describe(name) for name in FIELDS},
}
json.dump(out, sys.stdout, indent=1, ensure_ascii=True)
sys.stdout.write("\n")
