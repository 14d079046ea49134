# The Django models whose tables TestInspectDBOfADjangoDatabase inspects:
# every field type of Django 3.2, nullable variants, and foreign keys.
from django.db import models


class Author(models.Model):
    name = models.CharField(max_length=100)


class AllTypes(models.Model):
    char = models.CharField(max_length=50, unique=True)
    text = models.TextField()
    integer = models.IntegerField()
    big = models.BigIntegerField()
    small = models.SmallIntegerField()
    positive = models.PositiveIntegerField()
    flag = models.BooleanField()
    ratio = models.FloatField()
    price = models.DecimalField(max_digits=8, decimal_places=2)
    moment = models.DateTimeField()
    day = models.DateField(null=True)
    clock = models.TimeField(null=True)
    token = models.UUIDField()
    doc = models.JSONField()
    blob = models.BinaryField(null=True)
    span = models.DurationField()
    ip = models.GenericIPAddressField()
    author = models.ForeignKey(Author, on_delete=models.CASCADE)
    char_null = models.CharField(max_length=50, null=True)
    text_null = models.TextField(null=True)
    integer_null = models.IntegerField(null=True)
    big_null = models.BigIntegerField(null=True)
    flag_null = models.BooleanField(null=True)
    ratio_null = models.FloatField(null=True)
    price_null = models.DecimalField(max_digits=8, decimal_places=2, null=True)
    moment_null = models.DateTimeField(null=True)
    token_null = models.UUIDField(null=True)
    doc_null = models.JSONField(null=True)
    author_null = models.ForeignKey(Author, on_delete=models.SET_NULL, null=True, related_name="+")
