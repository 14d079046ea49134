"""DRF's answers for nested serializers that follow relations.

TestNestedRelationsAsDRF and TestSlugManyAsDRF runs it with Debian's Django
3.2 / DRF 3.14, and with the DRF 3.18 / Django 5.2 of
conformance/reference/drf318 (scripts/install-references lays it out),
through internal/drfsuite.RunDRF, and compares each answer.

A small blog: posts by an author, with tags (many-to-many) and comments,
each by a user and maybe reviewed. It prints, as JSON, the versions, the
representation of the posts and comments by each serializer (a dotted
source through a foreign key, nested serializers of a foreign key, of a
reverse foreign key and of a many-to-many field, ModelSerializer's
depth, a nested serializer's own nested one and dotted source), their
OPTIONS fields, SlugSerializer's writes of tags by name
(SlugRelatedField(many=True)) and OPTIONS, and the assertions of a create through a writable nested
field and a writable dotted-source field; nested_drf_test.go pins what
it prints.
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
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework", "blog"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    USE_TZ=True,
)
django.setup()

import rest_framework  # noqa: E402
from django.db import connection, models  # noqa: E402
from django.http import QueryDict  # noqa: E402
from rest_framework import serializers  # noqa: E402
from rest_framework.metadata import SimpleMetadata  # noqa: E402


class Author(models.Model):
    username = models.CharField(max_length=150)

    class Meta:
        app_label = "blog"


class Tag(models.Model):
    name = models.CharField(max_length=20)

    class Meta:
        app_label = "blog"
        ordering = ["name"]


class Post(models.Model):
    title = models.CharField(max_length=50)
    author = models.ForeignKey(Author, on_delete=models.CASCADE, related_name="posts")
    tags = models.ManyToManyField(Tag, related_name="posts")

    class Meta:
        app_label = "blog"
        ordering = ["id"]


class Comment(models.Model):
    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="comments")
    user = models.ForeignKey(Author, on_delete=models.CASCADE, related_name="comments")
    reviewer = models.ForeignKey(Author, on_delete=models.SET_NULL, null=True, related_name="reviewed")
    body = models.CharField(max_length=100)

    class Meta:
        app_label = "blog"
        ordering = ["id"]


class AuthorSerializer(serializers.ModelSerializer):
    class Meta:
        model = Author
        fields = ["id", "username"]


class TagSerializer(serializers.ModelSerializer):
    class Meta:
        model = Tag
        fields = ["id", "name"]


class CommentSerializer(serializers.ModelSerializer):
    user = serializers.ReadOnlyField(source="user.username")
    reviewer = AuthorSerializer(read_only=True)

    class Meta:
        model = Comment
        fields = ["id", "body", "user", "reviewer"]


class PostSerializer(serializers.ModelSerializer):
    author = AuthorSerializer(read_only=True)
    author_name = serializers.ReadOnlyField(source="author.username")
    tags = TagSerializer(many=True, read_only=True)
    comments = CommentSerializer(many=True, read_only=True)

    class Meta:
        model = Post
        fields = ["id", "title", "author", "author_name", "tags", "comments"]


class CommentDepth(serializers.ModelSerializer):
    class Meta:
        model = Comment
        fields = ["id", "body", "user"]
        depth = 1


class PostBrief(serializers.ModelSerializer):
    author = AuthorSerializer(read_only=True)
    writer = serializers.ReadOnlyField(source="author.username")

    class Meta:
        model = Post
        fields = ["id", "title", "author", "writer"]


class CommentDeep(serializers.ModelSerializer):
    post = PostBrief(read_only=True)

    class Meta:
        model = Comment
        fields = ["id", "body", "post"]


class SlugSerializer(serializers.ModelSerializer):
    tags = serializers.SlugRelatedField(many=True, slug_field="name", queryset=Tag.objects.all())

    class Meta:
        model = Post
        fields = ["id", "title", "author", "tags"]


# SlugSerializer's writes: (method, post id or None, form, data); POST
# creates, PATCH updates the post of that id; form data is a query string.
SLUG_STEPS = [
    ("POST", None, False, {"title": "s", "author": 1, "tags": ["web", "go"]}),
    ("POST", None, False, {"title": "s", "author": 1, "tags": ["nope"]}),
    ("POST", None, False, {"title": "s", "author": 1, "tags": ["go", "nope"]}),
    ("POST", None, False, {"title": "s", "author": 1, "tags": [5]}),
    ("POST", None, False, {"title": "s", "author": 1, "tags": [None]}),
    ("POST", None, False, {"title": "s", "author": 1, "tags": [True]}),
    ("POST", None, False, {"title": "s", "author": 1, "tags": "go"}),
    ("POST", None, False, {"title": "s", "author": 1, "tags": []}),
    ("POST", None, False, {"title": "s", "author": 1}),
    ("POST", None, False, {"title": "s", "author": 1, "tags": None}),
    ("POST", None, True, "title=f&author=2&tags=sql&tags=go"),
    ("POST", None, True, "title=f&author=2&tags=bad"),
    ("PATCH", 1, False, {"tags": ["sql"]}),
    ("PATCH", 1, False, {"title": "one again"}),
    ("PATCH", 2, False, {"tags": ["go", "go", "web"]}),
]


class WritableNested(serializers.ModelSerializer):
    author = AuthorSerializer()

    class Meta:
        model = Post
        fields = ["id", "title", "author"]


class WritableDotted(serializers.ModelSerializer):
    author_name = serializers.CharField(source="author.username")

    class Meta:
        model = Post
        fields = ["id", "title", "author_name"]


def main():
    with connection.schema_editor() as editor:
        for model in (Author, Tag, Post, Comment):
            editor.create_model(model)
    ann, bob, cy = (Author.objects.create(username=u) for u in ("ann", "bob", "cy"))
    web, go, sql = (Tag.objects.create(name=n) for n in ("web", "go", "sql"))
    one = Post.objects.create(title="one", author=ann)
    one.tags.set([web, go])
    Post.objects.create(title="two", author=bob)
    three = Post.objects.create(title="three", author=ann)
    three.tags.set([sql])
    Comment.objects.create(post=one, user=bob, reviewer=ann, body="nice")
    Comment.objects.create(post=one, user=cy, body="meh")
    Comment.objects.create(post=three, user=ann, reviewer=bob, body="self")

    info = SimpleMetadata().get_serializer_info
    out = {
        "versions": {"drf": rest_framework.VERSION, "django": django.get_version()},
        "posts": PostSerializer(Post.objects.all(), many=True).data,
        "posts_info": info(PostSerializer()),
        "depth": CommentDepth(Comment.objects.all(), many=True).data,
        "depth_info": info(CommentDepth()),
        "deep": CommentDeep(Comment.objects.all(), many=True).data,
        "deep_info": info(CommentDeep()),
    }
    out["slug_info"] = info(SlugSerializer())
    steps = []
    for method, pk, form, data in SLUG_STEPS:
        payload = QueryDict(data) if form else data
        if pk is None:
            s = SlugSerializer(data=payload)
        else:
            s = SlugSerializer(Post.objects.get(pk=pk), data=payload, partial=method == "PATCH")
        if s.is_valid():
            s.save()
            steps.append([method, pk, form, data, {"data": SlugSerializer(Post.objects.get(pk=s.instance.pk)).data}])
        else:
            steps.append([method, pk, form, data, {"errors": s.errors}])
    out["slug_steps"] = steps
    for name, cls, data in (
        ("writable_nested", WritableNested, {"title": "t", "author": {"username": "dee"}}),
        ("writable_dotted", WritableDotted, {"title": "t", "author_name": "dee"}),
    ):
        s = cls(data=data)
        assert s.is_valid(), s.errors
        try:
            s.save()
            out[name] = None
        except AssertionError as e:
            out[name] = str(e)
    print(json.dumps(out, indent=1, sort_keys=True))


main()
