# A column added, as Django's makemigrations wrote it: SQLite remakes the
# table, with the foreign key's column as the project's state has it.
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [('books', '0001_initial')]
    operations = [
        migrations.AddField(
            model_name='book',
            name='pages',
            field=models.IntegerField(default=0),
        ),
    ]
