from django.conf import settings
from django.db import models


class Tag(models.Model):
    name = models.CharField(max_length=20)


class Snippet(models.Model):
    title = models.CharField(max_length=50)
    links = models.ManyToManyField('self', symmetrical=False, blank=True)
    readers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True)
    code = models.TextField(default='')
