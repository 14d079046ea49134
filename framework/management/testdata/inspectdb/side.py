# The Django side of TestInspectDBOfADjangoDatabase, run in a copy of this
# directory:
#   side.py migrate   makemigrations and migrate the inspected app
#   side.py create    store a row of every field type, print it as DRF's
#                     ModelSerializer renders it
#   side.py show ID   print the row ID as that serializer renders it
#   side.py inspect   run Django's inspectdb on the inspected tables, load
#                     the models it prints, and print their declarations
import datetime
import decimal
import io
import json
import os
import sys
import uuid

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import django

django.setup()

from django.core.management import call_command
from rest_framework import serializers

from inspected.models import AllTypes, Author


class AllTypesSerializer(serializers.ModelSerializer):
    class Meta:
        model = AllTypes
        fields = "__all__"


def show(pk):
    data = AllTypesSerializer(AllTypes.objects.get(pk=pk)).data
    print(json.dumps(data))


def declarations(source):
    """The models of inspectdb's source, loaded in the inspected app, as
    {table: {"managed": bool, "fields": {column: options}}}."""
    namespace = {"__name__": "inspected.inspectdb_models"}
    exec(compile(source, "inspectdb_models.py", "exec"), namespace)
    out = {}
    for value in list(namespace.values()):
        meta = getattr(value, "_meta", None)
        if meta is None or not isinstance(value, type) or meta.app_label != "inspected" or value.__module__ != "inspected.inspectdb_models":
            continue
        fields = {}
        for f in meta.concrete_fields:
            fields[f.column] = {
                "class": type(f).__name__,
                "primary_key": f.primary_key,
                "null": f.null,
                "blank": f.blank,
                "unique": f.unique,
                "max_length": f.max_length or 0,
                "max_digits": getattr(f, "max_digits", None) or 0,
                "decimal_places": getattr(f, "decimal_places", None) or 0,
                "related": "%s.%s" % (f.related_model._meta.db_table, f.target_field.column) if f.is_relation else "",
                "on_delete": f.remote_field.on_delete.__name__ if f.is_relation else "",
            }
        out[meta.db_table] = {"managed": meta.managed, "fields": fields}
    return out


def main():
    cmd = sys.argv[1]
    if cmd == "migrate":
        call_command("makemigrations", "inspected", verbosity=0)
        call_command("migrate", verbosity=0)
    elif cmd == "create":
        ann = Author.objects.create(name="Ann")
        Author.objects.create(name="Bob")
        row = AllTypes.objects.create(
            char="a char", text="some\ntext", integer=-2147483648, big=9007199254740993,
            small=-32768, positive=2147483647, flag=True, ratio=0.1,
            price=decimal.Decimal("123456.78"),
            moment=datetime.datetime(2024, 2, 29, 23, 59, 58, 123456, tzinfo=datetime.timezone.utc),
            day=datetime.date(2024, 2, 29), clock=datetime.time(12, 34, 56), blob=b"\x00\x01",
            span=datetime.timedelta(days=1, hours=2, minutes=3, seconds=4, microseconds=5),
            ip="192.0.2.1",
            token=uuid.UUID("12345678-1234-5678-1234-567812345678"),
            doc={"a": [1, 2.5, None, True], "b": {"c": "d"}}, author=ann,
            char_null=None, text_null="t", integer_null=None, big_null=-1,
            flag_null=None, ratio_null=-1.5, price_null=None,
            moment_null=None, token_null=None, doc_null=None, author_null=None,
        )
        show(row.pk)
    elif cmd == "inspect":
        source = io.StringIO()
        call_command("inspectdb", "inspected_alltypes", "inspected_author", stdout=source)
        print(json.dumps(declarations(source.getvalue())))
    elif cmd == "show":
        show(int(sys.argv[2]))
    else:
        sys.exit("unknown command " + cmd)


main()
