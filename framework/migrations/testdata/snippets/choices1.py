from django.db import models


class Snippet(models.Model):
    status = models.CharField(max_length=10, choices=[('draft', 'Draft'), ('live', 'Live')])
    size = models.IntegerField(choices=[(1, 'Small'), (2, 'Large')], null=True)
