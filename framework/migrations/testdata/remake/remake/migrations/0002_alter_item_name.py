from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [('remake', '0001_initial')]

    operations = [
        migrations.AlterField(
            model_name='item',
            name='name',
            field=models.CharField(max_length=100),
        ),
    ]
