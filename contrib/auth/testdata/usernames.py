"""Django's side of the username normalization tests, on the database the
Go test names (djangoperms.settings, DJANGO_DB): argv[1] is a command,
argv[2] its arguments in JSON, and the answer is JSON on stdout.

  migrate                            Django's migrate
  create_superuser {name, password}  User.objects.create_superuser
  createsuperuser {username, email}  the command, --noinput: the class of
                                     the exception that stops it, or null
  create_users {names, password}     User.objects.create_user of each name:
                                     the usernames stored
  authenticate {names, password}     django.contrib.auth.authenticate with
                                     each name: the user's username, or null
"""
import json
import os
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "djangoperms.settings")
django.setup()

from django.contrib.auth import authenticate  # noqa: E402
from django.contrib.auth.hashers import PBKDF2PasswordHasher  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402

# Cheap hashes, so that the test runs fast; Go checks any iteration count.
PBKDF2PasswordHasher.iterations = 1000


def createsuperuser(args):
    try:
        call_command("createsuperuser", interactive=False, username=args["username"], email=args["email"], verbosity=0)
    except Exception as e:  # the test compares what stopped it
        return type(e).__name__
    return None


def main():
    cmd = sys.argv[1]
    args = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
    if cmd == "migrate":
        call_command("migrate", verbosity=0, interactive=False)
        answer = None
    elif cmd == "create_superuser":
        answer = User.objects.create_superuser(args["name"], "", args["password"]).username
    elif cmd == "createsuperuser":
        answer = createsuperuser(args)
    elif cmd == "create_users":
        answer = [User.objects.create_user(n, "", args["password"]).username for n in args["names"]]
    elif cmd == "authenticate":
        answer = []
        for n in args["names"]:
            u = authenticate(username=n, password=args["password"])
            answer.append(u.username if u else None)
    else:
        raise SystemExit("unknown command " + cmd)
    json.dump(answer, sys.stdout)


main()
