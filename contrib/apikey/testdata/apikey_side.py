"""The Django side of the API key tests, with djangorestframework-api-key's
own code: "migrate"; "create NAME" prints a new key; "check KEY" prints
True or False (APIKey.objects.is_valid)."""
import os
import sys

import django
from django.core.management import call_command

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "djangoapikey.settings")
django.setup()

from rest_framework_api_key.models import APIKey  # noqa: E402

cmd = sys.argv[1]
if cmd == "migrate":
    call_command("migrate", verbosity=0, interactive=False)
elif cmd == "create":
    _, key = APIKey.objects.create_key(name=sys.argv[2])
    print(key)
elif cmd == "check":
    print(APIKey.objects.is_valid(sys.argv[2]))
else:
    sys.exit("unknown command " + cmd)
