from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [('remake', '0003_more')]

    operations = [
        migrations.RemoveField(
            model_name='item',
            name='count',
        ),
        migrations.AlterField(
            model_name='item',
            name='flag',
            field=models.BooleanField(default=True),
        ),
    ]
