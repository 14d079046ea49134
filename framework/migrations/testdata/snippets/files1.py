from django.db import models


class Book(models.Model):
    title = models.CharField(max_length=50)
    attachment = models.FileField(upload_to='files/%Y/')
    cover = models.ImageField(upload_to='covers/', blank=True, null=True)
