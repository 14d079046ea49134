# The ids declared on the models: no longer auto_created.
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [('snippets', '0002_bigauto')]
    operations = [
        migrations.AlterField(
            model_name='book',
            name='id',
            field=models.BigAutoField(primary_key=True, serialize=False),
        ),
        migrations.AlterField(
            model_name='author',
            name='id',
            field=models.BigAutoField(primary_key=True, serialize=False),
        ),
    ]
