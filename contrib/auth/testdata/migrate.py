"""Runs Django's migrate (and so its post_migrate handlers) on the test's database."""
import django
from django.core.management import call_command

django.setup()
call_command("migrate", verbosity=0, interactive=False)
