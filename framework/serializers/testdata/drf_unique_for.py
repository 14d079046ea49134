"""DRF's answers for a model field's unique_for_date, unique_for_month and
unique_for_year (UniqueForDateValidator, UniqueForMonthValidator and
UniqueForYearValidator, as ModelSerializer derives them).

Run with Debian's Django 3.2 / DRF 3.14, and with the DRF 3.18 / Django 5.2
of conformance/reference/drf318 (scripts/install-references lays it out):

    /usr/bin/python3 framework/serializers/testdata/drf_unique_for.py
    PYTHONPATH=conformance/reference/drf318 /usr/bin/python3 framework/serializers/testdata/drf_unique_for.py

The models are those of DRF 3.18's tests/test_validators.py
(UniqueForDateModel, UniqueForMonthModel, UniqueForYearModel,
HiddenFieldUniqueForDateModel, serialized with and without its date
field), and one whose date field has a default, one whose date field may
be null. Each model has the rows of ROWS. It prints, as JSON, the
versions and, for each item of STEPS (a create, a full or a partial update
of the first row), the step, and the errors (none when valid) or the
exception DRF raised; unique_for_drf_test.go runs the same steps behind
generic views and compares.
"""
import datetime
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
from django.utils import timezone  # noqa: E402
from rest_framework import serializers  # noqa: E402


class UniqueForDateModel(models.Model):
    slug = models.CharField(max_length=100, unique_for_date="published")
    published = models.DateField()

    class Meta:
        app_label = "tests"


class UniqueForMonthModel(models.Model):
    slug = models.CharField(max_length=100, unique_for_month="published")
    published = models.DateField()

    class Meta:
        app_label = "tests"


class UniqueForYearModel(models.Model):
    slug = models.CharField(max_length=100, unique_for_year="published")
    published = models.DateField()

    class Meta:
        app_label = "tests"


class HiddenFieldUniqueForDateModel(models.Model):
    slug = models.CharField(max_length=100, unique_for_date="published")
    published = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "tests"


class DefaultDateModel(models.Model):
    slug = models.CharField(max_length=100, unique_for_date="published")
    published = models.DateField(default=datetime.date(2000, 1, 1))

    class Meta:
        app_label = "tests"


class NullDateModel(models.Model):
    slug = models.CharField(max_length=100, unique_for_year="published")
    published = models.DateField(null=True)

    class Meta:
        app_label = "tests"


def serializer_of(model_class, names="__all__"):
    meta = type("Meta", (), {"model": model_class, "fields": names})
    return type(model_class.__name__ + "Serializer", (serializers.ModelSerializer,), {"Meta": meta})


SERIALIZERS = {
    "date": serializer_of(UniqueForDateModel),
    "month": serializer_of(UniqueForMonthModel),
    "year": serializer_of(UniqueForYearModel),
    "hidden": serializer_of(HiddenFieldUniqueForDateModel, ("id", "slug")),
    "included": serializer_of(HiddenFieldUniqueForDateModel, ("id", "slug", "published")),
    "default": serializer_of(DefaultDateModel),
    "null": serializer_of(NullDateModel),
}

# The rows of each model, by serializer (the first is the instance an
# update changes): slug and published (None: now, for auto_now_add).
ROWS = {
    "date": [("existing", "2000-01-01"), ("second", "2000-01-02")],
    "month": [("existing", "2017-01-01"), ("second", "2017-02-01")],
    "year": [("existing", "2017-01-01"), ("second", "2018-01-01")],
    "hidden": [("existing", None), ("second", None)],
    "included": [("existing", None), ("second", None)],
    "default": [("existing", "2000-01-01"), ("second", "2000-01-02")],
    "null": [("existing", "2017-01-01"), ("second", None)],
}

# name: (serializer, method, data); POST creates, PUT and PATCH update
# the first row.
STEPS = {
    "date taken": ("date", "POST", {"slug": "existing", "published": "2000-01-01"}),
    "date other day": ("date", "POST", {"slug": "existing", "published": "2000-01-02"}),
    "date other slug": ("date", "POST", {"slug": "new", "published": "2000-01-01"}),
    "date without date": ("date", "POST", {"slug": "existing"}),
    "date without slug": ("date", "POST", {"published": "2000-01-01"}),
    "date null date": ("date", "POST", {"slug": "existing", "published": None}),
    "date update itself": ("date", "PUT", {"slug": "existing", "published": "2000-01-01"}),
    "date update to taken": ("date", "PUT", {"slug": "second", "published": "2000-01-02"}),
    "date partial slug": ("date", "PATCH", {"slug": "second"}),
    "date partial date": ("date", "PATCH", {"published": "2000-01-02"}),
    "date partial both": ("date", "PATCH", {"slug": "second", "published": "2000-01-02"}),
    "date partial nothing": ("date", "PATCH", {}),
    "month taken": ("month", "POST", {"slug": "existing", "published": "2017-01-31"}),
    "month other month": ("month", "POST", {"slug": "existing", "published": "2017-03-01"}),
    "month other year": ("month", "POST", {"slug": "existing", "published": "2018-01-15"}),
    "year taken": ("year", "POST", {"slug": "existing", "published": "2017-12-31"}),
    "year other year": ("year", "POST", {"slug": "existing", "published": "2019-01-01"}),
    "hidden taken": ("hidden", "POST", {"slug": "existing"}),
    "hidden new": ("hidden", "POST", {"slug": "new"}),
    "hidden update": ("hidden", "PUT", {"slug": "existing"}),
    "hidden partial": ("hidden", "PATCH", {"slug": "second"}),
    "included taken": ("included", "POST", {"slug": "existing", "published": "1999-01-01T00:00:00Z"}),
    "included new": ("included", "POST", {"slug": "new"}),
    "included update": ("included", "PUT", {"slug": "existing"}),
    "default taken": ("default", "POST", {"slug": "existing"}),
    "default other day": ("default", "POST", {"slug": "second"}),
    "default given": ("default", "POST", {"slug": "existing", "published": "2000-01-03"}),
    "default update": ("default", "PUT", {"slug": "second"}),
    "null given": ("null", "POST", {"slug": "existing", "published": "2017-05-05"}),
    "null other": ("null", "POST", {"slug": "new", "published": "2017-05-05"}),
    "null without date": ("null", "POST", {"slug": "existing"}),
    "null null date": ("null", "POST", {"slug": "existing", "published": None}),
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
        for cls in {s.Meta.model for s in SERIALIZERS.values()}:
            editor.create_model(cls)
    for name, rows in ROWS.items():
        model = SERIALIZERS[name].Meta.model
        if model.objects.exists():
            continue
        for slug, published in rows:
            obj = model.objects.create(slug=slug, published=published) if published or name == "null" else model.objects.create(slug=slug)
            assert obj.pk
    out = {
        "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
        "today": timezone.now().date().isoformat(),
        "items": {k: answer(v) for k, v in STEPS.items()},
    }
    print(json.dumps(out, indent=1, sort_keys=True))


main()
