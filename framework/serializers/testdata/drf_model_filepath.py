"""DRF's answers for a ModelSerializer of Django's models.FilePathField:
DRF's build_standard_field maps it to its FilePathField, passing path,
match, recursive, allow_files and allow_folders, whose choices are read
from the tree testdata/filepath. It prints the serializer's OPTIONS
description, the choices of each field and the outcome of validating
each input, and the OPTIONS description of a second serializer whose
extra_kwargs make two fields required.

TestModelFilePathFieldAsDRF (filepath_drf_test.go) runs it from the
package's directory (the paths are relative to it) with Debian's Django
3.2 / DRF 3.14 and with the DRF 3.18 / Django 5.2 of
conformance/reference/drf318 (internal/drfsuite.RunDRF), and compares
each answer. The serializer needs no table, so no database is opened.
"""
import json
import sys
import types

import django
from django.conf import settings

sys.modules["tests"] = types.ModuleType("tests")
sys.modules["tests"].__file__ = __file__

settings.configure(
    DEBUG=True,
    SECRET_KEY="x",
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework", "tests"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
)
django.setup()

import rest_framework  # noqa: E402
from django.db import models  # noqa: E402
from rest_framework import serializers  # noqa: E402
from rest_framework.metadata import SimpleMetadata  # noqa: E402

ROOT = "testdata/filepath"


class FilePathModel(models.Model):
    template = models.FilePathField(path=ROOT)
    sheet = models.FilePathField(path=ROOT, match="[.]txt$", recursive=True, blank=True)
    folder = models.FilePathField(path=ROOT, allow_files=False, allow_folders=True, null=True)

    class Meta:
        app_label = "tests"


class FilePathSerializer(serializers.ModelSerializer):
    class Meta:
        model = FilePathModel
        fields = ["template", "sheet", "folder"]


class RequiredFilePathSerializer(serializers.ModelSerializer):
    """extra_kwargs required=True reaches Django's form field: no blank choice."""
    class Meta:
        model = FilePathModel
        fields = ["template", "sheet"]
        extra_kwargs = {"template": {"required": True}, "sheet": {"required": True}}


INPUTS = [
    {"template": ROOT + "/alpha.txt", "sheet": ROOT + "/sub/inner/zeta.txt", "folder": ROOT + "/sub"},
    {"template": ROOT + "/beta.md", "sheet": ROOT + "/Gamma.txt", "folder": None},
    {"template": ROOT + "/sub", "folder": ROOT + "/alpha.txt"},
    {"template": ROOT + "/sub/delta.txt", "sheet": ROOT + "/beta.md"},
    {"template": "alpha.txt", "sheet": "", "folder": ""},
    {"template": "", "sheet": None},
    {"template": None},
    {"template": 1},
    {},
]


def outcome(data):
    s = FilePathSerializer(data=data)
    valid = s.is_valid()
    return {"valid": valid, "errors": json.loads(json.dumps(s.errors)),
            "validated": json.loads(json.dumps(s.validated_data)) if valid else None}


fields = FilePathSerializer().fields
json.dump({
    "versions": {"rest_framework": rest_framework.VERSION, "django": django.get_version()},
    "info": json.loads(json.dumps(SimpleMetadata().get_serializer_info(FilePathSerializer()))),
    "info_required": json.loads(json.dumps(SimpleMetadata().get_serializer_info(RequiredFilePathSerializer()))),
    "choices": {name: [[k, v] for k, v in fields[name].choices.items()] for name in fields},
    "inputs": [[data, outcome(data)] for data in INPUTS],
}, sys.stdout, indent=1)
sys.stdout.write("\n")
