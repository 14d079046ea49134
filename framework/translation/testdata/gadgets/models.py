"""A model with what the sample's books lack: a unique slug, a field with choices and a
foreign key, for their validation errors (drf_errors.py)."""
from django.conf import settings
from django.db import models


class Gadget(models.Model):
    slug = models.CharField(max_length=50, unique=True)
    kind = models.CharField(max_length=10, choices=[('lamp', 'Lamp'), ('fan', 'Fan')])
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)

    class Meta:
        db_table = 'gadgets'
