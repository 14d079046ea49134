"""DRF's answers for Meta.constraints' UniqueConstraint of framework/serializers.

TestUniqueConstraintAsDRF runs it with Debian's Django 3.2 / DRF 3.14, and
with the DRF 3.18 / Django 5.2 of conformance/reference/drf318
(scripts/install-references lays it out), through internal/drfsuite.RunDRF,
and compares each answer.

It prints, as JSON, the versions and, for each step of STEPS (a create or
a partial update), the errors of a ModelSerializer whose model has a
UniqueConstraint of its author and title (DRF 3.14 ignores it, DRF 3.15
and later check it as unique_together), the validated item as saved, or
the database's refusal (an IntegrityError, which DRF lets be a 500);
unique_constraint_test.go pins what it prints.
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
from django.db import IntegrityError, connection, models, transaction  # noqa: E402
from rest_framework import serializers  # noqa: E402
from rest_framework.request import Request  # noqa: E402
from rest_framework.test import APIRequestFactory, force_authenticate  # noqa: E402


class Article(models.Model):
    author = models.ForeignKey(User, on_delete=models.CASCADE)
    title = models.CharField(max_length=100)
    body = models.TextField(blank=True, default="")

    class Meta:
        app_label = "blog"
        constraints = [models.UniqueConstraint(fields=["author", "title"], name="unique_author_title")]


class ArticleSerializer(serializers.ModelSerializer):
    class Meta:
        model = Article
        fields = ["id", "author", "title", "body"]


# (method, article id or None, user, data): POST creates, PUT and PATCH
# update the article of that id.
STEPS = [
    ("POST", None, "alice", {"author": 1, "title": "a"}),
    ("POST", None, "alice", {"author": 1, "title": "a", "body": "again"}),
    ("POST", None, "alice", {"author": 2, "title": "a"}),
    ("POST", None, "alice", {"author": 1}),
    ("PATCH", 2, "alice", {"author": 1}),
    ("PATCH", 2, "alice", {"title": "b"}),
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
            try:
                with transaction.atomic():
                    a = s.save()
            except IntegrityError:
                answers.append([method, pk, user, data, {"integrity_error": True}])
                continue
            answers.append([method, pk, user, data, {"saved": {"id": a.id, "author": a.author.username, "title": a.title}}])
        else:
            answers.append([method, pk, user, data, {"errors": s.errors}])
    json.dump({
        "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
        "steps": answers,
    }, sys.stdout, indent=1)
    print()


main()
