"""django-filter's answers for the FilterSet of framework/filters' model tests.

TestFilterSetOfModel runs it with Debian's Django 3.2 / DRF 3.14 /
django-filter 23.1, and with the DRF 3.18 / Django 5.2 / django-filter 25.1
of conformance/reference/drf318 (scripts/install-references lays it out),
through internal/drfsuite.RunDRF, and compares each answer.

It prints, as JSON, the versions, the error that refuses a FilterSet
naming a field its model lacks when the class is made, the filters
django-filter derives from Meta.fields (their classes and field names)
and their labels, and the answer (status, body) of a DRF list view with
DjangoFilterBackend to each query string of QUERIES; model_test.go pins
what it prints.
"""
import json
import sys

import django
from django.conf import settings

settings.configure(
    DEBUG=True,
    SECRET_KEY="x",
    ALLOWED_HOSTS=["*"],
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework", "django_filters"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    USE_TZ=True,
)
django.setup()

import django_filters  # noqa: E402
import rest_framework  # noqa: E402
from django.db import connection, models  # noqa: E402
from django_filters.rest_framework import DjangoFilterBackend  # noqa: E402
from rest_framework import generics, serializers  # noqa: E402
from rest_framework.test import APIRequestFactory  # noqa: E402


class Post(models.Model):
    title = models.CharField(max_length=100)

    class Meta:
        app_label = "blog"


class Comment(models.Model):
    post = models.ForeignKey(Post, on_delete=models.CASCADE)
    status = models.CharField(max_length=10, choices=[("draft", "Draft"), ("published", "Published")])
    rating = models.IntegerField(default=0)

    class Meta:
        app_label = "blog"


class CommentFilter(django_filters.FilterSet):
    class Meta:
        model = Comment
        fields = {
            "post": ["exact", "in", "isnull"],
            "post_id": ["exact"],
            "status": ["exact", "in"],
            "rating": ["exact", "gte"],
        }


class CommentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Comment
        fields = ["id"]


class CommentList(generics.ListAPIView):
    queryset = Comment.objects.order_by("id")
    serializer_class = CommentSerializer
    filter_backends = [DjangoFilterBackend]
    filterset_class = CommentFilter


QUERIES = [
    "",
    "post=1",
    "post=2",
    "post=999",
    "post=abc",
    "post=",
    "post=1.0",
    "post=%201",
    "post=%2B2",
    "post=0_2",
    "post=99999999999999999999",
    "post=-1",
    "post=1&post=2",
    "post=1%00",
    "post__in=1,999",
    "post__in=2,abc",
    "post__in=2,",
    "post_id=2",
    "post_id=999",
    "post__isnull=false",
    "status=draft",
    "status=published",
    "status=bogus",
    "status=Draft",
    "status=%20draft",
    "status=",
    "status=%20",
    "status__in=draft,bogus",
    "status=bogus&post=999&rating=x",
    "rating=x&post=abc",
    "rating__gte=4&post=1",
]


def main():
    with connection.schema_editor() as editor:
        editor.create_model(Post)
        editor.create_model(Comment)
    one, two = Post.objects.create(title="one"), Post.objects.create(title="two")
    Comment.objects.create(post=one, status="draft", rating=5)
    Comment.objects.create(post=one, status="published", rating=3)
    Comment.objects.create(post=two, status="published", rating=4)

    try:
        class Bogus(django_filters.FilterSet):
            class Meta:
                model = Comment
                fields = ["post", "bogus"]
        setup_error = None
    except TypeError as e:
        setup_error = str(e)

    derived = {name: [type(f).__name__, f.field_name, f.lookup_expr] for name, f in CommentFilter.base_filters.items()}
    labels = {name: f.label for name, f in CommentFilter().filters.items()}

    factory = APIRequestFactory()
    view = CommentList.as_view()
    answers = {}
    for q in QUERIES:
        try:
            response = view(factory.get("/comments/?" + q))
            response.render()
            body = response.data
            if response.status_code == 200:
                body = [c["id"] for c in body]
            answers[q] = [response.status_code, body]
        except Exception as e:  # DRF's 500
            answers[q] = [500, type(e).__name__]
    json.dump({
        "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION,
                     "django_filters": django_filters.__version__},
        "setup_error": setup_error,
        "derived": derived,
        "labels": labels,
        "answers": answers,
    }, sys.stdout, indent=1)
    print()


main()
