from django.db import models


class Report(models.Model):
    title = models.CharField(max_length=50)
    template = models.FilePathField(path='/srv/templates', allow_files=False, allow_folders=True, max_length=200)
    sheet = models.FilePathField(path='/srv/data', match='^[a-z]+[.]csv$', blank=True)
    folder = models.FilePathField(path='/srv', allow_folders=True, null=True)
