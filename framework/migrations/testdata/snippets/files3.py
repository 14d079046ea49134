from django.db import models


class Book(models.Model):
    title = models.CharField(max_length=50)
    attachment = models.FileField(upload_to='docs/', max_length=200)
    cover = models.ImageField(upload_to='covers/', blank=True, null=True,
                              width_field='cover_width', height_field='cover_height')
    scan = models.FileField(blank=True)
    cover_width = models.PositiveIntegerField(null=True, blank=True, editable=False)
    cover_height = models.PositiveIntegerField(null=True, blank=True, editable=False)
