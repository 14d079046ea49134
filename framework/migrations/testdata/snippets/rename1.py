from django.conf import settings
from django.db import models


class Tag(models.Model):
    name = models.CharField(max_length=20, db_index=True)


class Snippet(models.Model):
    title = models.CharField(max_length=50, unique=True)
    code = models.TextField(default='')
    count = models.PositiveIntegerField(default=0)
    lang = models.CharField(max_length=10, default='')
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    tag = models.ForeignKey(Tag, on_delete=models.CASCADE, null=True)

    class Meta:
        unique_together = [('title', 'code')]
        indexes = [models.Index(fields=['lang'], name='snippet_lang')]
