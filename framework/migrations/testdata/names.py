# The automatic names Django's makemigrations gives the migrations of
# TestNamesAsDjango's cases (Migration.suggest_name), one a line, each
# after the migration's number; an auto name's timestamp printed as
# "auto".
import re

import django
from django.conf import settings

settings.configure()
django.setup()
from django.db import migrations, models

add = migrations.AddField('snippet', 'title', models.CharField(max_length=10))
remove = migrations.RemoveField('snippet', 'code')
cases = [
    [add],
    [remove],
    [migrations.AlterField('snippet', 'title', models.CharField(max_length=10))],
    [migrations.DeleteModel('Snippet')],
    [migrations.AlterUniqueTogether('snippet', set())],
    [migrations.CreateModel('Tag', []), migrations.CreateModel('Comment', [])],
    [add, remove],
    [add, migrations.AlterField('snippet', 'body', models.CharField(max_length=10)), remove,
     migrations.AlterUniqueTogether('snippet', set())],
    [add, migrations.RunSQL(['SELECT 1'])],
]
for ops in cases:
    m = migrations.Migration('0002_x', 'snippets')
    m.operations = ops
    print(re.sub(r'^auto_.*', 'auto', m.suggest_name()[:100]))
