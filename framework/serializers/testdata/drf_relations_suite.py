"""DRF's answers to the items of DRF 3.18's tests/test_relations_pk.py,
test_relations_slug.py, test_relations_hyperlink.py and test_relations.py
that drftests_relations_test.go ports (the Go test runs this script).

Run with Debian's Django 3.2 / DRF 3.14, and with the DRF 3.18 / Django 5.2
of conformance/reference/drf318 (scripts/install-references lays it out):

    /usr/bin/python3 framework/serializers/testdata/drf_relations_suite.py
    PYTHONPATH=conformance/reference/drf318 /usr/bin/python3 framework/serializers/testdata/drf_relations_suite.py

The models are those of DRF's tests/models.py, the serializers those of
the test files. Each item is a test method: its setUp's rows (FIXTURES),
then its steps, each a serializer (SERIALIZERS) and what the method does
with it: render the rows, ordered by pk ("list"), validate and save new
data ("create") or an item's ("update"), validate only ("validate"),
render one item ("data"), an unbound serializer ("blank"), or list a
relational field's choices ("choices"). It prints, as JSON by
"file:Class.method", the steps with what each observed: valid or not,
the errors, and the saved item's representation.
"""
import json
import os
import sys
import types
import uuid

import django
from django.conf import settings

tests = types.ModuleType("tests")
tests.__path__ = [os.path.dirname(os.path.abspath(__file__))]
sys.modules["tests"] = tests

settings.configure(
    ROOT_URLCONF="tests.urls",
    ALLOWED_HOSTS=["testserver"],
    DEBUG=True,
    SECRET_KEY="x",
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework", "tests"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    USE_TZ=True,
)
django.setup()

import rest_framework  # noqa: E402
from django.db import connection, models  # noqa: E402
from django.test import override_settings  # noqa: E402
from django.urls import path, re_path  # noqa: E402
from rest_framework import serializers  # noqa: E402
from rest_framework.request import Request  # noqa: E402
from rest_framework.test import APIRequestFactory  # noqa: E402
from rest_framework.urlpatterns import format_suffix_patterns  # noqa: E402


class Base(models.Model):
    class Meta:
        app_label = "tests"
        abstract = True


class ManyToManyTarget(Base):
    name = models.CharField(max_length=100)


class ManyToManySource(Base):
    name = models.CharField(max_length=100)
    targets = models.ManyToManyField(ManyToManyTarget, related_name="sources")


class ForeignKeyTarget(Base):
    name = models.CharField(max_length=100)


class ForeignKeySource(Base):
    name = models.CharField(max_length=100)
    target = models.ForeignKey(ForeignKeyTarget, related_name="sources", help_text="Target",
                               verbose_name="Target", on_delete=models.CASCADE)


class ForeignKeySourceWithLimitedChoices(Base):
    target = models.ForeignKey(ForeignKeyTarget, help_text="Target", verbose_name="Target",
                               limit_choices_to={"name__startswith": "limited-"}, on_delete=models.CASCADE)


class ForeignKeySourceWithQLimitedChoices(Base):
    target = models.ForeignKey(ForeignKeyTarget, help_text="Target", verbose_name="Target",
                               limit_choices_to=models.Q(name__startswith="limited-"), on_delete=models.CASCADE)


class NullableForeignKeySource(Base):
    name = models.CharField(max_length=100)
    target = models.ForeignKey(ForeignKeyTarget, null=True, blank=True, related_name="nullable_sources",
                               verbose_name="Optional target object", on_delete=models.CASCADE)


class OneToOneTarget(Base):
    name = models.CharField(max_length=100)


class NullableOneToOneSource(Base):
    name = models.CharField(max_length=100)
    target = models.OneToOneField(OneToOneTarget, null=True, blank=True, related_name="nullable_source",
                                  on_delete=models.CASCADE)


class OneToOnePKSource(Base):
    name = models.CharField(max_length=100)
    target = models.OneToOneField(OneToOneTarget, primary_key=True, related_name="required_source",
                                  on_delete=models.CASCADE)


# test_relations.py's MockObject and a model whose fields relate to it.
class RelObject(Base):
    name = models.CharField(max_length=100)


class RelHolder(Base):
    field = models.ForeignKey(RelObject, on_delete=models.CASCADE, related_name="+")
    many = models.ManyToManyField(RelObject, related_name="+")


# TestProxiedPrimaryKeyRelatedField's rows, keyed by UUIDs.
class RelUUIDObject(Base):
    id = models.UUIDField(primary_key=True)
    name = models.CharField(max_length=100)


class RelUUIDHolder(Base):
    field = models.ForeignKey(RelUUIDObject, on_delete=models.CASCADE, related_name="+")


# TestNestedSlugRelatedField's MockObject rows: each object's nested, and
# its nested, are rows of the next model (null=True for the edges of a null
# link), and a model whose field relates to the objects.
class RelNestedLeaf(Base):
    name = models.CharField(max_length=100)


class RelNestedMid(Base):
    name = models.CharField(max_length=100)
    nested = models.ForeignKey(RelNestedLeaf, null=True, on_delete=models.CASCADE, related_name="+")


class RelNestedObject(Base):
    name = models.CharField(max_length=100)
    nested = models.ForeignKey(RelNestedMid, null=True, on_delete=models.CASCADE, related_name="+")


class RelNestedHolder(Base):
    field = models.ForeignKey(RelNestedObject, on_delete=models.CASCADE, related_name="+")


MODELS = [ManyToManyTarget, ManyToManySource, ForeignKeyTarget, ForeignKeySource, ForeignKeySourceWithLimitedChoices,
          ForeignKeySourceWithQLimitedChoices, NullableForeignKeySource,
          OneToOneTarget, NullableOneToOneSource, OneToOnePKSource, RelObject, RelHolder, RelUUIDObject, RelUUIDHolder,
          RelNestedLeaf, RelNestedMid, RelNestedObject, RelNestedHolder]


def dummy_view(request, pk):
    raise NotImplementedError


urls = types.ModuleType("tests.urls")
urls.urlpatterns = [
    path(name + "/<int:pk>/", dummy_view, name=name + "-detail")
    for name in ("manytomanysource", "manytomanytarget", "foreignkeysource", "foreignkeytarget",
                 "nullableforeignkeysource", "onetoonetarget", "nullableonetoonesource")
] + format_suffix_patterns([
    # A router's pattern, whose format suffix reverses without a final
    # slash (TestHyperlinkedIdentityField's format).
    re_path(r"^relobject/(?P<pk>[^/.]+)/$", dummy_view, name="relobject-detail"),
]) + [
    # test_relations.py's route of a lookup_field.
    path("example/<path:name>/", lambda request, name: None, name="example"),
]
sys.modules["tests.urls"] = urls


def model_serializer(model, names, base=serializers.ModelSerializer, **declared):
    meta = type("Meta", (), {"model": model, "fields": names, **declared.pop("meta", {})})
    return type(model.__name__ + "Serializer", (base,), {"Meta": meta, **declared})


Link = serializers.HyperlinkedModelSerializer
SERIALIZERS = {
    # test_relations_pk.py
    "pk_m2m_source": model_serializer(ManyToManySource, ("id", "name", "targets")),
    "pk_m2m_target": model_serializer(ManyToManyTarget, ("id", "name", "sources")),
    "pk_fk_target": model_serializer(ForeignKeyTarget, ("id", "name", "sources")),
    "pk_fk_source": model_serializer(ForeignKeySource, ("id", "name", "target")),
    "pk_fk_source_not_required": model_serializer(ForeignKeySource, ("id", "name", "target"),
                                                  meta={"extra_kwargs": {"target": {"required": False}}}),
    "pk_nullfk_source": model_serializer(NullableForeignKeySource, ("id", "name", "target")),
    "pk_fk_source_limited": model_serializer(ForeignKeySourceWithLimitedChoices, ("id", "target")),
    "pk_fk_source_q_limited": model_serializer(ForeignKeySourceWithQLimitedChoices, ("id", "target")),
    "pk_o2o_target": model_serializer(OneToOneTarget, ("id", "name", "nullable_source")),
    # The reverse writes' edges (relations_reverse_drf_test.go).
    "pk_nullfk_target": model_serializer(ForeignKeyTarget, ("id", "name", "nullable_sources")),
    "pk_fk_target_read_only": model_serializer(ForeignKeyTarget, ("id", "name", "sources"),
                                               meta={"extra_kwargs": {"sources": {"read_only": True}}}),
    "pk_o2o_pk_source": model_serializer(OneToOnePKSource, "__all__"),
    # test_relations_slug.py
    "slug_fk_target": model_serializer(ForeignKeyTarget, "__all__", sources=serializers.SlugRelatedField(
        slug_field="name", queryset=ForeignKeySource.objects.all(), many=True)),
    "slug_nullfk_target": model_serializer(ForeignKeyTarget, ("id", "name", "nullable_sources"),
                                           nullable_sources=serializers.SlugRelatedField(
        slug_field="name", queryset=NullableForeignKeySource.objects.all(), many=True)),
    "slug_fk_source": model_serializer(ForeignKeySource, "__all__", target=serializers.SlugRelatedField(
        slug_field="name", queryset=ForeignKeyTarget.objects.all())),
    "slug_nullfk_source": model_serializer(NullableForeignKeySource, "__all__", target=serializers.SlugRelatedField(
        slug_field="name", queryset=ForeignKeyTarget.objects.all(), allow_null=True)),
    # test_relations_hyperlink.py
    "link_m2m_target": model_serializer(ManyToManyTarget, ("url", "name", "sources"), Link),
    "link_m2m_source": model_serializer(ManyToManySource, ("url", "name", "targets"), Link),
    "link_fk_target": model_serializer(ForeignKeyTarget, ("url", "name", "sources"), Link),
    "link_fk_source": model_serializer(ForeignKeySource, ("url", "name", "target"), Link),
    "link_nullfk_source": model_serializer(NullableForeignKeySource, ("url", "name", "target"), Link),
    "link_o2o_target": model_serializer(OneToOneTarget, ("url", "name", "nullable_source"), Link),
    # test_relations.py's fields, each as a serializer's "field".
    "rel_pk": model_serializer(RelHolder, ("id", "field")),
    "rel_pk_many": model_serializer(RelHolder, ("id", "many")),
    "rel_slug": model_serializer(RelHolder, ("id", "field"), field=serializers.SlugRelatedField(
        slug_field="name", queryset=RelObject.objects.all())),
    "rel_link": model_serializer(RelHolder, ("id", "field"), field=serializers.HyperlinkedRelatedField(
        view_name="relobject-detail", queryset=RelObject.objects.all())),
    "rel_identity": model_serializer(RelObject, ("url", "name"), Link),
    "rel_identity_json": model_serializer(RelObject, ("url", "name"), Link, url=serializers.HyperlinkedIdentityField(
        view_name="relobject-detail", format="json")),
    # TestProxiedPrimaryKeyRelatedField's pk_field.
    "rel_pk_uuid": model_serializer(RelUUIDHolder, ("id", "field"), field=serializers.PrimaryKeyRelatedField(
        queryset=RelUUIDObject.objects.all(), pk_field=serializers.UUIDField(format="int"))),
    # The other formats of a pk_field (relation_options_drf_test.go).
    **{"rel_pk_uuid_" + f: model_serializer(RelUUIDHolder, ("id", "field"), field=serializers.PrimaryKeyRelatedField(
        queryset=RelUUIDObject.objects.all(), pk_field=serializers.UUIDField(format=f)))
       for f in ("hex_verbose", "hex", "urn")},
    # TestRelatedFieldHTMLCutoff's html_cutoff=100.
    "rel_pk_cutoff": model_serializer(RelHolder, ("id", "field"), field=serializers.PrimaryKeyRelatedField(
        queryset=RelObject.objects.all(), html_cutoff=100)),
    "rel_pk_many_cutoff": model_serializer(RelHolder, ("id", "many"), many=serializers.PrimaryKeyRelatedField(
        queryset=RelObject.objects.all(), many=True, html_cutoff=100)),
    # TestNestedSlugRelatedField's slug_field through relations (DRF
    # 3.15's nested lookups), and its holder's key.
    **{"rel_slug_" + slug: model_serializer(RelNestedHolder, ("id", "field"), field=serializers.SlugRelatedField(
        slug_field=slug, queryset=RelNestedObject.objects.all()))
       for slug in ("nested__name", "nested__nested__name", "nested__nested__id")},
    "rel_pk_nested": model_serializer(RelNestedHolder, ("id", "field")),
    # TestHyperlinkedRelatedField's lookup_field.
    "rel_link_lookup": model_serializer(RelHolder, ("id", "field"), field=serializers.HyperlinkedRelatedField(
        view_name="example", lookup_field="name", lookup_url_kwarg="name", queryset=RelObject.objects.all())),
}


def m2m_rows():
    for idx in range(1, 4):
        ManyToManyTarget.objects.create(name="target-%d" % idx)
        source = ManyToManySource.objects.create(name="source-%d" % idx)
        for target in ManyToManyTarget.objects.all():
            source.targets.add(target)


def fk_rows():
    target = ForeignKeyTarget.objects.create(name="target-1")
    ForeignKeyTarget.objects.create(name="target-2")
    for idx in range(1, 4):
        ForeignKeySource.objects.create(name="source-%d" % idx, target=target)


def nullfk_rows():
    target = ForeignKeyTarget.objects.create(name="target-1")
    for idx in range(1, 4):
        NullableForeignKeySource.objects.create(name="source-%d" % idx, target=target if idx < 3 else None)


def o2o_rows(linked):
    def rows():
        targets = [OneToOneTarget.objects.create(name="target-1"), OneToOneTarget.objects.create(name="target-2")]
        if linked is not None:
            NullableOneToOneSource.objects.create(name="source-1", target=targets[linked])
    return rows


def rel_rows(n, names=("foo", "bar", "baz")):
    def rows():
        for i in range(n):
            RelObject.objects.create(name=names[i] if i < len(names) else str(i))
    return rows


def nested_rows(edges):
    """TestNestedSlugRelatedField's objects foo (bar, foobar), hello
    (world, helloworld) and harry (potter, harrypotter); with edges, dup1
    (dup, foobar again), mid-null (nolink, none) and null (none)."""
    def rows():
        for names in (("foo", "bar", "foobar"), ("hello", "world", "helloworld"), ("harry", "potter", "harrypotter")):
            leaf = RelNestedLeaf.objects.create(name=names[2])
            mid = RelNestedMid.objects.create(name=names[1], nested=leaf)
            RelNestedObject.objects.create(name=names[0], nested=mid)
        if edges:
            dup = RelNestedMid.objects.create(name="dup", nested=RelNestedLeaf.objects.get(pk=1))
            RelNestedObject.objects.create(name="dup1", nested=dup)
            nolink = RelNestedMid.objects.create(name="nolink", nested=None)
            RelNestedObject.objects.create(name="mid-null", nested=nolink)
            RelNestedObject.objects.create(name="null", nested=None)
    return rows


FIXTURES = {
    "m2m": m2m_rows, "fk": fk_rows, "nullfk": nullfk_rows,
    "o2o_second": o2o_rows(1), "o2o_first": o2o_rows(0), "o2o_none": o2o_rows(None),
    "rel": rel_rows(3), "rel1100": rel_rows(1100),
    "rel_lookup": rel_rows(3, ("foobar", "bazABCqux", "bazABC qux")),
    "rel_nested": nested_rows(False), "rel_nested_edges": nested_rows(True),
    "rel_uuid": lambda: [RelUUIDObject.objects.create(id=uuid.UUID(int=i), name=name)
                         for i, name in enumerate(("foo", "bar", "baz"))],
}


def lst(ser):
    return {"op": "list", "ser": ser}


def create(ser, data):
    return {"op": "create", "ser": ser, "data": data}


def update(ser, pk, data):
    return {"op": "update", "ser": ser, "pk": pk, "data": data}


def write(ser, data):
    """A create whose saved item is not rendered: valid or not, and the
    errors."""
    return {"op": "write", "ser": ser, "data": data}


def validate(ser, data):
    return {"op": "validate", "ser": ser, "data": data}


def data_of(ser, pk):
    return {"op": "data", "ser": ser, "pk": pk}


def write_list(ser, data, pk=None, before=False):
    """A create (or an update of pk), then the list; before: the list
    between validating and saving too."""
    out = [update(ser, pk, data) if pk else create(ser, data), lst(ser)]
    if before:
        out[0]["before"] = True
    return out


T = "http://testserver/"
ITEMS = {}


def item(name, fixture, *ops):
    ITEMS[name] = {"fixture": fixture, "steps": [o for op in ops for o in (op if isinstance(op, list) else [op])]}


def relation_files():
    pk, slug, hl = "test_relations_pk.py:", "test_relations_slug.py:", "test_relations_hyperlink.py:"
    # test_relations_pk.py
    c = pk + "PKManyToManyTests."
    item(c + "test_many_to_many_retrieve", "m2m", lst("pk_m2m_source"))
    item(c + "test_reverse_many_to_many_retrieve", "m2m", lst("pk_m2m_target"))
    item(c + "test_many_to_many_update", "m2m", write_list("pk_m2m_source", {"id": 1, "name": "source-1", "targets": [1, 2, 3]}, 1))
    item(c + "test_reverse_many_to_many_update", "m2m", write_list("pk_m2m_target", {"id": 1, "name": "target-1", "sources": [1]}, 1))
    item(c + "test_many_to_many_create", "m2m", write_list("pk_m2m_source", {"id": 4, "name": "source-4", "targets": [1, 3]}))
    item(c + "test_reverse_many_to_many_create", "m2m", write_list("pk_m2m_target", {"id": 4, "name": "target-4", "sources": [1, 3]}))
    c = pk + "PKForeignKeyTests."
    item(c + "test_foreign_key_retrieve", "fk", lst("pk_fk_source"))
    item(c + "test_reverse_foreign_key_retrieve", "fk", lst("pk_fk_target"))
    item(c + "test_foreign_key_update", "fk", write_list("pk_fk_source", {"id": 1, "name": "source-1", "target": 2}, 1))
    item(c + "test_foreign_key_update_incorrect_type", "fk", update("pk_fk_source", 1, {"id": 1, "name": "source-1", "target": "foo"}))
    item(c + "test_reverse_foreign_key_update", "fk", write_list("pk_fk_target", {"id": 2, "name": "target-2", "sources": [1, 3]}, 2, True))
    item(c + "test_foreign_key_create", "fk", write_list("pk_fk_source", {"id": 4, "name": "source-4", "target": 2}))
    item(c + "test_reverse_foreign_key_create", "fk", write_list("pk_fk_target", {"id": 3, "name": "target-3", "sources": [1, 3]}))
    item(c + "test_foreign_key_update_with_invalid_null", "fk", update("pk_fk_source", 1, {"id": 1, "name": "source-1", "target": None}))
    item(c + "test_foreign_key_with_empty", "fk", {"op": "blank", "ser": "pk_nullfk_source"})
    item(c + "test_foreign_key_not_required", "fk", validate("pk_fk_source_not_required", {"name": "test"}))
    item(c + "test_queryset_size_without_limited_choices", "fk", create("pk_fk_target", {"name": "limited-target", "sources": []}),
         {"op": "choices", "ser": "pk_fk_source", "field": "target"})
    # The limited target is the one row limit_choices_to leaves: the
    # length of the field's queryset is that of its choices.
    for method, ser in (("test_queryset_size_with_limited_choices", "pk_fk_source_limited"),
                        ("test_queryset_size_with_Q_limited_choices", "pk_fk_source_q_limited")):
        item(c + method, "fk", create("pk_fk_target", {"name": "limited-target", "sources": []}),
             {"op": "choices", "ser": ser, "field": "target"})
    c = pk + "PKNullableForeignKeyTests."
    item(c + "test_foreign_key_retrieve_with_null", "nullfk", lst("pk_nullfk_source"))
    item(c + "test_foreign_key_create_with_valid_null", "nullfk", write_list("pk_nullfk_source", {"id": 4, "name": "source-4", "target": None}))
    item(c + "test_foreign_key_create_with_valid_emptystring", "nullfk", write_list("pk_nullfk_source", {"id": 4, "name": "source-4", "target": ""}))
    item(c + "test_foreign_key_update_with_valid_null", "nullfk", write_list("pk_nullfk_source", {"id": 1, "name": "source-1", "target": None}, 1))
    item(c + "test_foreign_key_update_with_valid_emptystring", "nullfk", write_list("pk_nullfk_source", {"id": 1, "name": "source-1", "target": ""}, 1))
    # NullableUUIDForeignKeySource's target is a nullable foreign key
    # (to ForeignKeyTarget, whatever its name says).
    item(c + "test_null_uuid_foreign_key_serializes_as_none", "nullfk", {"op": "blank", "ser": "pk_nullfk_source"})
    item(c + "test_nullable_uuid_foreign_key_is_valid_when_none", "nullfk", validate("pk_nullfk_source", {"name": "Source", "target": None}))
    item(pk + "PKNullableOneToOneTests.test_reverse_foreign_key_retrieve_with_null", "o2o_second", lst("pk_o2o_target"))
    c = pk + "OneToOnePrimaryKeyTests."
    item(c + "test_one_to_one_when_primary_key", "o2o_none", create("pk_o2o_pk_source", {"name": "source-2", "target": 2}))
    item(c + "test_one_to_one_when_primary_key_no_duplicates", "o2o_none", create("pk_o2o_pk_source", {"name": "source-1", "target": 1}),
         create("pk_o2o_pk_source", {"name": "source-1", "target": 1}))
    item(c + "test_one_to_one_when_primary_key_does_not_exist", "o2o_none", create("pk_o2o_pk_source", {"name": "source-2", "target": 3}))

    # test_relations_slug.py
    c = slug + "SlugForeignKeyTests."
    item(c + "test_foreign_key_retrieve", "fk", lst("slug_fk_source"))
    item(c + "test_reverse_foreign_key_retrieve", "fk", lst("slug_fk_target"))
    item(c + "test_foreign_key_update", "fk", write_list("slug_fk_source", {"id": 1, "name": "source-1", "target": "target-2"}, 1))
    item(c + "test_foreign_key_update_incorrect_type", "fk", update("slug_fk_source", 1, {"id": 1, "name": "source-1", "target": 123}))
    item(c + "test_reverse_foreign_key_update", "fk", write_list("slug_fk_target", {"id": 2, "name": "target-2", "sources": ["source-1", "source-3"]}, 2, True))
    item(c + "test_foreign_key_create", "fk", write_list("slug_fk_source", {"id": 4, "name": "source-4", "target": "target-2"}))
    item(c + "test_reverse_foreign_key_create", "fk", write_list("slug_fk_target", {"id": 3, "name": "target-3", "sources": ["source-1", "source-3"]}))
    item(c + "test_foreign_key_update_with_invalid_null", "fk", update("slug_fk_source", 1, {"id": 1, "name": "source-1", "target": None}))
    c = slug + "SlugNullableForeignKeyTests."
    item(c + "test_foreign_key_retrieve_with_null", "nullfk", lst("slug_nullfk_source"))
    item(c + "test_foreign_key_create_with_valid_null", "nullfk", write_list("slug_nullfk_source", {"id": 4, "name": "source-4", "target": None}))
    item(c + "test_foreign_key_create_with_valid_emptystring", "nullfk", write_list("slug_nullfk_source", {"id": 4, "name": "source-4", "target": ""}))
    item(c + "test_foreign_key_update_with_valid_null", "nullfk", write_list("slug_nullfk_source", {"id": 1, "name": "source-1", "target": None}, 1))
    item(c + "test_foreign_key_update_with_valid_emptystring", "nullfk", write_list("slug_nullfk_source", {"id": 1, "name": "source-1", "target": ""}, 1))

    # test_relations_hyperlink.py
    c = hl + "HyperlinkedManyToManyTests."
    ts, tt = T + "manytomanysource/", T + "manytomanytarget/"
    item(c + "test_many_to_many_retrieve", "m2m", lst("link_m2m_source"))
    item(c + "test_reverse_many_to_many_retrieve", "m2m", lst("link_m2m_target"))
    item(c + "test_many_to_many_update", "m2m", write_list("link_m2m_source", {
        "url": ts + "1/", "name": "source-1", "targets": [tt + "1/", tt + "2/", tt + "3/"]}, 1))
    item(c + "test_reverse_many_to_many_update", "m2m", write_list("link_m2m_target", {
        "url": tt + "1/", "name": "target-1", "sources": [ts + "1/"]}, 1))
    item(c + "test_many_to_many_create", "m2m", write_list("link_m2m_source", {
        "url": ts + "4/", "name": "source-4", "targets": [tt + "1/", tt + "3/"]}))
    item(c + "test_reverse_many_to_many_create", "m2m", write_list("link_m2m_target", {
        "url": tt + "4/", "name": "target-4", "sources": [ts + "1/", ts + "3/"]}))
    c = hl + "HyperlinkedForeignKeyTests."
    fs, ft = T + "foreignkeysource/", T + "foreignkeytarget/"
    item(c + "test_foreign_key_retrieve", "fk", lst("link_fk_source"))
    item(c + "test_reverse_foreign_key_retrieve", "fk", lst("link_fk_target"))
    item(c + "test_foreign_key_update", "fk", write_list("link_fk_source", {"url": fs + "1/", "name": "source-1", "target": ft + "2/"}, 1))
    item(c + "test_foreign_key_update_incorrect_type", "fk", update("link_fk_source", 1, {"url": fs + "1/", "name": "source-1", "target": 2}))
    item(c + "test_reverse_foreign_key_update", "fk", write_list("link_fk_target", {
        "url": ft + "2/", "name": "target-2", "sources": [fs + "1/", fs + "3/"]}, 2, True))
    item(c + "test_foreign_key_create", "fk", write_list("link_fk_source", {"url": fs + "4/", "name": "source-4", "target": ft + "2/"}))
    item(c + "test_reverse_foreign_key_create", "fk", write_list("link_fk_target", {
        "url": ft + "3/", "name": "target-3", "sources": [fs + "1/", fs + "3/"]}))
    item(c + "test_foreign_key_update_with_invalid_null", "fk", update("link_fk_source", 1, {"url": fs + "1/", "name": "source-1", "target": None}))
    c = hl + "HyperlinkedNullableForeignKeyTests."
    ns = T + "nullableforeignkeysource/"
    item(c + "test_foreign_key_retrieve_with_null", "nullfk", lst("link_nullfk_source"))
    item(c + "test_foreign_key_create_with_valid_null", "nullfk", write_list("link_nullfk_source", {"url": ns + "4/", "name": "source-4", "target": None}))
    item(c + "test_foreign_key_create_with_valid_emptystring", "nullfk", write_list("link_nullfk_source", {"url": ns + "4/", "name": "source-4", "target": ""}))
    item(c + "test_foreign_key_update_with_valid_null", "nullfk", write_list("link_nullfk_source", {"url": ns + "1/", "name": "source-1", "target": None}, 1))
    item(c + "test_foreign_key_update_with_valid_emptystring", "nullfk", write_list("link_nullfk_source", {"url": ns + "1/", "name": "source-1", "target": ""}, 1))
    item(hl + "HyperlinkedNullableOneToOneTests.test_reverse_foreign_key_retrieve_with_null", "o2o_first", lst("link_o2o_target"))

    # test_relations.py: the fields of a model's serializer over RelObject
    # rows 1, 2, 3 named foo, bar, baz.
    r = "test_relations.py:"
    item(r + "TestRelatedFieldHTMLCutoff.test_no_settings", "rel1100", {"op": "choices", "ser": "rel_pk", "field": "field"},
         {"op": "choices", "ser": "rel_pk_many", "field": "many"})
    c = r + "TestRelatedFieldHTMLCutoff."
    for method, settings, sers in (
            ("test_settings_cutoff", {"HTML_SELECT_CUTOFF": 2, "HTML_SELECT_CUTOFF_TEXT": "Cut Off"}, ("rel_pk", "rel_pk_many")),
            ("test_settings_cutoff_none", {"HTML_SELECT_CUTOFF": None, "HTML_SELECT_CUTOFF_TEXT": "Cut Off"}, ("rel_pk", "rel_pk_many")),
            ("test_settings_kwargs_cutoff", {"HTML_SELECT_CUTOFF": 2, "HTML_SELECT_CUTOFF_TEXT": "Cut Off"},
             ("rel_pk_cutoff", "rel_pk_many_cutoff"))):
        item(c + method, "rel1100", *({"op": "choices", "ser": ser, "field": "field" if "many" not in ser else "many",
                                      "settings": settings} for ser in sers))
    c = r + "TestPrimaryKeyRelatedField."
    item(c + "test_pk_related_lookup_exists", "rel", validate("rel_pk", {"field": 3}))
    item(c + "test_pk_related_lookup_does_not_exist", "rel", validate("rel_pk", {"field": 4}))
    item(c + "test_pk_related_lookup_bool", "rel", validate("rel_pk", {"field": True}))
    item(c + "test_pk_representation", "rel", create("rel_pk", {"field": 3}), data_of("rel_pk", 1))
    item(c + "test_explicit_many_false", "rel", validate("rel_pk", {"field": 3}))
    c = r + "TestHyperlinkedRelatedField."
    item(c + "test_hyperlinked_related_lookup_does_not_exist", "rel", validate("rel_link", {"field": "http://example.org/relobject/4/"}))
    item(c + "test_hyperlinked_related_queryset_value_error", "rel", validate("rel_link", {"field": "http://example.org/relobject/doesnotexist/"}))
    c = r + "TestProxiedPrimaryKeyRelatedField."
    item(c + "test_pk_related_lookup_exists", "rel_uuid", create("rel_pk_uuid", {"field": 2}))
    item(c + "test_pk_related_lookup_does_not_exist", "rel_uuid", validate("rel_pk_uuid", {"field": 4}))
    item(c + "test_pk_representation", "rel_uuid", create("rel_pk_uuid", {"field": 2}), data_of("rel_pk_uuid", 1))
    c = r + "TestHyperlinkedRelatedField."
    for method, name in (("test_hyperlinked_related_lookup_exists", "foobar"),
                         ("test_hyperlinked_related_lookup_url_encoded_exists", "baz%41%42%43qux"),
                         ("test_hyperlinked_related_lookup_url_space_encoded_exists", "bazABC%20qux")):
        item(c + method, "rel_lookup", create("rel_link_lookup", {"field": "http://example.org/example/" + name + "/"}))
    item(r + "TestHyperlinkedIdentityField.test_representation", "rel", data_of("rel_identity", 1))
    # The context's format is the request's format suffix.
    item(r + "TestHyperlinkedIdentityField.test_representation_with_format", "rel", dict(data_of("rel_identity", 1), format="xml"))
    c = r + "TestHyperlinkedIdentityFieldWithFormat."
    item(c + "test_representation", "rel", data_of("rel_identity_json", 1))
    item(c + "test_representation_with_format", "rel", dict(data_of("rel_identity_json", 1), format="xml"))
    for c in (r + "TestSlugRelatedField.", r + "TestNestedSlugRelatedField."):
        item(c + "test_slug_related_lookup_exists", "rel", validate("rel_slug", {"field": "baz"}))
        item(c + "test_slug_related_lookup_does_not_exist", "rel", validate("rel_slug", {"field": "doesnotexist"}))
        item(c + "test_representation", "rel", create("rel_slug", {"field": "baz"}), data_of("rel_slug", 1))
    # The instance found is the holder's field's key (harry is row 3);
    # BadType's TypeError is the ValueError of "x" for an integer column
    # through the relations, which DRF words as it.
    c = r + "TestNestedSlugRelatedField."
    for name, slug, value in (("nested_nested", "nested__nested__name", "harrypotter"), ("nested", "nested__name", "potter")):
        item(c + "test_slug_related_%s_lookup_exists" % name, "rel_nested", write("rel_slug_" + slug, {"field": value}),
             data_of("rel_pk_nested", 1))
        item(c + "test_slug_related_%s_lookup_does_not_exist" % name, "rel_nested",
             validate("rel_slug_" + slug, {"field": "doesnotexist"}))
        item(c + "test_%s_representation" % name, "rel_nested", write("rel_pk_nested", {"field": 3}),
             data_of("rel_slug_" + slug, 1))
    for name in ("nested_nested", "nested"):
        item(c + "test_slug_related_%s_lookup_invalid_type" % name, "rel_nested",
             validate("rel_slug_nested__nested__id", {"field": "x"}))


def nested_slugs():
    """The edges of a slug through relations that DRF's tests leave out,
    as "slug_nested:name" (relations_nested_slug_drf_test.go): a null link
    before the column, a slug two rows hold, one no row holds, and JSON
    values of other types."""
    c, nn = "slug_nested:", "rel_slug_nested__nested__name"
    for key in (4, 5, 6):
        item(c + "read_%d" % key, "rel_nested_edges", write("rel_pk_nested", {"field": key}), data_of(nn, 1),
             data_of("rel_slug_nested__name", 1))
    item(c + "two_rows", "rel_nested_edges", write(nn, {"field": "foobar"}), data_of("rel_pk_nested", 1))
    item(c + "missing", "rel_nested_edges", validate(nn, {"field": "nope"}), validate("rel_slug_nested__name", {"field": "harrypotter"}))
    for name, value in (("integer", 5), ("float", 1.5), ("true", True), ("list", [1]), ("dict", {"a": 1}),
                        ("null", None), ("blank", "")):
        item(c + "type_" + name, "rel_nested_edges", write(nn, {"field": value}))
    item(c + "absent", "rel_nested_edges", write(nn, {}))
    for name, value in (("found", 2), ("text", "2")):
        item(c + "id_" + name, "rel_nested_edges", write("rel_slug_nested__nested__id", {"field": value}),
             data_of("rel_pk_nested", 1))
    for name, value in (("none", 99), ("invalid", "x")):
        item(c + "id_" + name, "rel_nested_edges", write("rel_slug_nested__nested__id", {"field": value}))
    item(c + "choices", "rel_nested", {"op": "choices", "ser": nn, "field": "field"})


def reverse_writes():
    """The edges of a reverse foreign key's writes, which DRF's tests leave
    out, as "reverse:name" (relations_reverse_drf_test.go)."""
    c, fs, ft = "reverse:", T + "foreignkeysource/", T + "foreignkeytarget/"
    item(c + "invalid_pk", "fk", update("pk_fk_target", 2, {"id": 2, "name": "target-2", "sources": [1, 9]}), lst("pk_fk_source"))
    item(c + "invalid_pk_text", "fk", update("pk_fk_target", 2, {"id": 2, "name": "target-2", "sources": ["x"]}))
    item(c + "not_a_list", "fk", update("pk_fk_target", 2, {"id": 2, "name": "target-2", "sources": "1"}))
    item(c + "null", "fk", update("pk_fk_target", 2, {"id": 2, "name": "target-2", "sources": None}))
    item(c + "required", "fk", update("pk_fk_target", 2, {"id": 2, "name": "target-2"}),
         create("pk_fk_target", {"name": "target-3"}))
    item(c + "empty_keeps_rows", "fk", write_list("pk_fk_target", {"id": 1, "name": "target-1", "sources": []}, 1),
         lst("pk_fk_source"))
    item(c + "move_one", "fk", write_list("pk_fk_target", {"id": 2, "name": "target-2", "sources": [2]}, 2),
         lst("pk_fk_source"))
    item(c + "nullable_set", "nullfk", write_list("pk_nullfk_target", {"id": 1, "name": "target-1", "nullable_sources": [2, 3]}, 1),
         lst("pk_nullfk_source"))
    item(c + "nullable_clear", "nullfk", write_list("pk_nullfk_target", {"id": 1, "name": "target-1", "nullable_sources": []}, 1),
         lst("pk_nullfk_source"))
    item(c + "nullable_create", "nullfk", write_list("pk_nullfk_target", {"name": "target-2", "nullable_sources": [1, 3]}),
         lst("pk_nullfk_source"))
    item(c + "read_only", "fk", write_list("pk_fk_target_read_only", {"id": 2, "name": "target-2", "sources": [1]}, 2),
         lst("pk_fk_source"))
    item(c + "link_invalid", "fk", update("link_fk_target", 2, {"url": ft + "2/", "name": "target-2", "sources": [fs + "9/"]}))
    item(c + "link_wrong_route", "fk", update("link_fk_target", 2, {"url": ft + "2/", "name": "target-2", "sources": [ft + "1/"]}))


def reverse_relations():
    """The edges of the writes of a many-to-many's reverse side, of a
    reverse one-to-one and of slugs over a reverse relation, which DRF's
    tests leave out, as "m2m_reverse:name", "o2o_reverse:name" and
    "slug_reverse:name" (relations_reverse_drf_test.go)."""
    c, ts, tt = "m2m_reverse:", T + "manytomanysource/", T + "manytomanytarget/"
    item(c + "invalid_pk", "m2m", update("pk_m2m_target", 1, {"id": 1, "name": "target-1", "sources": [1, 9]}),
         lst("pk_m2m_source"))
    item(c + "invalid_pk_text", "m2m", update("pk_m2m_target", 1, {"id": 1, "name": "target-1", "sources": ["x"]}))
    item(c + "not_a_list", "m2m", update("pk_m2m_target", 1, {"id": 1, "name": "target-1", "sources": 1}))
    item(c + "null", "m2m", update("pk_m2m_target", 1, {"id": 1, "name": "target-1", "sources": None}))
    item(c + "required", "m2m", update("pk_m2m_target", 1, {"id": 1, "name": "target-1"}),
         create("pk_m2m_target", {"name": "target-4"}))
    item(c + "empty", "m2m", write_list("pk_m2m_target", {"id": 3, "name": "target-3", "sources": []}, 3),
         lst("pk_m2m_source"))
    item(c + "create", "m2m", write_list("pk_m2m_target", {"name": "target-4", "sources": [3, 1]}),
         lst("pk_m2m_source"))
    item(c + "link_invalid", "m2m", update("link_m2m_target", 1, {"url": tt + "1/", "name": "target-1", "sources": [ts + "9/"]}),
         lst("pk_m2m_source"))
    c, os_ = "o2o_reverse:", T + "nullableonetoonesource/"
    item(c + "required", "o2o_second", update("pk_o2o_target", 1, {"id": 1, "name": "target-1"}))
    item(c + "null", "o2o_second", update("pk_o2o_target", 1, {"id": 1, "name": "target-1", "nullable_source": None}))
    item(c + "invalid_pk", "o2o_second", update("pk_o2o_target", 1, {"id": 1, "name": "target-1", "nullable_source": 9}))
    item(c + "invalid_pk_text", "o2o_second", update("pk_o2o_target", 1, {"id": 1, "name": "target-1", "nullable_source": "x"}))
    item(c + "a_list", "o2o_second", update("pk_o2o_target", 1, {"id": 1, "name": "target-1", "nullable_source": [1]}))
    item(c + "set", "o2o_second", update("pk_o2o_target", 1, {"id": 1, "name": "target-1", "nullable_source": 1}))
    item(c + "link_invalid", "o2o_second", update("link_o2o_target", 1, {
        "url": T + "onetoonetarget/1/", "name": "target-1", "nullable_source": os_ + "9/"}))
    item(c + "link_set", "o2o_second", update("link_o2o_target", 1, {
        "url": T + "onetoonetarget/1/", "name": "target-1", "nullable_source": os_ + "1/"}))
    c = "slug_reverse:"
    item(c + "missing", "fk", update("slug_fk_target", 2, {"id": 2, "name": "target-2", "sources": ["source-1", "nope"]}),
         lst("pk_fk_source"))
    item(c + "not_a_list", "fk", update("slug_fk_target", 2, {"id": 2, "name": "target-2", "sources": "source-1"}))
    item(c + "required", "fk", update("slug_fk_target", 2, {"id": 2, "name": "target-2"}))
    item(c + "empty_keeps_rows", "fk", write_list("slug_fk_target", {"id": 1, "name": "target-1", "sources": []}, 1),
         lst("pk_fk_source"))
    item(c + "nullable_set", "nullfk", write_list("slug_nullfk_target", {"id": 1, "name": "target-1", "nullable_sources": ["source-3"]}, 1),
         lst("pk_nullfk_source"))
    item(c + "nullable_create", "nullfk", write_list("slug_nullfk_target", {"name": "target-2", "nullable_sources": ["source-1"]}),
         lst("pk_nullfk_source"))


def limit_choices_to():
    """A key outside limit_choices_to, and one inside it, as "limit:name"
    (TestLimitChoicesToAsDRF)."""
    c, target = "limit:", create("pk_fk_target", {"name": "limited-target", "sources": []})
    for ser in ("pk_fk_source_limited", "pk_fk_source_q_limited"):
        item(c + ser + "_outside", "fk", target, create(ser, {"target": 1}), create(ser, {"target": "2"}))
        item(c + ser + "_inside", "fk", target, write_list(ser, {"target": 3}))


def relation_options():
    """The edges of the relational fields' options that DRF's tests leave
    out, as "relopts:name" (relation_options_drf_test.go)."""
    c, ex = "relopts:", "http://example.org/"
    for f, key in (("hex_verbose", "00000000000000000000000000000001"), ("hex", "{00000000-0000-0000-0000-000000000002}"),
                   ("urn", "urn:uuid:00000000-0000-0000-0000-000000000000")):
        item(c + "uuid_" + f, "rel_uuid", write_list("rel_pk_uuid_" + f, {"field": key}),
             update("rel_pk_uuid_" + f, 1, {"field": True}), data_of("rel_pk_uuid_" + f, 1))
    for name, value in (("text", "nope"), ("float", 1.5), ("negative", -1), ("beyond", 2 ** 128), ("short", "0" * 31),
                        ("list", [1]), ("null", None), ("blank", ""), ("missing", "0" * 31 + "9")):
        item(c + "uuid_invalid_" + name, "rel_uuid", create("rel_pk_uuid", {"field": value}))
    item(c + "uuid_absent", "rel_uuid", create("rel_pk_uuid", {}))
    for name, value in (("wrong_route", ex + "relobject/1/"), ("no_match", ex + "nope/"), ("integer", 5),
                        ("missing", ex + "example/nope/"), ("null", None), ("path", "/example/bazABC qux/")):
        item(c + "lookup_" + name, "rel_lookup", create("rel_link_lookup", {"field": value}))
    item(c + "lookup_update", "rel_lookup", create("rel_link_lookup", {"field": ex + "example/foobar/"}),
         write_list("rel_link_lookup", {"field": ex + "example/bazABCqux/"}, 1))


def context():
    return {"request": Request(APIRequestFactory().get("/"))}


def run(step):
    cls = SERIALIZERS[step["ser"]]
    model = cls.Meta.model
    op = step["op"]
    if op == "list":
        return {"data": cls(model.objects.order_by("pk"), many=True, context=context()).data}
    if op == "data":
        ctx = dict(context(), **({"format": step["format"]} if "format" in step else {}))
        return {"data": cls(model.objects.get(pk=step["pk"]), context=ctx).data}
    if op == "write":
        s = cls(data=step["data"], context=context())
        if not s.is_valid():
            return {"valid": False, "errors": s.errors}
        s.save()
        return {"valid": True}
    if op == "blank":
        return {"data": cls(context=context()).data}
    if op == "choices":
        # The settings, as DRF's tests monkeypatch them (a field reads
        # them as it is made).
        with override_settings(REST_FRAMEWORK=step.get("settings", {})):
            options = list(cls(context=context()).fields[step["field"]].iter_options())
        cut = options and options[-1].disabled
        return {"count": len(options), "last": str(options[-1].display_text) if cut else None}
    instance = model.objects.get(pk=step["pk"]) if op == "update" else None
    s = cls(instance, data=step["data"], context=context())
    out = {"valid": s.is_valid()}
    if not out["valid"]:
        out["errors"] = s.errors
        return out
    if op == "validate":
        out["validated"] = sorted(s.validated_data)
        return out
    if step.get("before"):
        out["before"] = cls(model.objects.order_by("pk"), many=True, context=context()).data
    s.save()
    out["data"] = s.data
    return out


def main():
    relation_files()
    reverse_writes()
    relation_options()
    reverse_relations()
    limit_choices_to()
    nested_slugs()
    answers = {}
    for name, it in ITEMS.items():
        with connection.schema_editor() as editor:
            for model in reversed(MODELS):
                if model._meta.db_table in connection.introspection.table_names():
                    editor.delete_model(model)
            for model in MODELS:
                editor.create_model(model)
        FIXTURES[it["fixture"]]()
        observed = []
        for step in it["steps"]:
            try:
                want = run(step)
            except Exception as e:  # DRF's 500, as its test client raises it
                want = {"raises": type(e).__name__}
            observed.append(dict(step, want=json.loads(json.dumps(want))))
        answers[name] = {"fixture": it["fixture"], "steps": observed}
    json.dump({"versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
               "items": answers}, sys.stdout, indent=1)
    print()


main()
