from django.conf import settings
from django.db import models


class Snippet(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              limit_choices_to={'is_staff': True, 'is_active': True})
    readers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name='+',
                                     limit_choices_to={'is_active': True})
    host = models.GenericIPAddressField(protocol='IPv4')
    peer = models.GenericIPAddressField(null=True)
