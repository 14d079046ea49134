"""DRF's answers for generics' BulkCreate (list_drf_test.go runs it).

A ListCreateAPIView of a model whose get_serializer passes
many=isinstance(request.data, list), as DRF's documentation has it, on an
SQLite database: /books/ with the ListSerializer's defaults, /some-books/
with allow_empty=False, max_length=2 and min_length=1. It reads, as JSON
on stdin, a list of [path, JSON body] POSTs and prints, as JSON, each
answer's status and body, then the rows of the table.

Runs on Debian's DRF 3.14 / Django 3.2, or DRF 3.18 / Django 5.2 with
PYTHONPATH=conformance/reference/drf318.
"""
import json
import sys

import django
from django.conf import settings

settings.configure(SECRET_KEY="bulk", DEBUG=False, ALLOWED_HOSTS=["*"], USE_TZ=True, ROOT_URLCONF=__name__,
                   DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
                   INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"],
                   REST_FRAMEWORK={"DEFAULT_AUTHENTICATION_CLASSES": [], "DEFAULT_PERMISSION_CLASSES": [],
                                   "UNAUTHENTICATED_USER": None})
django.setup()

from django.db import connection, models  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import path  # noqa: E402
from rest_framework import generics, serializers  # noqa: E402


class Book(models.Model):
    title = models.CharField(max_length=20, unique=True)
    pages = models.IntegerField()

    class Meta:
        app_label = "bulk"
        db_table = "bulk_book"
        ordering = ["id"]


class BookSerializer(serializers.ModelSerializer):
    class Meta:
        model = Book
        fields = ["id", "title", "pages"]


class Books(generics.ListCreateAPIView):
    queryset = Book.objects.all()
    serializer_class = BookSerializer
    list_kwargs = {}

    def get_serializer(self, *args, **kwargs):
        if isinstance(kwargs.get("data"), list):
            kwargs.update(many=True, **self.list_kwargs)
        return super().get_serializer(*args, **kwargs)


class SomeBooks(Books):
    list_kwargs = {"allow_empty": False, "max_length": 2, "min_length": 1}


urlpatterns = [path("books/", Books.as_view()), path("some-books/", SomeBooks.as_view())]

with connection.schema_editor() as editor:
    editor.create_model(Book)

client = Client(raise_request_exception=False)
answers = []
for url, body in json.load(sys.stdin):
    resp = client.post(url, body, content_type="application/json")
    answers.append({"status": resp.status_code, "body": json.loads(resp.content) if resp.content else None})
json.dump({"answers": answers, "rows": list(Book.objects.values("id", "title", "pages"))}, sys.stdout, indent=1)
print()
