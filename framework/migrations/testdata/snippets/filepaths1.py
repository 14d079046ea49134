from django.db import models


class Report(models.Model):
    title = models.CharField(max_length=50)
    template = models.FilePathField(path='/srv/templates')
    sheet = models.FilePathField(path='/srv/sheets', match='[.]csv$', recursive=True, blank=True)
