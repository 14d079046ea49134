# A field altered in a migration that depends on the snippets app's
# second, as one written by hand (Django's makemigrations writes no such
# dependency): sqlmigrate's state has Author's key a BigAutoField, and
# SQLite's remade books_book a bigint author_id.
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [('books', '0002_book_pages'), ('snippets', '0002_alter_author_id')]
    operations = [
        migrations.AlterField(
            model_name='book',
            name='title',
            field=models.CharField(max_length=80),
        ),
    ]
