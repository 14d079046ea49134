from django.core.management.base import BaseCommand
from rest_framework_api_key.models import APIKey


class Command(BaseCommand):
    help = ('Creates an API key for /eco/api-key/ (djangorestframework-api-key) and prints the '
            'full key ("PREFIX.SECRET") on stdout; it is shown only this once.')

    def add_arguments(self, parser):
        parser.add_argument('name', help="the key's name (free text)")

    def handle(self, *args, name, **options):
        _, key = APIKey.objects.create_key(name=name)
        self.stdout.write(key)
