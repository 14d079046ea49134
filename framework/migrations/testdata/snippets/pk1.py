from django.db import models


class Tag(models.Model):
    code = models.CharField(max_length=10, unique=True)
    name = models.CharField(max_length=20)


class Label(models.Model):
    slug = models.CharField(max_length=10)
