from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [('remake', '0002_alter_item_name')]

    operations = [
        migrations.AlterField(
            model_name='item',
            name='note',
            field=models.CharField(blank=True, max_length=20, null=True),
        ),
        migrations.AddField(
            model_name='item',
            name='extra',
            field=models.IntegerField(default=0),
        ),
    ]
