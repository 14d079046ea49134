"""DRF's answers for unique_together with a HiddenField of framework/serializers.

TestUniqueTogetherWithHiddenField runs it with Debian's Django 3.2 / DRF
3.14, and with the DRF 3.18 / Django 5.2 of conformance/reference/drf318
(scripts/install-references lays it out), through internal/drfsuite.RunDRF,
and compares each answer.

It prints, as JSON, the versions and, for each step of STEPS (a create, a
full or a partial update, by a user), the errors of a ModelSerializer
whose model's unique_together pairs the author, filled by
HiddenField(default=CurrentUserDefault()), with the title, or the
validated item as saved; unique_together_test.go pins what it prints.
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
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, models  # noqa: E402
from rest_framework import serializers  # noqa: E402
from rest_framework.request import Request  # noqa: E402
from rest_framework.test import APIRequestFactory, force_authenticate  # noqa: E402


class Article(models.Model):
    author = models.ForeignKey(User, on_delete=models.CASCADE)
    title = models.CharField(max_length=100)
    body = models.TextField(blank=True, default="")

    class Meta:
        app_label = "blog"
        unique_together = [("author", "title")]


class ArticleSerializer(serializers.ModelSerializer):
    author = serializers.HiddenField(default=serializers.CurrentUserDefault())

    class Meta:
        model = Article
        fields = ["id", "title", "body", "author"]


# (method, article id or None, user, data): POST creates, PUT and PATCH
# update the article of that id.
STEPS = [
    ("POST", None, "alice", {"title": "a"}),
    ("POST", None, "alice", {"title": "a", "body": "again"}),
    ("POST", None, "bob", {"title": "a"}),
    ("POST", None, "alice", {"title": "b"}),
    ("POST", None, "alice", {"body": "x"}),
    ("PUT", 1, "bob", {"title": "a"}),
    ("PUT", 1, "alice", {"title": "a", "body": "same"}),
    ("PATCH", 3, "bob", {"title": "a"}),
    ("PATCH", 3, "alice", {"title": "c"}),
]


def main():
    call_command("migrate", "auth", verbosity=0)
    with connection.schema_editor() as editor:
        editor.create_model(Article)
    users = {name: User.objects.create_user(name) for name in ("alice", "bob")}
    factory = APIRequestFactory()
    answers = []
    for method, pk, user, data in STEPS:
        request = factory.generic(method, "/articles/")
        force_authenticate(request, user=users[user])
        request = Request(request)
        request.user = users[user]
        context = {"request": request}
        if pk is None:
            s = ArticleSerializer(data=data, context=context)
        else:
            s = ArticleSerializer(Article.objects.get(pk=pk), data=data, partial=method == "PATCH", context=context)
        if s.is_valid():
            a = s.save()
            answers.append([method, pk, user, data, {"saved": {"id": a.id, "author": a.author.username, "title": a.title}}])
        else:
            answers.append([method, pk, user, data, {"errors": s.errors}])
    json.dump({
        "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
        "steps": answers,
    }, sys.stdout, indent=1)
    print()


main()
