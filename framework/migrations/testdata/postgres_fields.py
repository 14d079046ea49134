"""Django's SQL of django.contrib.postgres' ArrayField and HStoreField, for
postgres_fields_django_test.go.

    PYTHONPATH=internal/drfsuite/pyrun/python /usr/bin/python3 framework/migrations/testdata/postgres_fields.py DSN
    PYTHONPATH=conformance/reference/drf318:internal/drfsuite/pyrun/python /usr/bin/python3 \
        framework/migrations/testdata/postgres_fields.py DSN

It prints, as JSON, the statements of the schema editor (collect_sql) of
the migration HStoreExtension() then CreateModel(Gadget) on the
PostgreSQL database DSN (without the extension yet): the extension's,
then the table's.
"""
import json
import sys

import django
from django.conf import settings
from djangodb import database

settings.configure(SECRET_KEY="x", INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.postgres"],
                   DATABASES={"default": database(sys.argv[1])})
django.setup()

from django.contrib.postgres.fields import ArrayField, HStoreField  # noqa: E402
from django.contrib.postgres.operations import HStoreExtension  # noqa: E402
from django.db import connection, migrations, models  # noqa: E402
from django.db.migrations.state import ProjectState  # noqa: E402

operations = [
    HStoreExtension(),
    migrations.CreateModel(name="Gadget", fields=[
        ("id", models.BigAutoField(primary_key=True)),
        ("tags", ArrayField(models.CharField(max_length=40), size=3)),
        ("scores", ArrayField(models.BigIntegerField(null=True), blank=True)),
        ("notes", ArrayField(models.TextField(), null=True)),
        ("attrs", HStoreField(blank=True)),
    ]),
]

out = {}
state = ProjectState()
with connection.schema_editor(collect_sql=True) as editor:
    for op in operations:
        new = state.clone()
        op.state_forwards("shop", new)
        op.database_forwards("shop", editor, state, new)
        state = new
    out["statements"] = [s.rstrip(";") for s in editor.collected_sql]
out["describe"] = [op.describe() for op in operations]
print(json.dumps(out))
