# The migration 0002 of data1.py, written by hand as data2.migration.go.txt
# declares it: a statement of each database, Python code and statements
# of both.
from django.db import connection, migrations


def add_tag(apps, schema_editor):
    apps.get_model('snippets', 'Tag').objects.create(name='go')


class Migration(migrations.Migration):
    dependencies = [('snippets', '0001_initial')]
    operations = [
        migrations.RunSQL(
            ['INSERT INTO "snippets_tag" ("name") VALUES (\'postgresql\')']
            if connection.vendor == 'postgresql' else
            ['INSERT INTO "snippets_tag" ("name") VALUES (\'sqlite\');']
        ),
        migrations.RunPython(add_tag),
        migrations.RunSQL(['UPDATE "snippets_tag" SET "name" = upper("name")', 'DELETE FROM "snippets_tag" WHERE "name" = \'\'']),
    ]
