"""DRF's answers for a UniqueConstraint's violation_error_message.

Run with the DRF 3.18 / Django 5.2 of conformance/reference/drf318
(Django 3.2 has no violation_error_message):

    PYTHONPATH=conformance/reference/drf318 /usr/bin/python3 framework/serializers/testdata/drf_violation_message.py

The model Member has four UniqueConstraints, each with a
violation_error_message: its own text, one with "%(name)s" and
"{field_names}", Django's default text, and one of a single field. It
holds the row of ROW. It prints, as JSON, the versions and, for each item
of BODIES (a create), the body and the errors; unique_constraint_test.go
sends the same bodies behind generic views and compares.
"""
import json

import django
from django.conf import settings

settings.configure(
    SECRET_KEY="x",
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
)
django.setup()

import rest_framework  # noqa: E402
from django.db import connection, models  # noqa: E402
from rest_framework import serializers  # noqa: E402


class Member(models.Model):
    username = models.CharField(max_length=32)
    company_id = models.IntegerField()
    role = models.CharField(max_length=32)
    badge = models.CharField(max_length=32)
    desk = models.IntegerField()

    class Meta:
        app_label = "tests"
        constraints = [
            models.UniqueConstraint(fields=("username", "company_id"), name="custom",
                                    violation_error_message="Username must be unique within a company."),
            models.UniqueConstraint(fields=("company_id", "role"), name="named",
                                    violation_error_message="%(name)s: {field_names} are taken."),
            models.UniqueConstraint(fields=("company_id", "desk"), name="default",
                                    violation_error_message="Constraint “%(name)s” is violated."),
            models.UniqueConstraint(fields=("badge",), name="badge", violation_error_message="Not used by DRF."),
        ]


class MemberSerializer(serializers.ModelSerializer):
    class Meta:
        model = Member
        fields = "__all__"


ROW = {"username": "Alice", "company_id": 1, "role": "member", "badge": "a1", "desk": 1}

BODIES = {
    "custom": {"username": "Alice", "company_id": 1, "role": "admin", "badge": "b", "desk": 2},
    "named": {"username": "Bob", "company_id": 1, "role": "member", "badge": "b", "desk": 2},
    "default": {"username": "Bob", "company_id": 1, "role": "admin", "badge": "b", "desk": 1},
    "single": {"username": "Bob", "company_id": 1, "role": "admin", "badge": "a1", "desk": 2},
    "unique": {"username": "Bob", "company_id": 2, "role": "admin", "badge": "b", "desk": 2},
}


def answer(body):
    s = MemberSerializer(data=body)
    return {"body": body, "errors": s.errors if not s.is_valid() else None}


def main():
    with connection.schema_editor() as editor:
        editor.create_model(Member)
    Member.objects.create(**ROW)
    out = {
        "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
        "items": {k: answer(v) for k, v in BODIES.items()},
    }
    print(json.dumps(out, indent=1, sort_keys=True, ensure_ascii=False))


main()
