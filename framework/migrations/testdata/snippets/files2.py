from django.db import models


class Book(models.Model):
    title = models.CharField(max_length=50)
    attachment = models.FileField(upload_to='files/%Y/', max_length=200)
    cover = models.ImageField(upload_to='covers/', blank=True, null=True)
    scan = models.FileField(blank=True)
