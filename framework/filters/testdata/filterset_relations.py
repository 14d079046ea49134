"""django-filter's answers for lookups across relations.

TestRelationLookupsAsDjangoFilter runs it with Debian's Django 3.2 /
django-filter 23.1, and with the Django 5.2 / django-filter 25.1 of
conformance/reference/drf318 (scripts/install-references lays it out),
through internal/drfsuite.RunDRF, and compares each answer.

A small blog: posts by an author with tags (many-to-many), comments on
posts. It prints, as JSON, the versions, the filters django-filter
derives from Meta.fields naming paths across relations (their class,
distinct and label), and for each query string of each FilterSet the
items it keeps (their ids, in order) or its errors; relations_test.go
pins what it prints. The declared tags_like filter asks for distinct,
which the framework's lookups across relations always are; the
items_default answers show what django-filter's default distinct=False
gives instead (an item once per related row that matches).
"""
import json
import os
import sys
import types

import django
from django.conf import settings

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


class Author(models.Model):
    username = models.CharField(max_length=150)

    class Meta:
        app_label = "blog"


class Tag(models.Model):
    name = models.CharField(max_length=20)

    class Meta:
        app_label = "blog"


class Post(models.Model):
    title = models.CharField(max_length=50)
    author = models.ForeignKey(Author, on_delete=models.CASCADE, related_name="posts")
    tags = models.ManyToManyField(Tag, related_name="posts")

    class Meta:
        app_label = "blog"
        ordering = ["id"]


class Comment(models.Model):
    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="comments")
    body = models.CharField(max_length=100)

    class Meta:
        app_label = "blog"
        ordering = ["id"]


class PostFilter(django_filters.FilterSet):
    tags_like = django_filters.CharFilter(field_name="tags__name", lookup_expr="icontains", distinct=True)

    class Meta:
        model = Post
        fields = ["author__username", "tags__name"]


class PostDefault(django_filters.FilterSet):
    tags_like = django_filters.CharFilter(field_name="tags__name", lookup_expr="icontains")

    class Meta:
        model = Post
        fields = []


class CommentFilter(django_filters.FilterSet):
    class Meta:
        model = Comment
        fields = ["post__author__username", "post__author"]


SETS = {
    "posts": (PostFilter, Post, [
        "",
        "author__username=ann",
        "author__username=bob",
        "author__username=nobody",
        "tags__name=go",
        "tags__name=sql",
        "tags__name=nope",
        "author__username=ann&tags__name=sql",
        "author__username=bob&tags__name=go",
        "tags_like=o",
        "tags_like=G",
        "tags_like=z",
        "tags__name=",
    ]),
    "comments": (CommentFilter, Comment, [
        "",
        "post__author__username=ann",
        "post__author__username=bob",
        "post__author=1",
        "post__author=2",
        "post__author=99",
        "post__author=x",
        "post__author__username=ann&post__author=1",
    ]),
}


def main():
    with connection.schema_editor() as editor:
        for model in (Author, Tag, Post, Comment):
            editor.create_model(model)
    ann, bob = (Author.objects.create(username=u) for u in ("ann", "bob"))
    web, go, gopher, sql = (Tag.objects.create(name=n) for n in ("web", "go", "gopher", "sql"))
    one = Post.objects.create(title="one", author=ann)
    one.tags.set([web, go, gopher])
    two = Post.objects.create(title="two", author=bob)
    two.tags.set([go])
    three = Post.objects.create(title="three", author=ann)
    three.tags.set([sql])
    Comment.objects.create(post=one, body="a")
    Comment.objects.create(post=three, body="b")
    Comment.objects.create(post=one, body="c")
    out = {"versions": {"django": django.get_version(), "django_filter": django_filters.__version__}}
    for name, (cls, model, queries) in SETS.items():
        answers = {}
        for q in queries:
            fs = cls(QueryDict(q), queryset=model.objects.all())
            if fs.is_valid():
                answers[q] = {"ids": [p.id for p in fs.qs]}
            else:
                answers[q] = {"errors": fs.errors}
        fs = cls()
        out[name] = {
            "filters": {n: {"class": type(f).__name__, "distinct": f.distinct, "label": str(f.label)}
                        for n, f in fs.filters.items()},
            "answers": answers,
        }
    out["items_default"] = {q: [p.id for p in PostDefault(QueryDict(q), queryset=Post.objects.all()).qs]
                            for q in ("tags_like=o", "tags_like=G")}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()


main()
