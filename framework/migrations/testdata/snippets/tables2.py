from django.db import models


class Tag(models.Model):
    name = models.CharField(max_length=20)

    class Meta:
        db_table = 'tags'


class Snippet(models.Model):
    title = models.CharField(max_length=80)
    tag = models.ForeignKey(Tag, on_delete=models.CASCADE)
    labels = models.ManyToManyField(Tag, blank=True, related_name='+')

    class Meta:
        db_table = 'snippets_code'
