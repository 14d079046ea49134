# The ids made BigAutoFields, still auto_created (DEFAULT_AUTO_FIELD
# changed): the key a foreign key points to first.
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [('snippets', '0001_initial')]
    operations = [
        migrations.AlterField(
            model_name='author',
            name='id',
            field=models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID'),
        ),
        migrations.AlterField(
            model_name='book',
            name='id',
            field=models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID'),
        ),
    ]
