"""DRF's answers for a ModelSerializer over many-to-many fields.

TestManyToManyAsDRF runs it with Debian's Django 3.2 / DRF 3.14, and with
the DRF 3.18 / Django 5.2 of conformance/reference/drf318
(scripts/install-references lays it out), through internal/drfsuite.RunDRF,
and compares each answer.

It prints, as JSON, the versions, the serializers' OPTIONS fields, and
for each step of STEPS (a create or an update, of JSON or of form data)
and of LINK_STEPS (a create with hyperlinks) the serializer's errors or
the saved post's representation;
manytomany_drf_test.go pins what it prints.
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
    ROOT_URLCONF="blog.urls",
    ALLOWED_HOSTS=["testserver"],
    DEBUG=True,
    SECRET_KEY="x",
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework", "blog"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    USE_TZ=True,
)
django.setup()

import rest_framework  # noqa: E402
from django.db import connection, models  # noqa: E402
from django.http import QueryDict  # noqa: E402
from rest_framework import serializers  # noqa: E402
from django.urls import path  # noqa: E402
from rest_framework.metadata import SimpleMetadata  # noqa: E402
from rest_framework.request import Request  # noqa: E402
from rest_framework.test import APIRequestFactory  # noqa: E402


class Tag(models.Model):
    name = models.CharField(max_length=20)

    class Meta:
        app_label = "blog"


class Post(models.Model):
    title = models.CharField(max_length=50)
    tags = models.ManyToManyField(Tag, related_name="posts")
    labels = models.ManyToManyField(Tag, blank=True, related_name="labelled")

    class Meta:
        app_label = "blog"


class PostSerializer(serializers.ModelSerializer):
    class Meta:
        model = Post
        fields = ["id", "title", "tags", "labels"]


class LinkSerializer(serializers.HyperlinkedModelSerializer):
    class Meta:
        model = Post
        fields = ["id", "title", "tags"]


def detail(request, pk):
    raise NotImplementedError


urls = types.ModuleType("blog.urls")
urls.urlpatterns = [
    path("tags/<int:pk>/", detail, name="tag-detail"),
    path("posts/<int:pk>/", detail, name="post-detail"),
]
sys.modules["blog.urls"] = urls

# (method, post id or None, form, data): POST creates, PUT and PATCH
# update the post of that id; form data is a query string.
STEPS = [
    ("POST", None, False, {"title": "a", "tags": [3, 1], "labels": []}),
    ("POST", None, False, {"title": "b", "tags": ["2", 1.0], "labels": [2, 2]}),
    ("POST", None, False, {"title": "c"}),
    ("POST", None, False, {"title": "c", "tags": "1"}),
    ("POST", None, False, {"title": "c", "tags": 1}),
    ("POST", None, False, {"title": "c", "tags": {"a": 1}}),
    ("POST", None, False, {"title": "c", "tags": []}),
    ("POST", None, False, {"title": "c", "tags": None}),
    ("POST", None, False, {"title": "c", "tags": [1, 99]}),
    ("POST", None, False, {"title": "c", "tags": ["x"]}),
    ("POST", None, False, {"title": "c", "tags": [True]}),
    ("POST", None, False, {"title": "c", "tags": [[1]]}),
    ("POST", None, False, {"title": "c", "tags": [{"a": 1}]}),
    ("POST", None, False, {"title": "c", "tags": [None]}),
    ("POST", None, False, {"title": "c", "tags": [""]}),
    ("POST", None, False, {"title": "c", "tags": [1], "labels": [99]}),
    ("POST", None, True, "title=f&tags=2&tags=3"),
    ("POST", None, True, "title=f"),
    ("POST", None, True, "title=f&tags=1&labels=9"),
    ("POST", None, True, "title=f&tags="),
    ("PATCH", 1, False, {"title": "a2"}),
    ("PATCH", 1, False, {"labels": [3, 2]}),
    ("PUT", 1, False, {"title": "a3", "tags": [2]}),
    ("PATCH", 2, True, "title=b2"),
    ("PATCH", 2, True, "tags=3&tags=1"),
    ("PATCH", 2, False, {"tags": []}),
]

# LinkSerializer's creates.
LINK_STEPS = [
    {"title": "h", "tags": ["http://testserver/tags/3/", "/tags/1/"]},
    {"title": "h", "tags": ["http://testserver/posts/1/"]},
    {"title": "h", "tags": ["/nope/"]},
    {"title": "h", "tags": ["/tags/99/"]},
    {"title": "h", "tags": [1]},
    {"title": "h", "tags": [None]},
    {"title": "h", "tags": "/tags/1/"},
    {"title": "h", "tags": []},
]


def main():
    with connection.schema_editor() as editor:
        editor.create_model(Tag)
        editor.create_model(Post)
    for name in ("go", "sql", "web"):
        Tag.objects.create(name=name)
    answers = []
    for method, pk, form, data in STEPS:
        payload = QueryDict(data) if form else data
        if pk is None:
            s = PostSerializer(data=payload)
        else:
            s = PostSerializer(Post.objects.get(pk=pk), data=payload, partial=method == "PATCH")
        if s.is_valid():
            s.save()
            answers.append([method, pk, form, data, {"data": PostSerializer(Post.objects.get(pk=s.instance.pk)).data}])
        else:
            answers.append([method, pk, form, data, {"errors": s.errors}])
    context = {"request": Request(APIRequestFactory().post("/posts/"))}
    links = []
    for data in LINK_STEPS:
        s = LinkSerializer(data=data, context=context)
        if s.is_valid():
            s.save()
            links.append([data, {"data": LinkSerializer(Post.objects.get(pk=s.instance.pk), context=context).data}])
        else:
            links.append([data, {"errors": s.errors}])
    json.dump({
        "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
        "options": SimpleMetadata().get_serializer_info(PostSerializer()),
        "link_options": SimpleMetadata().get_serializer_info(LinkSerializer(context=context)),
        "steps": answers,
        "links": links,
    }, sys.stdout, indent=1)
    print()


main()
