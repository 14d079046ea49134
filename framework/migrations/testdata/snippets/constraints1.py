from django.conf import settings
from django.db import models


class Snippet(models.Model):
    title = models.CharField(max_length=50)
    slug = models.SlugField()
    status = models.CharField(max_length=10, default='draft')
    count = models.IntegerField(default=0)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=['title', 'owner'], name='unique_title_owner'),
            models.CheckConstraint(check=models.Q(count__gte=0), name='count_gte_0'),
            models.UniqueConstraint(fields=['slug'], condition=models.Q(status='published'), name='unique_published_slug'),
        ]
