"""DRF's answers for Meta.exclude on a ModelSerializer (serializers.Exclude).

TestExcludeAsDRF runs it with Debian's Django 3.2 / DRF 3.14, and with the
DRF 3.18 / Django 5.2 of conformance/reference/drf318
(scripts/install-references lays it out), through internal/drfsuite.RunDRF,
and compares each answer.

From DRF 3.18's tests/test_model_serializer.py (TestSerializerMetaClass:
test_meta_class_fields_and_exclude_options,
test_declared_fields_with_exclude_option) and tests/test_generics.py
(TestCreateModelWithAutoNowAddField, whose serializer excludes an
auto_now_add field): it prints, as JSON, the setup errors of fields and
exclude together, of a declared field excluded and of an unknown field
excluded, then the fields of a serializer excluding "created", the
default fields of a HyperlinkedModelSerializer (all, and excluding "url"
and "email"), its error for an excluded primary key, and the first
serializer's
errors or validated representation for each input of INPUTS;
exclude_drf_test.go pins what it prints.
"""
import json
import sys

import django
from django.conf import settings

settings.configure(
    DEBUG=True,
    SECRET_KEY="x",
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    USE_TZ=True,
)
django.setup()

import rest_framework  # noqa: E402
from django.db import models  # noqa: E402
from rest_framework import serializers  # noqa: E402


class Comment(models.Model):
    email = models.EmailField()
    content = models.CharField(max_length=200)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "tests"


def setup_error(meta, base=serializers.ModelSerializer, **declared):
    ExampleSerializer = type("ExampleSerializer", (base,),
                             dict(declared, Meta=type("Meta", (), dict(meta, model=Comment))))
    try:
        ExampleSerializer().fields
    except AssertionError as e:
        return str(e)
    return None


class CommentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Comment
        exclude = ("created",)


def hyperlinked_fields(**meta):
    """The fields of a HyperlinkedModelSerializer of Comment with meta."""
    HyperlinkedSerializer = type("HyperlinkedSerializer", (serializers.HyperlinkedModelSerializer,),
                                 {"Meta": type("Meta", (), dict(meta, model=Comment))})
    return list(HyperlinkedSerializer().fields)


INPUTS = [
    {"email": "foobar@example.com", "content": "foobar"},
    {"email": "foobar@example.com", "content": "foobar", "created": "2001-01-01T00:00:00Z"},
    {"email": "foobar"},
]


def main():
    answers = []
    for data in INPUTS:
        s = CommentSerializer(data=data)
        if s.is_valid():
            answers.append([data, {"validated": CommentSerializer(Comment(id=1, **s.validated_data)).data}])
        else:
            answers.append([data, {"errors": s.errors}])
    json.dump({
        "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
        "fields_and_exclude": setup_error({"fields": ("content",), "exclude": ("created",)}),
        "declared": setup_error({"exclude": ("content",)}, content=serializers.CharField()),
        "unknown": setup_error({"exclude": ("missing",)}),
        "fields": list(CommentSerializer().fields),
        "hyperlinked_all": hyperlinked_fields(fields="__all__"),
        "hyperlinked_exclude": hyperlinked_fields(exclude=("url", "email")),
        "hyperlinked_pk": setup_error({"exclude": ("id",)}, base=serializers.HyperlinkedModelSerializer),
        "inputs": answers,
    }, sys.stdout, indent=1)
    print()


main()
