"""django-filter's answers for a FilterSet over a many-to-many field.

TestManyToManyFilterAsDjangoFilter runs it with Debian's Django 3.2 /
django-filter 23.1, and with the Django 5.2 / django-filter 25.1 of
conformance/reference/drf318 (scripts/install-references lays it out),
through internal/drfsuite.RunDRF, and compares each answer.

It prints, as JSON, the versions, the filter django-filter derives from
Meta.fields = ["tags"] (its class, its distinct and its label), and for
each query string of QUERIES the posts it keeps (their ids, in order) or
its errors; manytomany_test.go pins what it prints.
"""
import json
import os
import sys
import types

import django
from django.conf import settings

# The app "blog" of the models, installed so that their relations resolve
# both ways (Post.tags and Tag.posts).
blog = types.ModuleType("blog")
blog.__path__ = [os.path.dirname(os.path.abspath(__file__))]
sys.modules["blog"] = blog

settings.configure(
    SECRET_KEY="x",
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "django_filters", "blog"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    USE_TZ=True,
)
django.setup()

import django_filters  # noqa: E402
from django.db import connection, models  # noqa: E402
from django.http import QueryDict  # noqa: E402


class Tag(models.Model):
    name = models.CharField(max_length=20)

    class Meta:
        app_label = "blog"


class Post(models.Model):
    title = models.CharField(max_length=50)
    tags = models.ManyToManyField(Tag, related_name="posts")

    class Meta:
        app_label = "blog"
        ordering = ["id"]


class PostFilter(django_filters.FilterSet):
    class Meta:
        model = Post
        fields = ["tags"]


QUERIES = [
    "",
    "tags=1",
    "tags=1&tags=3",
    "tags=1&tags=2",
    "tags=2&tags=2",
    "tags=3",
    "tags=99",
    "tags=1&tags=99",
    "tags=x",
    "tags=",
    "tags=1&tags=",
    "tags=%201",
    "tags=1.0",
    "tags=+2",
    "other=1",
]


def main():
    with connection.schema_editor() as editor:
        editor.create_model(Tag)
        editor.create_model(Post)
    tags = [Tag.objects.create(name=name) for name in ("go", "sql", "web")]
    Post.objects.create(title="a").tags.set([tags[0], tags[2]])
    Post.objects.create(title="b").tags.set([tags[1]])
    Post.objects.create(title="c")
    answers = {}
    for q in QUERIES:
        fs = PostFilter(QueryDict(q), queryset=Post.objects.all())
        if fs.is_valid():
            answers[q] = {"ids": [p.id for p in fs.qs]}
        else:
            answers[q] = {"errors": fs.errors}
    f = PostFilter.base_filters["tags"]
    json.dump({
        "versions": {"django": django.get_version(), "django_filter": django_filters.__version__},
        "filter": {"class": type(f).__name__, "distinct": f.distinct, "label": str(PostFilter().filters["tags"].label)},
        "answers": answers,
    }, sys.stdout, indent=1)
    print()


main()
