"""DRF's answers for the uniqueness validators of framework/serializers.

TestValidatorsAsDRF runs it with Debian's Django 3.2 / DRF 3.14, and with
the DRF 3.18 / Django 5.2 of conformance/reference/drf318
(scripts/install-references lays it out), through internal/drfsuite.RunDRF,
and compares each answer.

The models and serializers are those of DRF 3.18's tests/test_validators.py
(UniquenessModel, RelatedModel, UniquenessTogetherModel,
NullUniquenessTogetherModel), one keyed by a one-to-one field, one
whose unique-together holds a blank CharField, and one with a
UniqueConstraint of one field and one of two fields with a condition,
and one unique among the rows a boolean condition matches (DRF 3.15 and
later check them; DRF 3.14 leaves them to the database).
It prints, as JSON, the versions and, for each step of STEPS (a create,
a full or a partial update of a serializer), the errors, the
representation of the item as saved, or integrity_error when the
database refused to save a valid item, and how many uniqueness queries
validating it ran (rest_framework.validators.qs_exists, and
qs_exists_with_condition's for values a condition matches);
validators_drf_test.go pins what it prints.
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
from django.db import IntegrityError, connection, models, transaction  # noqa: E402
from rest_framework import serializers, validators  # noqa: E402


class UniquenessModel(models.Model):
    username = models.CharField(unique=True, max_length=100)

    class Meta:
        app_label = "tests"


class RelatedModel(models.Model):
    user = models.OneToOneField(UniquenessModel, on_delete=models.CASCADE)

    class Meta:
        app_label = "tests"


class ProfileModel(models.Model):
    user = models.OneToOneField(UniquenessModel, on_delete=models.CASCADE, primary_key=True)
    bio = models.TextField(blank=True)

    class Meta:
        app_label = "tests"


class UniquenessTogetherModel(models.Model):
    race_name = models.CharField(max_length=100)
    position = models.IntegerField()

    class Meta:
        app_label = "tests"
        unique_together = ("race_name", "position")


class NullUniquenessTogetherModel(models.Model):
    date_of_birth = models.DateField(null=True)
    race_name = models.CharField(max_length=100)
    position = models.IntegerField(null=True)

    class Meta:
        app_label = "tests"
        unique_together = ("race_name", "position")


class BlankUniquenessTogetherModel(models.Model):
    race_name = models.CharField(max_length=100, blank=True)
    position = models.IntegerField()

    class Meta:
        app_label = "tests"
        unique_together = ("race_name", "position")


class ConditionalModel(models.Model):
    race_name = models.CharField(max_length=100)
    position = models.IntegerField()
    state = models.CharField(max_length=100, default="new")
    code = models.IntegerField()

    class Meta:
        app_label = "tests"
        constraints = [
            models.UniqueConstraint(name="conditional_unique", fields=("race_name", "position"), condition=models.Q(state="new")),
            models.UniqueConstraint(name="code_unique", fields=("code",)),
        ]


class ActiveModel(models.Model):
    name = models.CharField(max_length=100)
    active = models.BooleanField(default=True)

    class Meta:
        app_label = "tests"
        constraints = [
            models.UniqueConstraint(name="active_name_unique", fields=("name",), condition=models.Q(active=True)),
        ]


def serializer_of(model_class, names="__all__"):
    meta = type("Meta", (), {"model": model_class, "fields": names})
    return type(model_class.__name__ + "Serializer", (serializers.ModelSerializer,), {"Meta": meta})


SERIALIZERS = {
    "unique": serializer_of(UniquenessModel),
    "onetoone": serializer_of(RelatedModel, ("id", "user")),
    "profile": serializer_of(ProfileModel, ("user", "bio")),
    "together": serializer_of(UniquenessTogetherModel),
    "nulltogether": serializer_of(NullUniquenessTogetherModel),
    "blanktogether": serializer_of(BlankUniquenessTogetherModel),
    "conditional": serializer_of(ConditionalModel),
    "active": serializer_of(ActiveModel),
}

# (serializer, method, item id or None, data): POST creates, PUT and PATCH
# update the item of that id.
STEPS = [
    ("unique", "POST", None, {"username": "existing"}),
    ("unique", "POST", None, {"username": "existing"}),
    ("unique", "POST", None, {"username": "other"}),
    ("unique", "PUT", 1, {"username": "existing"}),
    ("unique", "PUT", 1, {"username": "other"}),
    ("onetoone", "POST", None, {"user": 1}),
    ("onetoone", "POST", None, {"user": 1}),
    ("onetoone", "POST", None, {"user": 2}),
    ("onetoone", "PUT", 1, {"user": 1}),
    ("onetoone", "PUT", 1, {"user": 2}),
    ("profile", "POST", None, {"user": 1}),
    ("profile", "POST", None, {"user": 1, "bio": "again"}),
    ("profile", "POST", None, {"user": 2}),
    ("together", "POST", None, {"race_name": "example", "position": 1}),
    ("together", "POST", None, {"race_name": "example", "position": 2}),
    ("together", "POST", None, {"race_name": "example", "position": 2}),
    ("together", "POST", None, {"race_name": "other", "position": 2}),
    ("together", "POST", None, {"position": 3}),
    ("together", "PUT", 1, {"race_name": "example", "position": 1}),
    ("together", "PATCH", 1, {"position": 1}),
    ("together", "PATCH", 1, {"race_name": "example"}),
    ("together", "PUT", 1, {"race_name": "example", "position": 2}),
    ("together", "PATCH", 1, {"position": 2}),
    ("together", "PATCH", 1, {"position": 3}),
    ("nulltogether", "POST", None, {"date_of_birth": "2000-01-01", "race_name": "Paris Marathon", "position": None}),
    ("nulltogether", "POST", None, {"race_name": "Paris Marathon", "position": None}),
    ("nulltogether", "POST", None, {"race_name": "Paris Marathon"}),
    ("nulltogether", "POST", None, {"race_name": "Paris Marathon", "position": 1}),
    ("nulltogether", "POST", None, {"date_of_birth": None, "race_name": "Paris Marathon", "position": 1}),
    ("nulltogether", "PATCH", 1, {"position": 1}),
    ("nulltogether", "PATCH", 1, {"date_of_birth": "2001-01-01"}),
    ("nulltogether", "PATCH", 1, {"position": 7}),
    ("nulltogether", "PUT", 1, {"race_name": "Paris Marathon"}),
    ("blanktogether", "POST", None, {"position": 1}),
    ("blanktogether", "POST", None, {"position": 1}),
    ("blanktogether", "POST", None, {"race_name": "", "position": 2}),
    ("blanktogether", "POST", None, {"race_name": "", "position": 2}),
    ("blanktogether", "PATCH", 1, {"race_name": "x"}),
    ("blanktogether", "PUT", 1, {"position": 5}),
    ("conditional", "POST", None, {"race_name": "a", "position": 1, "code": 1}),
    ("conditional", "POST", None, {"race_name": "a", "position": 1, "code": 3, "state": "old"}),
    ("conditional", "POST", None, {"race_name": "a", "position": 1, "code": 2}),
    ("conditional", "POST", None, {"race_name": "b", "position": 1, "code": 1}),
    ("conditional", "POST", None, {"race_name": "b", "position": 1}),
    ("conditional", "PATCH", 1, {"code": 1}),
    ("conditional", "PATCH", 1, {"code": 3}),
    ("conditional", "PATCH", 2, {"state": "new"}),
    ("conditional", "PATCH", 2, {"position": 2}),
    ("conditional", "PUT", 1, {"race_name": "a", "position": 1, "code": 1}),
    ("active", "POST", None, {"name": "x"}),
    ("active", "POST", None, {"name": "x", "active": False}),
    ("active", "POST", None, {"name": "x"}),
    ("active", "PATCH", 2, {"active": True}),
]


def main():
    with connection.schema_editor() as editor:
        for model_class in (UniquenessModel, RelatedModel, ProfileModel, UniquenessTogetherModel,
                            NullUniquenessTogetherModel, BlankUniquenessTogetherModel, ConditionalModel,
                            ActiveModel):
            editor.create_model(model_class)
    UniquenessModel.objects.create(username="existing")
    UniquenessModel.objects.create(username="second")
    calls = []
    real = validators.qs_exists

    def counted(queryset):
        calls.append(1)
        return real(queryset)

    validators.qs_exists = counted
    real_condition = getattr(validators, "qs_exists_with_condition", None)
    if real_condition is not None:
        # DRF 3.15 and later: a UniqueConstraint's condition is one
        # query with the lookup, run only when the values match it (a
        # condition of None is qs_exists, counted already).
        def counted_condition(queryset, condition, against):
            if condition is not None and condition.check(against):
                calls.append(1)
            return real_condition(queryset, condition, against)

        validators.qs_exists_with_condition = counted_condition
    answers = []
    for name, method, pk, data in STEPS:
        cls = SERIALIZERS[name]
        if pk is None:
            s = cls(data=data)
        else:
            s = cls(cls.Meta.model.objects.get(pk=pk), data=data, partial=method == "PATCH")
        del calls[:]
        if s.is_valid():
            queries = len(calls)
            try:
                with transaction.atomic():
                    s.save()
                answer = {"saved": s.data}
            except IntegrityError:
                answer = {"integrity_error": True}
        else:
            queries = len(calls)
            answer = {"errors": s.errors}
        answer["queries"] = queries
        answers.append([name, method, pk, data, answer])
    json.dump({
        "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
        "steps": answers,
    }, sys.stdout, indent=1)
    print()


main()
