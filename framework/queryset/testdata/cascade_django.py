"""Django's Collector on a live database: what deleting shelves deletes,
sets and refuses.

cascade_django_test.go runs it with Debian's Django 3.2 and, when
conformance/reference/drf318 is laid out, with Django 5.2 (PYTHONPATH), with
internal/drfsuite/pyrun/python on its PYTHONPATH (djangodb):

    PYTHONPATH=internal/drfsuite/pyrun/python /usr/bin/python3 framework/queryset/testdata/cascade_django.py DATABASE

DATABASE is postgres://user@host:port/name, or the path of an SQLite
file. It creates the tables of the installed app "cascade" (shelves;
labels and their stickers, deleted with them; notes set to null; pins
set to their default shelf; locks that protect a shelf and holds that
restrict one), fills them, and prints as JSON, for each case of CASES
(the keys of the shelves deleted with QuerySet.delete()), the total
Django returns and every table's rows after it, or the error's message
and the rows left; each case runs in a transaction rolled back after
it. A model of an app that is not installed ("elsewhere") has a foreign
key to the shelves, on_delete=CASCADE, and no table: the Collector
follows the models of INSTALLED_APPS alone, so no case reaches it.
"""
import json
import os
import sys
import types

import django
from django.conf import settings
from djangodb import database

app = types.ModuleType("cascade")
app.__path__ = [os.path.dirname(os.path.abspath(__file__))]
sys.modules["cascade"] = app

settings.configure(
    SECRET_KEY="x",
    INSTALLED_APPS=["django.contrib.contenttypes", "cascade"],
    DATABASES={"default": database(sys.argv[1])},
    DEFAULT_AUTO_FIELD="django.db.models.AutoField",
)
django.setup()

from django.db import connection, models, transaction  # noqa: E402
from django.db.models import ProtectedError, RestrictedError  # noqa: E402


class Shelf(models.Model):
    name = models.CharField(max_length=20)

    class Meta:
        app_label = "cascade"


class Label(models.Model):
    shelf = models.ForeignKey(Shelf, on_delete=models.CASCADE, related_name="labels")

    class Meta:
        app_label = "cascade"


class Sticker(models.Model):
    label = models.ForeignKey(Label, on_delete=models.CASCADE)

    class Meta:
        app_label = "cascade"


class Note(models.Model):
    shelf = models.ForeignKey(Shelf, null=True, on_delete=models.SET_NULL)

    class Meta:
        app_label = "cascade"


class Pin(models.Model):
    shelf = models.ForeignKey(Shelf, default=4, on_delete=models.SET_DEFAULT)

    class Meta:
        app_label = "cascade"


class Lock(models.Model):
    shelf = models.ForeignKey(Shelf, on_delete=models.PROTECT)

    class Meta:
        app_label = "cascade"


class Hold(models.Model):
    shelf = models.ForeignKey(Shelf, on_delete=models.RESTRICT)

    class Meta:
        app_label = "cascade"


class Stray(models.Model):
    """Of an app that is not installed: the Collector does not follow it."""
    shelf = models.ForeignKey(Shelf, on_delete=models.CASCADE)

    class Meta:
        app_label = "elsewhere"


TABLES = [(Shelf, None), (Label, "shelf_id"), (Sticker, "label_id"), (Note, "shelf_id"), (Pin, "shelf_id"),
          (Lock, "shelf_id"), (Hold, "shelf_id")]

# The keys of the shelves each case deletes.
CASES = [[1], [2], [6], [3, 5], [1, 2], [7]]


class Rollback(Exception):
    pass


def rows():
    """Each table's rows as [id, foreign key] (the shelf's [id]), by id."""
    out = {}
    for model, column in TABLES:
        fields = ["id"] + ([column] if column else [])
        out[model._meta.db_table] = [list(r) for r in model.objects.order_by("id").values_list(*fields)]
    return out


def run(keys):
    answer = {}
    try:
        with transaction.atomic():
            total, _ = Shelf.objects.filter(pk__in=keys).delete()
            answer = {"total": total, "rows": rows()}
            raise Rollback
    except Rollback:
        pass
    except (ProtectedError, RestrictedError) as e:
        answer = {"error": e.args[0], "rows": rows()}
    return answer


def main():
    with connection.schema_editor() as editor:
        for model, _ in TABLES:
            editor.create_model(model)
    for i, name in enumerate("abcdefg", 1):
        Shelf.objects.create(id=i, name=name)
    for i, shelf in enumerate([1, 1, 3], 1):
        Label.objects.create(id=i, shelf_id=shelf)
    for i, label in enumerate([1, 2, 3], 1):
        Sticker.objects.create(id=i, label_id=label)
    for i, shelf in enumerate([1, 3, 5], 1):
        Note.objects.create(id=i, shelf_id=shelf)
    for i, shelf in enumerate([1, 5], 1):
        Pin.objects.create(id=i, shelf_id=shelf)
    Lock.objects.create(id=1, shelf_id=2)
    Hold.objects.create(id=1, shelf_id=6)
    print(json.dumps({"before": rows(), "cases": [run(keys) for keys in CASES]}))


main()
