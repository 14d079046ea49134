from django.conf import settings
from django.db import models


class Label(models.Model):
    name = models.CharField(max_length=20, db_index=True)


class Post(models.Model):
    headline = models.CharField(max_length=50, unique=True)
    body = models.TextField(default='')
    hits = models.PositiveIntegerField(default=0)
    lang = models.CharField(max_length=10, default='')
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    tag = models.ForeignKey(Label, on_delete=models.CASCADE, null=True)

    class Meta:
        unique_together = [('headline', 'body')]
        indexes = [models.Index(fields=['lang'], name='snippet_lang')]
