"""Runs Django's migrate (and so its post_migrate handlers) on the test's database."""
import os

import django
from django.core.management import call_command

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "djangoperms.settings")
django.setup()
call_command("migrate", verbosity=0, interactive=False)
