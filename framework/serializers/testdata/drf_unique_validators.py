"""DRF's answers for the validators a serializer declares: Meta.validators
(UniqueTogetherValidator, UniqueForDateValidator, UniqueForMonthValidator,
UniqueForYearValidator, or none) and a field's UniqueValidator(message=,
lookup=).

Run with Debian's Django 3.2 / DRF 3.14, and with the DRF 3.18 / Django 5.2
of conformance/reference/drf318 (scripts/install-references lays it out):

    /usr/bin/python3 framework/serializers/testdata/drf_unique_validators.py
    PYTHONPATH=conformance/reference/drf318 /usr/bin/python3 framework/serializers/testdata/drf_unique_validators.py

The models are those of DRF 3.18's tests/test_validators.py
(UniquenessModel, UniquenessTogetherModel, NullUniquenessTogetherModel,
UniqueForDateModel), each with the rows of ROWS. It prints, as JSON, the
versions and, for each item of STEPS (a create, a full or a partial update
of the first row), the step, and the errors (none when valid) or the
exception DRF raised; unique_validators_drf_test.go validates the same
steps and compares.
"""
import json

import django
from django.conf import settings

settings.configure(
    DEBUG=True,
    SECRET_KEY="x",
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    USE_TZ=True,
    TIME_ZONE="UTC",
)
django.setup()

import rest_framework  # noqa: E402
from django.db import connection, models  # noqa: E402
from rest_framework import serializers  # noqa: E402
from rest_framework.validators import (  # noqa: E402
    UniqueForDateValidator, UniqueForMonthValidator, UniqueForYearValidator, UniqueTogetherValidator, UniqueValidator
)


class UniquenessModel(models.Model):
    username = models.CharField(unique=True, max_length=100)

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


class UniqueForDateModel(models.Model):
    slug = models.CharField(max_length=100, unique_for_date="published")
    published = models.DateField()

    class Meta:
        app_label = "tests"


def serializer_of(model_class, names, validators=None, **declared):
    attrs = {"model": model_class, "fields": names}
    if validators is not None:
        attrs["validators"] = validators
    declared["Meta"] = type("Meta", (), attrs)
    return type(model_class.__name__ + "Serializer", (serializers.ModelSerializer,), declared)


def together(*fields, **kwargs):
    return UniqueTogetherValidator(queryset=UniquenessTogetherModel.objects.all(), fields=list(fields), **kwargs)


def null_together(*fields):
    return UniqueTogetherValidator(queryset=NullUniquenessTogetherModel.objects.all(), fields=list(fields))


def unique_for(cls, **kwargs):
    return cls(queryset=UniqueForDateModel.objects.all(), field="slug", date_field="published", **kwargs)


def unique_username(**kwargs):
    return serializers.CharField(max_length=100, validators=[UniqueValidator(queryset=UniquenessModel.objects.all(), **kwargs)])


SERIALIZERS = {
    "override": serializer_of(UniquenessTogetherModel, ("id", "race_name", "position"), []),
    "explicit": serializer_of(UniquenessTogetherModel, ("id", "race_name", "position"), [together("race_name", "position")]),
    "message": serializer_of(UniquenessTogetherModel, ("id", "race_name", "position"),
                             [together("race_name", "position", message="{field_names} taken.")]),
    "readonly": serializer_of(UniquenessTogetherModel, ("name", "position"), [together("name", "position")],
                              name=serializers.CharField(source="race_name", default="example", read_only=True)),
    "source": serializer_of(UniquenessTogetherModel, ("name", "position"), [together("name", "position")],
                            name=serializers.CharField(source="race_name")),
    "nulls": serializer_of(NullUniquenessTogetherModel, ("race_name", "position"), [null_together("race_name", "position")]),
    "nullsource": serializer_of(NullUniquenessTogetherModel, ("race_name", "pos"), [null_together("race_name", "pos")],
                                pos=serializers.IntegerField(source="position", allow_null=True, required=False)),
    "date": serializer_of(UniqueForDateModel, ("id", "slug", "published"), [unique_for(UniqueForDateValidator)]),
    "datemessage": serializer_of(UniqueForDateModel, ("id", "slug", "published"),
                                 [unique_for(UniqueForDateValidator, message="Taken on {date_field}.")]),
    "month": serializer_of(UniqueForDateModel, ("id", "slug", "published"), [unique_for(UniqueForMonthValidator)]),
    "year": serializer_of(UniqueForDateModel, ("id", "slug", "published"), [unique_for(UniqueForYearValidator)]),
    "nodate": serializer_of(UniqueForDateModel, ("id", "slug", "published"), []),
    "uniqueexact": serializer_of(UniquenessModel, ("id", "username"), username=unique_username()),
    "uniqueiexact": serializer_of(UniquenessModel, ("id", "username"), username=unique_username(lookup="iexact")),
    "uniqueicontains": serializer_of(UniquenessModel, ("id", "username"), username=unique_username(lookup="icontains")),
    "uniquemessage": serializer_of(UniquenessModel, ("id", "username"), username=unique_username(message="Taken.")),
}

# The rows of each model (the first is the instance an update changes).
ROWS = {
    UniquenessModel: [{"username": "existing"}, {"username": "second"}],
    UniquenessTogetherModel: [{"race_name": "example", "position": 1}, {"race_name": "example", "position": 2},
                              {"race_name": "other", "position": 1}],
    NullUniquenessTogetherModel: [{"race_name": "example", "position": 1}, {"race_name": "example", "position": None},
                                  {"race_name": "other", "position": 1}],
    UniqueForDateModel: [{"slug": "existing", "published": "2000-01-01"}, {"slug": "second", "published": "2000-01-02"}],
}

# name: (serializer, method, data); POST creates, PUT and PATCH update
# the first row.
STEPS = {
    "override taken": ("override", "POST", {"race_name": "example", "position": 1}),
    "override missing": ("override", "POST", {"position": 1}),
    "override update to taken": ("override", "PUT", {"race_name": "example", "position": 2}),
    "explicit taken": ("explicit", "POST", {"race_name": "example", "position": 1}),
    "explicit new": ("explicit", "POST", {"race_name": "example", "position": 3}),
    "explicit missing": ("explicit", "POST", {"position": 1}),
    "explicit update itself": ("explicit", "PUT", {"race_name": "example", "position": 1}),
    "explicit update to taken": ("explicit", "PUT", {"race_name": "example", "position": 2}),
    "explicit partial to taken": ("explicit", "PATCH", {"position": 2}),
    "explicit partial nothing": ("explicit", "PATCH", {}),
    "message taken": ("message", "POST", {"race_name": "example", "position": 1}),
    "message new": ("message", "POST", {"race_name": "new", "position": 1}),
    "readonly taken": ("readonly", "POST", {"position": 1}),
    "readonly new": ("readonly", "POST", {"position": 3}),
    "readonly update itself": ("readonly", "PUT", {"position": 1}),
    "readonly update to taken": ("readonly", "PUT", {"position": 2}),
    "readonly partial to taken": ("readonly", "PATCH", {"position": 2}),
    "source taken": ("source", "POST", {"name": "example", "position": 1}),
    "source new": ("source", "POST", {"name": "test", "position": 1}),
    "source missing": ("source", "POST", {"position": 1}),
    "nulls without position": ("nulls", "POST", {"race_name": "new"}),
    "nulls null position": ("nulls", "POST", {"race_name": "example", "position": None}),
    "nulls taken": ("nulls", "POST", {"race_name": "other", "position": 1}),
    "nulls partial to taken": ("nulls", "PATCH", {"race_name": "other"}),
    "nulls update without position": ("nulls", "PUT", {"race_name": "other"}),
    "nulls partial null": ("nulls", "PATCH", {"position": None}),
    "nullsource null taken": ("nullsource", "POST", {"race_name": "example", "pos": None}),
    "nullsource null new": ("nullsource", "POST", {"race_name": "new", "pos": None}),
    "nullsource taken": ("nullsource", "POST", {"race_name": "other", "pos": 1}),
    "date taken": ("date", "POST", {"slug": "existing", "published": "2000-01-01"}),
    "date other day": ("date", "POST", {"slug": "existing", "published": "2000-01-02"}),
    "date update itself": ("date", "PUT", {"slug": "existing", "published": "2000-01-01"}),
    "date partial slug": ("date", "PATCH", {"slug": "second"}),
    "date partial both": ("date", "PATCH", {"slug": "second", "published": "2000-01-02"}),
    "datemessage taken": ("datemessage", "POST", {"slug": "existing", "published": "2000-01-01"}),
    "month taken": ("month", "POST", {"slug": "existing", "published": "2000-01-31"}),
    "month other month": ("month", "POST", {"slug": "existing", "published": "2000-02-01"}),
    "year taken": ("year", "POST", {"slug": "existing", "published": "2000-12-31"}),
    "year other year": ("year", "POST", {"slug": "existing", "published": "2001-01-01"}),
    "nodate taken": ("nodate", "POST", {"slug": "existing", "published": "2000-01-01"}),
    "nodate partial slug": ("nodate", "PATCH", {"slug": "second"}),
    "uniqueexact other case": ("uniqueexact", "POST", {"username": "EXISTING"}),
    "uniqueexact taken": ("uniqueexact", "POST", {"username": "existing"}),
    "uniqueiexact taken": ("uniqueiexact", "POST", {"username": "Existing"}),
    "uniqueiexact new": ("uniqueiexact", "POST", {"username": "other"}),
    "uniqueiexact update itself": ("uniqueiexact", "PUT", {"username": "EXISTING"}),
    "uniqueiexact update to taken": ("uniqueiexact", "PUT", {"username": "SECOND"}),
    "uniqueicontains taken": ("uniqueicontains", "POST", {"username": "XIST"}),
    "uniqueicontains new": ("uniqueicontains", "POST", {"username": "third"}),
    "uniquemessage taken": ("uniquemessage", "POST", {"username": "existing"}),
}


def answer(step):
    name, method, data = step
    cls = SERIALIZERS[name]
    if method == "POST":
        s = cls(data=data)
    else:
        s = cls(cls.Meta.model.objects.order_by("pk").first(), data=data, partial=method == "PATCH")
    out = {"step": step}
    try:
        if not s.is_valid():
            out["errors"] = s.errors
    except Exception as e:  # DRF's 500
        out["exception"] = type(e).__name__
    return out


def main():
    with connection.schema_editor() as editor:
        for model in ROWS:
            editor.create_model(model)
    for model, rows in ROWS.items():
        for row in rows:
            model.objects.create(**row)
    out = {
        "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
        "items": {k: answer(v) for k, v in STEPS.items()},
    }
    print(json.dumps(out, indent=1, sort_keys=True))


main()
