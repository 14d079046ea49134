from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = []

    operations = [
        migrations.CreateModel(
            name='Item',
            fields=[
                ('id', models.AutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=50)),
                ('note', models.CharField(blank=True, max_length=20)),
                ('count', models.IntegerField(db_index=True)),
                ('flag', models.BooleanField(default=False)),
            ],
            options={
                'unique_together': {('name', 'note')},
            },
        ),
    ]
