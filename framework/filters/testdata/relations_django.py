"""Django's and DRF's answers for orderings and isnull lookups across
relations, and for a many-to-many field's keys, on a live database.

relations_django_test.go runs it with Debian's Django 3.2 / DRF 3.14 /
django-filter 23.1 and, when conformance/reference/drf318 is laid out,
with Django 5.2 / DRF 3.18 / django-filter 25.1 (PYTHONPATH), once per
database, with internal/drfsuite/pyrun/python on its PYTHONPATH (djangodb):

    PYTHONPATH=internal/drfsuite/pyrun/python /usr/bin/python3 \
        framework/filters/testdata/relations_django.py DATABASE_URL

DATABASE_URL is sqlite:////abs/path.sqlite3 or postgres://user@host:port/name.
It creates the tables of a small library (authors in countries, books
with an author that may be null, an editor, and tags) in that database,
fills them, and prints as JSON what Django answers: the books in their
Meta.ordering (a path, "author__name"), in each order_by that DRF's
OrderingFilter takes from ?ordering= (a foreign key by the related
model's Meta.ordering, Country's "-name"), the items django-filter's
FilterSets (django_filters.rest_framework's, which DjangoFilterBackend
derives from filterset_fields) keep for isnull lookups (forward, across paths, many-to-many
and reverse sides, these by their related query names: related_name,
related_query_name or the model's name; an item once: the framework's lookups across
relations are distinct), and each book's tags as DRF's ModelSerializer
renders them (in Tag's Meta.ordering). The Go test then reads the same
tables and compares.
"""
import json
import os
import sys
import types

import django
from django.conf import settings
from djangodb import database

lib = types.ModuleType("lib")
lib.__path__ = [os.path.dirname(os.path.abspath(__file__))]
sys.modules["lib"] = lib

settings.configure(
    SECRET_KEY="x",
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "django_filters", "rest_framework", "lib"],
    DATABASES={"default": database(sys.argv[1])},
    DEFAULT_AUTO_FIELD="django.db.models.AutoField",
    USE_TZ=True,
)
django.setup()

import django_filters  # noqa: E402
from django_filters import rest_framework as filters  # noqa: E402
import rest_framework  # noqa: E402
from django.db import connection, models  # noqa: E402
from django.http import QueryDict  # noqa: E402
from rest_framework import serializers  # noqa: E402
from rest_framework.filters import OrderingFilter  # noqa: E402
from rest_framework.request import Request  # noqa: E402
from rest_framework.test import APIRequestFactory  # noqa: E402


class Country(models.Model):
    name = models.CharField(max_length=20)

    class Meta:
        app_label = "lib"
        ordering = ["-name"]


class Author(models.Model):
    name = models.CharField(max_length=50)
    nick = models.CharField(max_length=50, null=True)
    country = models.ForeignKey(Country, null=True, on_delete=models.SET_NULL, related_name="authors")

    class Meta:
        app_label = "lib"


class Tag(models.Model):
    name = models.CharField(max_length=20)

    class Meta:
        app_label = "lib"
        ordering = ["-name"]


class Book(models.Model):
    title = models.CharField(max_length=50)
    author = models.ForeignKey(Author, null=True, on_delete=models.SET_NULL, related_name="books")
    editor = models.ForeignKey(Author, on_delete=models.CASCADE, related_name="edited")
    tags = models.ManyToManyField(Tag, related_name="books", blank=True)

    class Meta:
        app_label = "lib"
        ordering = ["author__name", "id"]


class Review(models.Model):
    """A reverse side without related_name: Book's lookups name it "review"."""
    book = models.ForeignKey(Book, on_delete=models.CASCADE)
    stars = models.IntegerField(null=True)

    class Meta:
        app_label = "lib"


class Shelf(models.Model):
    """A many-to-many field whose reverse side is looked up as "shelved"."""
    name = models.CharField(max_length=20)
    books = models.ManyToManyField(Book, related_query_name="shelved", blank=True)

    class Meta:
        app_label = "lib"


class BookSerializer(serializers.ModelSerializer):
    class Meta:
        model = Book
        fields = ["id", "tags"]


class BookOrdering:
    """The view OrderingFilter reads ordering_fields and ordering from."""
    ordering_fields = ["title", "id", "author__name", "editor__name", "author__country__name", "author__nick", "author",
                       "author__country", "editor__country"]
    ordering = ["-editor__name", "id"]


ORDERINGS = [
    "",
    "author__name,id",
    "-author__name,id",
    "editor__name,id",
    "-editor__name,-id",
    "author__country__name,id",
    "-author__country__name,id",
    "author__nick,id",
    "-author__nick,-id",
    "author__name,-editor__name,id",
    "author__country__name,-author__name,id",
    "title",
    "bogus",
    "tags__name",
    "bogus,author__name,id",
    "author,id",
    "-author,id",
    "author__country,id",
    "-author__country,-id",
    "editor__country,author__name,id",
]


class BookFilter(filters.FilterSet):
    class Meta:
        model = Book
        fields = {
            "author": ["isnull"],
            "author__country": ["isnull"],
            "author__nick": ["isnull"],
            "editor__country__name": ["isnull"],
            "tags": ["isnull"],
            "tags__name": ["isnull"],
            "review": ["isnull"],
            "review__stars": ["isnull"],
            "shelved": ["isnull"],
            "shelved__name": ["isnull"],
        }


class AuthorFilter(filters.FilterSet):
    class Meta:
        model = Author
        fields = {"books": ["isnull"], "edited": ["isnull"], "books__tags": ["isnull"], "books__tags__name": ["isnull"]}


class TagFilter(filters.FilterSet):
    class Meta:
        model = Tag
        fields = {"books": ["isnull"], "books__author": ["isnull"], "books__author__nick": ["isnull"]}


def lookups(*names):
    out = [""]
    for n in names:
        out += [n + "__isnull=true", n + "__isnull=false"]
    return out


SETS = {
    "books": (BookFilter, Book, lookups("author", "author__country", "author__nick", "editor__country__name", "tags", "tags__name",
                                          "review", "review__stars", "shelved", "shelved__name") + [
        "author__isnull=True", "author__isnull=False", "author__isnull=1", "author__isnull=0", "author__isnull=maybe",
        "author__isnull=", "author__isnull=TRUE", "tags__isnull=True", "author__isnull=true&tags__isnull=true",
    ]),
    "authors": (AuthorFilter, Author, lookups("books", "edited", "books__tags", "books__tags__name")),
    "tags": (TagFilter, Tag, lookups("books", "books__author", "books__author__nick")),
}


def main():
    with connection.schema_editor() as editor:
        for model in (Country, Author, Tag, Book, Review, Shelf):
            editor.create_model(model)
    fr, de = (Country.objects.create(name=n) for n in ("fr", "de"))
    ann = Author.objects.create(name="ann", nick="z", country=fr)
    bob = Author.objects.create(name="bob", nick=None, country=None)
    cid = Author.objects.create(name="cid", nick="a", country=de)
    Author.objects.create(name="dan", nick=None, country=fr)
    go, sql, web, ai = (Tag.objects.create(name=n) for n in ("go", "sql", "web", "ai"))
    Tag.objects.create(name="old")
    for title, author, editor, tags in [("e", bob, ann, [go, sql]), ("d", None, bob, []), ("c", ann, cid, [web, go, ai]),
                                        ("b", cid, ann, [sql]), ("a", ann, bob, [])]:
        Book.objects.create(title=title, author=author, editor=editor).tags.set(tags)
    Review.objects.create(book=Book.objects.get(title="e"), stars=5)
    Review.objects.create(book=Book.objects.get(title="c"), stars=None)
    Shelf.objects.create(name="top").books.set(Book.objects.filter(title__in=["a", "c"]))
    Shelf.objects.create(name="empty")

    out = {"versions": {"django": django.get_version(), "drf": rest_framework.VERSION,
                        "django_filter": django_filters.__version__}}
    out["meta_ordering"] = [b.id for b in Book.objects.all()]
    factory = APIRequestFactory()
    orderings = {}
    for q in ORDERINGS:
        request = Request(factory.get("/", {"ordering": q} if q else {}))
        qs = OrderingFilter().filter_queryset(request, Book.objects.all(), BookOrdering())
        orderings[q] = [b.id for b in qs]
    out["orderings"] = orderings
    out["book_tags"] = {str(b["id"]): b["tags"] for b in BookSerializer(Book.objects.order_by("id"), many=True).data}
    for name, (cls, model, queries) in SETS.items():
        answers = {}
        for q in queries:
            fs = cls(QueryDict(q), queryset=model.objects.order_by("id"))
            if fs.is_valid():
                answers[q] = {"ids": list(dict.fromkeys(o.id for o in fs.qs))}
            else:
                answers[q] = {"errors": fs.errors}
        out[name] = {
            "labels": {n: str(f.label) for n, f in cls().filters.items()},
            "answers": answers,
        }
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()


main()
