"""Django's answers for django.contrib.postgres' ArrayField lookups on a
live PostgreSQL database.

array_lookups_django_test.go runs it with Debian's Django 3.2 and, when
conformance/reference/drf318 is laid out, with Django 5.2 (PYTHONPATH), with
internal/drfsuite/pyrun/python on its PYTHONPATH (djangodb):

    PYTHONPATH=internal/drfsuite/pyrun/python /usr/bin/python3 \
        framework/queryset/testdata/array_lookups_django.py DATABASE_URL CASES_JSON

DATABASE_URL is postgres://user@host:port/name; CASES_JSON is a list of
[field, lookup, values] (len's values are one number). It creates the
table lab_gadget, fills it and prints as JSON the keys of the rows that
Gadget.objects.filter(field__lookup=values) returns, in key order, one
list per case.
"""
import json
import sys
from decimal import Decimal

import django
from django.conf import settings
from djangodb import database

settings.configure(
    SECRET_KEY="x",
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.postgres"],
    DATABASES={"default": database(sys.argv[1])},
    DEFAULT_AUTO_FIELD="django.db.models.AutoField",
)
django.setup()

from django.contrib.postgres.fields import ArrayField  # noqa: E402
from django.db import connection, models  # noqa: E402


class Gadget(models.Model):
    tags = ArrayField(models.CharField(max_length=40))
    nums = ArrayField(models.IntegerField())

    class Meta:
        app_label = "lab"


ROWS = [
    (["a", "b"], [1, 2, 3]),
    ([], []),
    (["b", "c,d"], [2]),
    (['say "hi"', "a"], [5, 1]),
    (["x"], [3, 3]),
    (["back\\slash", "B"], [-1]),
]


def main():
    with connection.schema_editor() as editor:
        editor.create_model(Gadget)
    for tags, nums in ROWS:
        Gadget.objects.create(tags=tags, nums=nums)
    out = []
    for field, lookup, values in json.loads(sys.argv[2]):
        # A number as django-filter's NumberFilter gives it, a Decimal,
        # which Django's IntegerField prepares.
        value = Decimal(values[0]) if lookup == "len" else [Decimal(v) for v in values] if field == "nums" else values
        rows = Gadget.objects.filter(**{field + "__" + lookup: value}).order_by("id")
        out.append([g.id for g in rows])
    print(json.dumps(out))


main()
