from django.conf import settings
from django.db import models


class Snippet(models.Model):
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    title = models.CharField(max_length=150, blank=True, default='')
    code = models.CharField(max_length=300, db_index=True)
    language = models.CharField(max_length=100, default='python', choices=[('python', 'Python'), ('go', 'Go')])
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name='snippets')
    linenos = models.BooleanField(default=False)
    count = models.IntegerField(default=0)
    big = models.BigIntegerField(default=0)
    small = models.SmallIntegerField(db_index=True)
    pos = models.PositiveIntegerField()
    posbig = models.PositiveBigIntegerField()
    possmall = models.PositiveSmallIntegerField(null=True)
    ratio = models.FloatField()
    price = models.DecimalField(max_digits=10, decimal_places=2)
    email = models.EmailField(unique=True)
    url = models.URLField(db_index=True)
    slug = models.SlugField(unique=True)
    ip = models.GenericIPAddressField(null=True)
    day = models.DateField()
    at = models.TimeField()
    took = models.DurationField()
    uid = models.UUIDField()
    data = models.JSONField(null=True)
    blob = models.BinaryField()
    tag = models.CharField(max_length=20, unique=True)
    summary = models.CharField(max_length=50, default='none')
    rating = models.IntegerField(null=True)
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name='+')
    editor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name='+')

    class Meta:
        unique_together = [('title', 'code')]
        indexes = [models.Index(fields=['title', '-created'])]


class Tag(models.Model):
    name = models.CharField(max_length=30, unique=True)


class Label(models.Model):
    tag = models.ForeignKey(Tag, on_delete=models.CASCADE)
    text = models.CharField(max_length=30)

    class Meta:
        unique_together = [('tag', 'text')]
