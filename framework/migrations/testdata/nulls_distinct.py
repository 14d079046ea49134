"""Django 5.2's SQL of a UniqueConstraint(nulls_distinct=False), for
nullsdistinct_django_test.go.

    PYTHONPATH=conformance/reference/drf318:internal/drfsuite/pyrun/python /usr/bin/python3 \
        framework/migrations/testdata/nulls_distinct.py sqlite|postgresql [DSN]

It prints, as JSON, the statements of the schema editor (collect_sql) that
create the model Entry with its constraint (create), and that add the
constraint to the model created without it (add; PostgreSQL's alone, where
SQLite remakes the table), and whether the database supports it.
"""
import json
import sys

import django
from django.conf import settings
from djangodb import database

db = database(sys.argv[2] if sys.argv[1] == "postgresql" else ":memory:")
settings.configure(SECRET_KEY="x", INSTALLED_APPS=["django.contrib.contenttypes"], DATABASES={"default": db})
django.setup()

from django.db import connection, models  # noqa: E402

CONSTRAINT = models.UniqueConstraint(name="entry_code_category_nnd", fields=("code", "category"), nulls_distinct=False)


class Entry(models.Model):
    name = models.CharField(max_length=100)
    code = models.CharField(max_length=100, null=True)
    category = models.CharField(max_length=100, null=True)

    class Meta:
        app_label = "snippets"
        constraints = [CONSTRAINT]


def collect(fn):
    with connection.schema_editor(collect_sql=True) as editor:
        fn(editor)
    return [s.rstrip(";") for s in editor.collected_sql]


out = {
    "supported": connection.features.supports_nulls_distinct_unique_constraints,
    "create": collect(lambda e: e.create_model(Entry)),
}
if sys.argv[1] == "postgresql":
    out["add"] = collect(lambda e: e.add_constraint(Entry, CONSTRAINT))
print(json.dumps(out))
