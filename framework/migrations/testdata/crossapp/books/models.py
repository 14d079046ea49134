# The books app of TestCrossAppKeyAsDjango, as its migrations leave it:
# a foreign key to the snippets app's Author.
from django.db import models


class Book(models.Model):
    title = models.CharField(max_length=80)
    author = models.ForeignKey('snippets.Author', on_delete=models.CASCADE)
    pages = models.IntegerField(default=0)
