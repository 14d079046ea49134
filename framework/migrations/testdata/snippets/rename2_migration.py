# The migration 0002 of rename2.py, written by hand as Django's
# makemigrations writes it when told yes to each of its rename questions.
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [('snippets', '0001_initial')]
    operations = [
        migrations.RenameField('snippet', 'title', 'headline'),
        migrations.RenameField('snippet', 'code', 'body'),
        migrations.RenameField('snippet', 'count', 'hits'),
        migrations.RenameField('snippet', 'owner', 'author'),
        migrations.RenameModel('Tag', 'Label'),
        migrations.RenameModel('Snippet', 'Post'),
    ]
