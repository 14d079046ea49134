"""DRF's answers for a writable dotted source: RelatedModelSerializer of
DRF 3.18's tests/test_validators.py, whose username =
CharField(source='user.username', validators=[UniqueValidator(
queryset=UniquenessModel.objects.all(), lookup='iexact')]).

Run with Debian's Django 3.2 / DRF 3.14, and with the DRF 3.18 / Django 5.2
of conformance/reference/drf318 (scripts/install-references lays it out):

    /usr/bin/python3 framework/serializers/testdata/drf_dotted_source.py
    PYTHONPATH=conformance/reference/drf318 /usr/bin/python3 framework/serializers/testdata/drf_dotted_source.py

It prints, as JSON, the versions and these items:
- each step of STEPS (a create, or a full or a partial update of the
  first RelatedModel row): the step and the errors, none when valid;
- "refused create" and "refused update": the AssertionError that
  ModelSerializer's default create() and update() raise on saving a
  valid item through the serializer;
- "explicit create": the serializer with an explicit create() (the user
  row made first): the representation after save() (a view's 201 body)
  and the rows written;
- "options": SimpleMetadata's description of the serializer's fields (a
  view's OPTIONS "actions" "POST").
dotted_source_drf_test.go does the same and compares.
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
from rest_framework.metadata import SimpleMetadata  # noqa: E402
from rest_framework.validators import UniqueValidator  # noqa: E402


class UniquenessModel(models.Model):
    username = models.CharField(unique=True, max_length=100)

    class Meta:
        app_label = "tests"


class RelatedModel(models.Model):
    user = models.OneToOneField(UniquenessModel, on_delete=models.CASCADE)
    email = models.CharField(unique=True, max_length=80)

    class Meta:
        app_label = "tests"


class RelatedModelSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source='user.username',
                                     validators=[UniqueValidator(queryset=UniquenessModel.objects.all(), lookup='iexact')])

    class Meta:
        model = RelatedModel
        fields = ('username', 'email')


class ExplicitCreateSerializer(RelatedModelSerializer):
    """The explicit create() DRF's assertion asks for: the user row, then
    the related one."""

    def create(self, validated_data):
        user = UniquenessModel.objects.create(**validated_data.pop('user'))
        return RelatedModel.objects.create(user=user, **validated_data)


# The rows: users "existing" (pk 1) and "second" (pk 2), and "second"'s
# RelatedModel (pk 1): an update leaves the user keyed as the RelatedModel
# out (DRF's exclude(pk=instance.pk)), which is "existing".
ROWS = [("existing", None), ("second", "second@example.com")]

# name: (method, data); POST creates, PUT and PATCH update the first
# RelatedModel row.
STEPS = {
    "taken in another case": ("POST", {"username": "Existing", "email": "new-email@example.com"}),
    "new": ("POST", {"username": "new-username", "email": "new-email@example.com"}),
    "missing": ("POST", {"email": "new-email@example.com"}),
    "null": ("POST", {"username": None, "email": "new-email@example.com"}),
    "blank": ("POST", {"username": "", "email": "new-email@example.com"}),
    "not a string": ("POST", {"username": ["x"], "email": "new-email@example.com"}),
    "update to its own": ("PUT", {"username": "SECOND", "email": "second@example.com"}),
    "update to the user keyed as it": ("PUT", {"username": "Existing", "email": "second@example.com"}),
    "update to new": ("PUT", {"username": "third", "email": "second@example.com"}),
    "partial without it": ("PATCH", {"email": "other@example.com"}),
}


def answer(step):
    method, data = step
    if method == "POST":
        s = RelatedModelSerializer(data=data)
    else:
        s = RelatedModelSerializer(RelatedModel.objects.order_by("pk").first(), data=data, partial=method == "PATCH")
    out = {"step": step}
    if not s.is_valid():
        out["errors"] = s.errors
    return out


def refused(method):
    if method == "create":
        s = RelatedModelSerializer(data={"username": "third", "email": "third@example.com"})
    else:
        s = RelatedModelSerializer(RelatedModel.objects.order_by("pk").first(),
                                   data={"username": "renamed", "email": "second@example.com"})
    assert s.is_valid(), s.errors
    try:
        s.save()
    except AssertionError as e:
        return {"assertion": str(e)}
    return {"saved": s.data}


def explicit_create():
    s = ExplicitCreateSerializer(data={"username": "new-username", "email": "new-email@example.com"})
    assert s.is_valid(), s.errors
    s.save()
    rows = [[r.user.username, r.email] for r in RelatedModel.objects.order_by("pk")]
    return {"data": s.data, "rows": rows}


def main():
    with connection.schema_editor() as editor:
        editor.create_model(UniquenessModel)
        editor.create_model(RelatedModel)
    for username, email in ROWS:
        user = UniquenessModel.objects.create(username=username)
        if email:
            RelatedModel.objects.create(user=user, email=email)
    items = {k: answer(v) for k, v in STEPS.items()}
    items["refused create"] = refused("create")
    items["refused update"] = refused("update")
    items["options"] = SimpleMetadata().get_serializer_info(RelatedModelSerializer())
    items["explicit create"] = explicit_create()
    out = {
        "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
        "items": items,
    }
    print(json.dumps(out, indent=1, sort_keys=True))


main()
