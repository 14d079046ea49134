# Author's key made a BigAutoField, as Django's makemigrations wrote it:
# no dependency on the books app, whose foreign key follows.
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [('snippets', '0001_initial')]
    operations = [
        migrations.AlterField(
            model_name='author',
            name='id',
            field=models.BigAutoField(primary_key=True, serialize=False),
        ),
    ]
