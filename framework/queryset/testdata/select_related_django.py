"""Django's answers for select_related on a live database.

select_related_django_test.go runs it with Debian's Django 3.2 and, when
conformance/reference/drf318 is laid out, with Django 5.2 (PYTHONPATH), with
internal/drfsuite/pyrun/python on its PYTHONPATH (djangodb):

    PYTHONPATH=internal/drfsuite/pyrun/python /usr/bin/python3 framework/queryset/testdata/select_related_django.py DATABASE

DATABASE is postgres://user@host:port/name, or the path of an SQLite
file. It creates the library's tables (sr_city, sr_author, sr_book),
fills them, and prints as JSON the rows of each case of CASES, read with
select_related (each book as [id, title, author, editor], a person as
[id, name, city] and a city as [id, name], null for none), the number of
queries that read each case, and the errors of select_related's invalid
names.
"""
import json
import sys

import django
from django.conf import settings
from djangodb import database

settings.configure(
    SECRET_KEY="x",
    INSTALLED_APPS=["django.contrib.contenttypes"],
    DATABASES={"default": database(sys.argv[1])},
    DEFAULT_AUTO_FIELD="django.db.models.AutoField",
)
django.setup()

from django.core.exceptions import FieldError  # noqa: E402
from django.db import connection, models  # noqa: E402
from django.db.models import Q  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402


class City(models.Model):
    name = models.CharField(max_length=20)

    class Meta:
        app_label = "sr"


class Author(models.Model):
    name = models.CharField(max_length=20)
    city = models.ForeignKey(City, null=True, on_delete=models.SET_NULL)

    class Meta:
        app_label = "sr"


class Book(models.Model):
    title = models.CharField(max_length=20)
    author = models.ForeignKey(Author, on_delete=models.CASCADE, related_name="books")
    editor = models.ForeignKey(Author, null=True, on_delete=models.SET_NULL, related_name="edited")

    class Meta:
        app_label = "sr"


def books():
    return Book.objects.select_related("author__city", "editor__city")


# The cases, as select_related_django_test.go reads the same rows.
CASES = [
    lambda: books().order_by("id"),
    lambda: books().filter(editor__isnull=True).order_by("id"),
    lambda: books().filter(editor__name="ann").order_by("id"),
    lambda: books().filter(Q(author__city__name="Lyon") | Q(editor__city__isnull=True)).order_by("id"),
    lambda: books().filter(editor__isnull=False).order_by("-editor__name", "id")[1:3],
]


def city(c):
    return None if c is None else [c.id, c.name]


def person(p):
    return None if p is None else [p.id, p.name, city(p.city)]


def main():
    with connection.schema_editor() as editor:
        for model in (City, Author, Book):
            editor.create_model(model)
    lyon, porto = City.objects.create(name="Lyon"), City.objects.create(name="Porto")
    ann = Author.objects.create(name="ann", city=lyon)
    bob = Author.objects.create(name="bob")
    cat = Author.objects.create(name="cat", city=porto)
    for title, author, editor in [("one", ann, bob), ("two", bob, None), ("three", cat, ann), ("four", ann, cat)]:
        Book.objects.create(title=title, author=author, editor=editor)
    cases, queries = [], []
    for case in CASES:
        with CaptureQueriesContext(connection) as read:
            cases.append([[b.id, b.title, person(b.author), person(b.editor)] for b in case()])
        queries.append(len(read.captured_queries))
    errors = []
    for names in (["x"], ["title"], ["editor_id"]):
        try:
            list(Book.objects.select_related(*names))
        except FieldError as e:
            errors.append(str(e))
        else:
            errors.append(None)
    print(json.dumps({"cases": cases, "queries": queries, "errors": errors}, separators=(",", ":")))


main()
