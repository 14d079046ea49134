from django.db import models


class Snippet(models.Model):
    status = models.CharField(max_length=10, choices=[('draft', 'Draft'), ('live', 'Live'), ('gone', 'Gone')])
    size = models.IntegerField(null=True)
