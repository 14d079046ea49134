from django.conf import settings
from django.db import models


class Snippet(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    readers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name='+')
    host = models.GenericIPAddressField()
    peer = models.GenericIPAddressField(protocol='IPv6', null=True)
