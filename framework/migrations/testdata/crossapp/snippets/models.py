# The snippets app of TestCrossAppKeyAsDjango, as its migrations leave it.
from django.db import models


class Author(models.Model):
    id = models.BigAutoField(primary_key=True)
    name = models.CharField(max_length=50)


class Note(models.Model):
    author = models.ForeignKey(Author, on_delete=models.CASCADE)
