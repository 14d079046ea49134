"""DRF's answers to the items of DRF 3.18's tests/test_model_serializer.py
that drftests_model_serializer_test.go ports (the Go test runs this script).

Run with Debian's Django 3.2 / DRF 3.14, and with the DRF 3.18 / Django 5.2
of conformance/reference/drf318 (scripts/install-references lays it out):

    /usr/bin/python3 framework/serializers/testdata/drf_model_serializer_suite.py
    PYTHONPATH=conformance/reference/drf318 /usr/bin/python3 framework/serializers/testdata/drf_model_serializer_suite.py

Each item is DRF's test method, its models and serializers as DRF's test
writes them. Where the test asserts the repr() of the derived fields,
the item prints what those fields show a client instead: the OPTIONS
"actions" of the serializer (SimpleMetadata) and, where the test
validates, whether the data is valid and the errors. Other items print
what the test asserts on: the representation, the rows saved, the
setup error's message. It prints them as JSON by "Class.method".
"""
import datetime
import decimal
import json
import sys
import tempfile
import types

import django
from django.conf import settings

# The models' app, "tests" as in DRF's suite: an installed app, so that
# the reverse relations (related_name) are found.
sys.modules["tests"] = types.ModuleType("tests")
sys.modules["tests"].__file__ = __file__

settings.configure(
    DEBUG=True,
    SECRET_KEY="x",
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework", "tests"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    USE_TZ=True,
)
django.setup()

import rest_framework  # noqa: E402
from django.core.exceptions import ImproperlyConfigured  # noqa: E402
from django.core.serializers.json import DjangoJSONEncoder  # noqa: E402
from django.core.validators import (  # noqa: E402
    MaxLengthValidator, MaxValueValidator, MinLengthValidator, MinValueValidator
)
from django.contrib.postgres import fields as postgres_fields  # noqa: E402
from django.db import connection, models  # noqa: E402
from rest_framework import serializers  # noqa: E402
from rest_framework.metadata import SimpleMetadata  # noqa: E402
from rest_framework.utils.encoders import JSONEncoder  # noqa: E402


def plain(value):
    """value as JSON would hold it (DRF's JSONEncoder)."""
    return json.loads(json.dumps(value, cls=JSONEncoder))


def info(serializer):
    """The serializer's OPTIONS "actions" fields."""
    return plain(SimpleMetadata().get_serializer_info(serializer))


def outcome(serializer):
    valid = serializer.is_valid()
    return {"valid": valid, "errors": plain(serializer.errors)}


def setup_error(serializer_class):
    """The message of the error the serializer's fields raise."""
    try:
        serializer_class().fields
    except (AssertionError, ImproperlyConfigured) as e:
        return str(e)
    return None


def serializer(model_class, base=serializers.ModelSerializer, name="TestSerializer", declared=None, **meta_options):
    """A ModelSerializer of model_class; meta_options are its Meta's."""
    options = dict(model=model_class)
    options.update(meta_options)
    attrs = dict(declared or {}, __module__="tests.test_model_serializer")
    attrs["Meta"] = type("Meta", (), options)
    return type(name, (base,), attrs)


class CustomField(models.Field):
    pass


class OneFieldModel(models.Model):
    char_field = models.CharField(max_length=100)

    class Meta:
        app_label = "tests"


class RegularFieldsModel(models.Model):
    auto_field = models.AutoField(primary_key=True)
    big_integer_field = models.BigIntegerField()
    boolean_field = models.BooleanField(default=False)
    char_field = models.CharField(max_length=100)
    comma_separated_integer_field = models.CommaSeparatedIntegerField(max_length=100)
    date_field = models.DateField()
    datetime_field = models.DateTimeField()
    decimal_field = models.DecimalField(max_digits=3, decimal_places=1)
    email_field = models.EmailField(max_length=100)
    float_field = models.FloatField()
    integer_field = models.IntegerField()
    null_boolean_field = models.BooleanField(null=True, default=False)
    positive_integer_field = models.PositiveIntegerField()
    positive_small_integer_field = models.PositiveSmallIntegerField()
    slug_field = models.SlugField(max_length=100)
    small_integer_field = models.SmallIntegerField()
    text_field = models.TextField(max_length=100)
    file_field = models.FileField(max_length=100)
    time_field = models.TimeField()
    url_field = models.URLField(max_length=100)
    custom_field = CustomField()
    file_path_field = models.FilePathField(path=tempfile.gettempdir())

    class Meta:
        app_label = "tests"

    def method(self):
        return 'method'


COLOR_CHOICES = (('red', 'Red'), ('blue', 'Blue'), ('green', 'Green'))
DECIMAL_CHOICES = (('low', decimal.Decimal('0.1')), ('medium', decimal.Decimal('0.5')), ('high', decimal.Decimal('0.9')))


class FieldOptionsModel(models.Model):
    value_limit_field = models.IntegerField(validators=[MinValueValidator(1), MaxValueValidator(10)])
    length_limit_field = models.CharField(validators=[MinLengthValidator(3)], max_length=12)
    blank_field = models.CharField(blank=True, max_length=10)
    null_field = models.IntegerField(null=True)
    default_field = models.IntegerField(default=0)
    descriptive_field = models.IntegerField(help_text='Some help text', verbose_name='A label')
    choices_field = models.CharField(max_length=100, choices=COLOR_CHOICES)
    text_choices_field = models.TextField(choices=COLOR_CHOICES)

    class Meta:
        app_label = "tests"


class ChoicesModel(models.Model):
    choices_field_with_nonstandard_args = models.DecimalField(max_digits=3, decimal_places=1, choices=DECIMAL_CHOICES,
                                                              verbose_name='A label')
    non_editable_choice_field = models.CharField(choices=COLOR_CHOICES, default=COLOR_CHOICES[0][0], editable=False,
                                                 max_length=5)

    class Meta:
        app_label = "tests"


class Issue3674ParentModel(models.Model):
    title = models.CharField(max_length=64)

    class Meta:
        app_label = "tests"


class Issue3674ChildModel(models.Model):
    parent = models.ForeignKey(Issue3674ParentModel, related_name='children', on_delete=models.CASCADE)
    value = models.CharField(primary_key=True, max_length=64)

    class Meta:
        app_label = "tests"


class UniqueChoiceModel(models.Model):
    CHOICES = (('choice1', 'choice 1'), ('choice2', 'choice 1'))
    name = models.CharField(max_length=254, unique=True, choices=CHOICES)

    class Meta:
        app_label = "tests"


class ForeignKeyTargetModel(models.Model):
    name = models.CharField(max_length=100)

    class Meta:
        app_label = "tests"


class ManyToManyTargetModel(models.Model):
    name = models.CharField(max_length=100)

    class Meta:
        app_label = "tests"


class OneToOneTargetModel(models.Model):
    name = models.CharField(max_length=100)

    class Meta:
        app_label = "tests"


class ThroughTargetModel(models.Model):
    name = models.CharField(max_length=100)

    class Meta:
        app_label = "tests"


class Supplementary(models.Model):
    extra = models.IntegerField()
    forwards = models.ForeignKey('ThroughTargetModel', on_delete=models.CASCADE)
    backwards = models.ForeignKey('RelationalModel', on_delete=models.CASCADE)

    class Meta:
        app_label = "tests"


class RelationalModel(models.Model):
    foreign_key = models.ForeignKey(ForeignKeyTargetModel, related_name='reverse_foreign_key', on_delete=models.CASCADE)
    many_to_many = models.ManyToManyField(ManyToManyTargetModel, related_name='reverse_many_to_many')
    one_to_one = models.OneToOneField(OneToOneTargetModel, related_name='reverse_one_to_one', on_delete=models.CASCADE)
    through = models.ManyToManyField(ThroughTargetModel, through=Supplementary, related_name='reverse_through')

    class Meta:
        app_label = "tests"


class UniqueTogetherModel(models.Model):
    foreign_key = models.ForeignKey(ForeignKeyTargetModel, related_name='unique_foreign_key', on_delete=models.CASCADE)
    one_to_one = models.OneToOneField(OneToOneTargetModel, related_name='unique_one_to_one', on_delete=models.CASCADE)

    class Meta:
        app_label = "tests"
        unique_together = ("foreign_key", "one_to_one")


class BulkCreateModel(models.Model):
    name = models.CharField(max_length=10)

    class Meta:
        app_label = "tests"


class MetaClassTestModel(models.Model):
    text = models.CharField(max_length=100)

    class Meta:
        app_label = "tests"


class DecimalFieldModel(models.Model):
    decimal_field = models.DecimalField(max_digits=3, decimal_places=1,
                                        validators=[MinValueValidator(1), MaxValueValidator(3)])

    class Meta:
        app_label = "tests"


class OneToOneTargetTestModel(models.Model):
    text = models.CharField(max_length=100)

    class Meta:
        app_label = "tests"


class OneToOneSourceTestModel(models.Model):
    target = models.OneToOneField(OneToOneTargetTestModel, primary_key=True, on_delete=models.CASCADE)

    class Meta:
        app_label = "tests"


class DurationFieldModel(models.Model):
    duration_field = models.DurationField()

    class Meta:
        app_label = "tests"


class ValidatedDurationFieldModel(models.Model):
    duration_field = models.DurationField(
        validators=[MinValueValidator(datetime.timedelta(days=1)), MaxValueValidator(datetime.timedelta(days=3))])

    class Meta:
        app_label = "tests"


class IPAddressFieldModel(models.Model):
    address = models.GenericIPAddressField()

    class Meta:
        app_label = "tests"


class IPv4AddressFieldModel(models.Model):
    address = models.GenericIPAddressField(protocol='IPv4')

    class Meta:
        app_label = "tests"


class IPv6AddressFieldModel(models.Model):
    address = models.GenericIPAddressField(protocol='IPv6')

    class Meta:
        app_label = "tests"


class ValidatedIPAddressFieldModel(models.Model):
    address = models.GenericIPAddressField(validators=[MaxLengthValidator(15)])

    class Meta:
        app_label = "tests"


class JSONFieldModel(models.Model):
    json_field = models.JSONField()
    json_field_with_encoder = models.JSONField(encoder=DjangoJSONEncoder)

    class Meta:
        app_label = "tests"


# TestPosgresFieldsMapping's models, which only PostgreSQL holds: their
# serializers are described and validate without a table.
class HStoreFieldModel(models.Model):
    hstore_field = postgres_fields.HStoreField()

    class Meta:
        app_label = "tests"


class ArrayFieldModel(models.Model):
    array_field = postgres_fields.ArrayField(base_field=models.CharField())
    array_field_with_blank = postgres_fields.ArrayField(blank=True, base_field=models.CharField())

    class Meta:
        app_label = "tests"


# ArrayFieldModel's fields validate on Django 5.2 alone (Django 3.2's
# CharField without max_length has a MaxLengthValidator(None)): the
# inputs are validated by the fields of base fields of a max_length.
class ArrayInputModel(models.Model):
    array_field = postgres_fields.ArrayField(base_field=models.CharField(max_length=5))
    array_field_with_blank = postgres_fields.ArrayField(blank=True, base_field=models.CharField(max_length=5))

    class Meta:
        app_label = "tests"


POSTGRES_ONLY = (HStoreFieldModel, ArrayFieldModel, ArrayInputModel)


class NullableBooleanChoicesModel(models.Model):
    CHECKLIST_OPTIONS = ((None, 'Unknown'), (True, 'Yes'), (False, 'No'))
    field = models.BooleanField(null=True, choices=CHECKLIST_OPTIONS)

    class Meta:
        app_label = "tests"


class ForeignKeyTarget(models.Model):
    name = models.CharField(max_length=100)

    class Meta:
        app_label = "tests"


class NullableForeignKeySource(models.Model):
    name = models.CharField(max_length=100)
    target = models.ForeignKey(ForeignKeyTarget, null=True, blank=True, related_name='nullable_sources',
                               verbose_name='Optional target object', on_delete=models.CASCADE)

    class Meta:
        app_label = "tests"


class NestedForeignKeySource(models.Model):
    name = models.CharField(max_length=100)
    target = models.ForeignKey(NullableForeignKeySource, null=True, blank=True, related_name='nested_sources',
                               verbose_name='Intermediate target object', on_delete=models.CASCADE)

    class Meta:
        app_label = "tests"


class Issue7550FooModel(models.Model):
    text = models.CharField(max_length=100)
    bar = models.ForeignKey(
        'Issue7550BarModel', null=True, blank=True, on_delete=models.SET_NULL,
        related_name='foos', related_query_name='foo')

    class Meta:
        app_label = "tests"


class Issue7550BarModel(models.Model):
    class Meta:
        app_label = "tests"


class UniquenessOverrideModel(models.Model):
    field_1 = models.IntegerField(null=True)
    field_2 = models.IntegerField()

    class Meta:
        app_label = "tests"
        unique_together = (('field_1', 'field_2'),)




def regular_fields():
    names = [f.name for f in RegularFieldsModel._meta.fields
             if f.name not in ("custom_field", "comma_separated_integer_field", "file_path_field")]
    return {"info": info(serializer(RegularFieldsModel, fields=names)())}


def relational_setup():
    """TestIntegration.setUp: the instance and its related rows."""
    fk = ForeignKeyTargetModel.objects.create(name='foreign_key')
    o2o = OneToOneTargetModel.objects.create(name='one_to_one')
    targets = [ManyToManyTargetModel.objects.create(name='many_to_many (%d)' % i) for i in range(3)]
    instance = RelationalModel.objects.create(foreign_key=fk, one_to_one=o2o)
    instance.many_to_many.set(targets)
    return instance


def relational_write(update):
    """TestIntegration.test_pk_create and test_pk_update: what is saved and rendered."""
    instance = relational_setup()
    fk = ForeignKeyTargetModel.objects.create(name='foreign_key')
    o2o = OneToOneTargetModel.objects.create(name='one_to_one')
    targets = [ManyToManyTargetModel.objects.create(name='new many_to_many (%d)' % i) for i in range(3)]
    data = {'foreign_key': fk.pk, 'one_to_one': o2o.pk, 'many_to_many': [t.pk for t in targets]}
    cls = serializer(RelationalModel, fields='__all__')
    s = cls(instance, data=data) if update else cls(data=data)
    valid = s.is_valid()
    saved = s.save()
    return {"data": data, "valid": valid, "data_after": plain(s.data),
            "saved": {"foreign_key": saved.foreign_key.pk, "one_to_one": saved.one_to_one.pk,
                      "many_to_many": [t.pk for t in saved.many_to_many.all()], "through": list(saved.through.all())}}


def reverse_field(model_class, name):
    """TestRelationalFieldMappings.test_pk_reverse_*: the fields of a
    serializer of model_class with its reverse side name, and (beyond
    DRF's test) the representation of TestIntegration.setUp's rows and a
    second one, with Supplementary's row from the first relational
    instance to the first through target."""
    empty_tables()
    instance = relational_setup()
    ThroughTargetModel.objects.create(name='through')
    Supplementary.objects.create(extra=1, forwards_id=1, backwards=instance)
    model_class.objects.create(name='unrelated')
    s = serializer(model_class, fields=('id', 'name', name))
    return {"info": info(s()), "data": [plain(s(m).data) for m in model_class.objects.order_by('pk')]}


def reverse_write(model_class, name, value, save=True):
    """An update of model_class's first row setting its reverse side name
    to value (beyond DRF's test), on empty tables given
    TestIntegration.setUp's rows and a second relational row: valid, the
    errors, the representation after save() (unless not save) and the
    relational rows' one-to-one and many-to-many keys after."""
    empty_tables()
    relational_setup()
    RelationalModel.objects.create(foreign_key_id=1, one_to_one=OneToOneTargetModel.objects.create(name='second'))
    s = serializer(model_class, fields=('id', 'name', name))(model_class.objects.get(pk=1),
                                                             data={'name': 'renamed', name: value})
    out = outcome(s)
    if out["valid"] and save:
        s.save()
        out["data"] = plain(s.data)
    out["rows"] = [[r.pk, r.one_to_one_id, sorted(t.pk for t in r.many_to_many.all())]
                   for r in RelationalModel.objects.order_by('pk')]
    return out


def bulk_create():
    class BasicModelSerializer(serializers.ModelSerializer):
        class Meta:
            model = BulkCreateModel
            fields = ('name',)

    class BulkCreateSerializer(serializers.ListSerializer):
        child = BasicModelSerializer()

    data = [{'name': 'a'}, {'name': 'b'}, {'name': 'c'}]
    s = BulkCreateSerializer(data=data)
    valid = s.is_valid()
    instances = s.save()
    return {"valid": valid, "saved": [i.name for i in instances],
            "rows": list(BulkCreateModel.objects.values_list('name', flat=True)), "data": plain(s.data)}


def queryset_all():
    s = serializer(OneFieldModel, declared={"additional_attr": serializers.CharField()},
                   fields=('char_field', 'additional_attr'))
    OneFieldModel.objects.create(char_field='abc')
    qs = list(OneFieldModel.objects.all())
    for o in qs:
        o.additional_attr = '123'
    return {"data": plain(s(instance=qs, many=True).data)}


def non_id_pk():
    parent_s = serializer(Issue3674ParentModel, fields=('id', 'title', 'children'))
    child_s = serializer(Issue3674ChildModel, fields=('value', 'parent'))
    parent = Issue3674ParentModel.objects.create(title='abc')
    child = Issue3674ChildModel.objects.create(value='def', parent=parent)
    return {"parent": plain(parent_s(parent).data), "child": plain(child_s(child).data)}


def unique_choice():
    s = serializer(UniqueChoiceModel, fields='__all__')
    UniqueChoiceModel.objects.create(name='choice1')
    return outcome(s(data={'name': 'choice1'}))


def ip_outcomes(model_class, inputs):
    s = serializer(model_class, fields='__all__')
    return {"info": info(s()), "inputs": [[address, outcome(s(data={"address": address}))] for address in inputs]}


def duration_outcomes(model_class):
    s = serializer(model_class, fields='__all__')
    return {"info": info(s()), "inputs": [[d, outcome(s(data={"duration_field": d}))]
                                          for d in ("12:00:00", "2 00:00:00", "4 00:00:00")]}


def postgres_outcomes(model_class, fields, inputs, input_class=None):
    s = serializer(input_class or model_class, fields=fields)
    return {"info": info(serializer(model_class, fields=fields)()),
            "inputs": [[data, outcome(s(data=data))] for data in inputs]}


def decimal_bounds():
    s = serializer(DecimalFieldModel, fields='__all__')
    return {"info": info(s()), "inputs": [[d, outcome(s(data={"decimal_field": d}))] for d in ("0.5", "2.0", "3.5")]}


def uniqueness_override():
    s = serializer(UniquenessOverrideModel, fields='__all__', extra_kwargs={'field_1': {'required': False}})
    return {"info": info(s()), "outcome": outcome(s(data={"field_2": 1}))}


def nullable_boolean_choices():
    s = serializer(NullableBooleanChoicesModel, fields=['field'])
    return outcome(s(data=dict(field=None)))


def extra_field_kwargs():
    s = serializer(RegularFieldsModel, fields=('auto_field', 'char_field'), extra_kwargs={'char_field': {'default': 'extra'}})
    out = outcome(s(data={}))
    t = s(data={})
    t.is_valid()
    out["validated"] = plain(t.validated_data)
    return {"info": info(s()), "outcome": out}


def missing_field():
    return {"error": setup_error(serializer(RegularFieldsModel, declared={"missing": serializers.ReadOnlyField()},
                                            fields=('auto_field',)))}


def model_field():
    s = serializer(OneToOneSourceTestModel, name="ExampleSerializer", fields=('target',))
    target = OneToOneTargetTestModel(id=1, text='abc')
    return {"data": plain(s(OneToOneSourceTestModel(target=target)).data)}


def asserted_choice(name):
    """What test_choices_with_nonstandard_args and
    test_non_editable_choice_field assert of a field of ChoicesModel: a
    ChoiceField, read-only or not, with choices."""
    field = serializer(ChoicesModel, name="ExampleSerializer", fields='__all__')().get_fields()[name]
    return {"choice_field": isinstance(field, serializers.ChoiceField), "read_only": field.read_only,
            "choices": bool(getattr(field, "choices", None))}


def traverse_nullable_fk():
    """TestFieldSource.test_traverse_nullable_fk: its row without a target,
    and (beyond DRF's test) a row whose chain reaches a target."""
    class TestSerializer(serializers.ModelSerializer):
        target = serializers.PrimaryKeyRelatedField(
            source='target.target', read_only=True, allow_null=True, default=None)

        class Meta:
            model = NestedForeignKeySource
            fields = ('target',)

    empty = NestedForeignKeySource.objects.create()
    middle = NullableForeignKeySource.objects.create(name='middle')
    through = NestedForeignKeySource.objects.create(target=middle)
    end = ForeignKeyTarget.objects.create(name='end')
    middle2 = NullableForeignKeySource.objects.create(name='middle', target=end)
    full = NestedForeignKeySource.objects.create(target=middle2)
    return {"data": [plain(TestSerializer(m).data) for m in (empty, through, full)]}


def dotted_source(default):
    """Issue7550TestCase.test_dotted_source (default False) and
    test_dotted_source_with_default: DRF's data, and (beyond DRF's test)
    the data of every foo of two bars and of one without a bar, where a
    foo without a bar fails without the default (DRF's get_attribute()
    raises AttributeError on None)."""
    class _FooSerializer(serializers.ModelSerializer):
        class Meta:
            model = Issue7550FooModel
            fields = ('id', 'text')

    if default:
        class FooSerializer(serializers.ModelSerializer):
            other_foos = _FooSerializer(source='bar.foos', default=[], many=True)

            class Meta:
                model = Issue7550FooModel
                fields = ('id', 'other_foos')

        foo = Issue7550FooModel.objects.create(bar=None, text='abc')
    else:
        class FooSerializer(serializers.ModelSerializer):
            other_foos = _FooSerializer(source='bar.foos', many=True)

            class Meta:
                model = Issue7550BarModel
                fields = ('id', 'other_foos')

        bar = Issue7550BarModel.objects.create()
        foo = Issue7550FooModel.objects.create(bar=bar, text='abc')
        Issue7550FooModel.objects.create(bar=bar, text='123')
    data = plain(FooSerializer(foo).data)
    other = Issue7550BarModel.objects.create()
    Issue7550FooModel.objects.create(bar=other, text='other')
    Issue7550FooModel.objects.create(bar=other, text='another')
    if default:
        Issue7550FooModel.objects.create(bar=None, text='none')
    every = []
    for f in Issue7550FooModel.objects.order_by('pk'):
        try:
            every.append(plain(FooSerializer(f).data))
        except AttributeError:
            every.append("AttributeError")
    if not default:
        f = Issue7550FooModel.objects.create(bar=None, text='none')
        try:
            every.append(plain(FooSerializer(f).data))
        except AttributeError:
            every.append("AttributeError")
    return {"data": data, "every": every}


def nested_hyperlinked(model_class, **meta_options):
    s = serializer(model_class, base=serializers.HyperlinkedModelSerializer, depth=1, fields='__all__', **meta_options)
    return {"info": info(s())}


ITEMS = {
    "TestRegularFieldMappings.test_regular_fields": regular_fields,
    "TestRegularFieldMappings.test_field_options": lambda: {"info": info(serializer(FieldOptionsModel, fields='__all__')())},
    "TestRegularFieldMappings.test_nullable_boolean_field_choices": nullable_boolean_choices,
    "TestRegularFieldMappings.test_method_field": lambda: {"info": info(serializer(RegularFieldsModel, fields=('auto_field', 'method'))()),
                                                           "data": plain(serializer(RegularFieldsModel, fields=('auto_field', 'method'))(
                                                               RegularFieldsModel(auto_field=1)).data)},
    "TestRegularFieldMappings.test_pk_fields": lambda: {"info": info(serializer(RegularFieldsModel, fields=('pk', 'auto_field'))()),
                                                        "data": plain(serializer(RegularFieldsModel, fields=('pk', 'auto_field'))(
                                                            RegularFieldsModel(auto_field=7)).data)},
    "TestRegularFieldMappings.test_extra_field_kwargs": extra_field_kwargs,
    "TestRegularFieldMappings.test_extra_field_kwargs_required": lambda: {"info": info(serializer(
        RegularFieldsModel, fields=('auto_field', 'char_field'),
        extra_kwargs={'auto_field': {'required': False, 'read_only': False}})())},
    "TestRegularFieldMappings.test_invalid_field": lambda: {"error": setup_error(serializer(RegularFieldsModel, fields=('auto_field', 'invalid')))},
    "TestRegularFieldMappings.test_missing_field": missing_field,
    "TestRegularFieldMappings.test_choices_with_nonstandard_args": lambda: asserted_choice(
        'choices_field_with_nonstandard_args'),
    "TestRegularFieldMappings.test_non_editable_choice_field": lambda: asserted_choice('non_editable_choice_field'),
    "TestDurationFieldMapping.test_duration_field": lambda: duration_outcomes(DurationFieldModel),
    "TestDurationFieldMapping.test_duration_field_with_validators": lambda: duration_outcomes(ValidatedDurationFieldModel),
    "TestGenericIPAddressFieldValidation.test_ip_address_validation": lambda: ip_outcomes(
        IPAddressFieldModel, ["not an ip address", "192.0.2.1", "2001:db8::1"]),
    "TestGenericIPAddressFieldValidation.test_ip_address_validation_with_custom_validator": lambda: ip_outcomes(
        ValidatedIPAddressFieldModel, ["not an ip address", "192.0.2.1"]),
    "TestGenericIPAddressFieldValidation.test_ip_address_validation_with_protocol_ipv4": lambda: ip_outcomes(
        IPv4AddressFieldModel, ["not an ip address", "2001:db8::1", "192.0.2.1"]),
    "TestGenericIPAddressFieldValidation.test_ip_address_validation_with_protocol_ipv6": lambda: ip_outcomes(
        IPv6AddressFieldModel, ["not an ip address", "192.0.2.1", "2001:db8::1"]),
    "TestPosgresFieldsMapping.test_hstore_field": lambda: postgres_outcomes(HStoreFieldModel, ['hstore_field'], [
        {"hstore_field": {"a": "1", "b": None, "c": ""}}, {"hstore_field": {"a": 1}}, {"hstore_field": "a=>1"},
        {"hstore_field": {"a": ["b"]}}, {"hstore_field": {}}, {}]),
    "TestPosgresFieldsMapping.test_array_field": lambda: postgres_outcomes(ArrayFieldModel, [
        'array_field', 'array_field_with_blank'], [
        {"array_field": ["a", "b"], "array_field_with_blank": []}, {"array_field": ["a"]},
        {"array_field": [], "array_field_with_blank": []}, {"array_field": "a"}, {"array_field": [None]},
        {"array_field": [""]}, {"array_field": [1, True]}, {"array_field": ["abcdef"]},
        {"array_field_with_blank": ["a"]}, {}], input_class=ArrayInputModel),
    "TestDjangoJSONFieldMapping.test_json_field": lambda: {"info": info(serializer(
        JSONFieldModel, fields=['json_field', 'json_field_with_encoder'])())},
    "TestRelationalFieldMappings.test_pk_relations": lambda: {"info": info(serializer(RelationalModel, fields='__all__')())},
    "TestRelationalFieldMappings.test_nested_relations": lambda: {"info": info(serializer(
        RelationalModel, depth=1, fields='__all__')())},
    "TestRelationalFieldMappings.test_hyperlinked_relations": lambda: {"info": info(serializer(
        RelationalModel, base=serializers.HyperlinkedModelSerializer, fields='__all__')())},
    "TestRelationalFieldMappings.test_nested_hyperlinked_relations": lambda: nested_hyperlinked(RelationalModel),
    "TestRelationalFieldMappings.test_nested_hyperlinked_relations_starred_source": lambda: nested_hyperlinked(
        RelationalModel, extra_kwargs={'url': {'source': '*'}}),
    "TestRelationalFieldMappings.test_nested_unique_together_relations": lambda: nested_hyperlinked(UniqueTogetherModel),
    "TestRelationalFieldMappings.test_pk_reverse_foreign_key": lambda: {"info": info(serializer(
        ForeignKeyTargetModel, fields=('id', 'name', 'reverse_foreign_key'))())},
    "TestRelationalFieldMappings.test_pk_reverse_one_to_one": lambda: dict(
        reverse_field(OneToOneTargetModel, 'reverse_one_to_one'),
        valid=reverse_write(OneToOneTargetModel, 'reverse_one_to_one', 2, save=False),
        invalid=reverse_write(OneToOneTargetModel, 'reverse_one_to_one', 9)),
    "TestRelationalFieldMappings.test_pk_reverse_many_to_many": lambda: dict(
        reverse_field(ManyToManyTargetModel, 'reverse_many_to_many'),
        write=reverse_write(ManyToManyTargetModel, 'reverse_many_to_many', [2]),
        invalid=reverse_write(ManyToManyTargetModel, 'reverse_many_to_many', [9])),
    "TestRelationalFieldMappings.test_pk_reverse_through": lambda: reverse_field(ThroughTargetModel, 'reverse_through'),
    "TestIntegration.test_pk_retrieval": lambda: {"data": plain(serializer(RelationalModel, fields='__all__')(
        relational_setup()).data)},
    "TestIntegration.test_pk_create": lambda: relational_write(False),
    "TestIntegration.test_pk_update": lambda: relational_write(True),
    "TestBulkCreate.test_bulk_create": bulk_create,
    "TestSerializerMetaClass.test_meta_class_fields_and_exclude_options": lambda: {"error": setup_error(serializer(
        MetaClassTestModel, name="ExampleSerializer", fields=('text',), exclude=('text',)))},
    "TestSerializerMetaClass.test_declared_fields_with_exclude_option": lambda: {"error": setup_error(serializer(
        MetaClassTestModel, name="ExampleSerializer", declared={"text": serializers.CharField()}, exclude=('text',)))},
    "Issue2704TestCase.test_queryset_all": queryset_all,
    "TestDecimalFieldMappings.test_min_value_is_passed": decimal_bounds,
    "TestDecimalFieldMappings.test_max_value_is_passed": decimal_bounds,
    "TestModelFieldValues.test_model_field": model_field,
    "TestUniquenessOverride.test_required_not_overwritten": uniqueness_override,
    "Issue3674Test.test_nonPK_foreignkey_model_serializer": lambda: {
        "parent": info(serializer(Issue3674ParentModel, fields=('id', 'title', 'children'))()),
        "child": info(serializer(Issue3674ChildModel, fields=('value', 'parent'))())},
    "Issue3674Test.test_nonID_PK_foreignkey_model_serializer": non_id_pk,
    "Test5004UniqueChoiceField.test_unique_choice_field": unique_choice,
    "TestFieldSource.test_traverse_nullable_fk": traverse_nullable_fk,
    "Issue7550TestCase.test_dotted_source": lambda: dotted_source(False),
    "Issue7550TestCase.test_dotted_source_with_default": lambda: dotted_source(True),
    "TestFieldSource.test_named_field_source": lambda: {"info": info(serializer(
        RegularFieldsModel, fields=('number_field',), extra_kwargs={'number_field': {'source': 'integer_field'}})())},
}


def empty_tables():
    """Empties the tests app's tables, their keys numbered from 1 again,
    as each of DRF's TestCases finds them (reset_sequences)."""
    from django.apps import apps
    for m in apps.get_app_config("tests").get_models():
        if m not in POSTGRES_ONLY:
            m.objects.all().delete()
    with connection.cursor() as c:
        c.execute("DELETE FROM sqlite_sequence")


def main():
    from django.apps import apps
    with connection.schema_editor() as editor:
        for m in apps.get_app_config("tests").get_models():
            if m not in POSTGRES_ONLY:
                editor.create_model(m)
    answers = {}
    for name, fn in ITEMS.items():
        empty_tables()
        answers[name] = fn()
    json.dump({
        "versions": {"django": django.get_version(), "rest_framework": rest_framework.VERSION},
        "items": answers,
    }, sys.stdout, indent=1, sort_keys=True)
    print()


main()
