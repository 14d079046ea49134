from django.core.management.base import BaseCommand, CommandError
from rest_framework_api_key.models import APIKey


class Command(BaseCommand):
    help = ('Revokes the API key with the given prefix (the part of the key before the dot; '
            'a full key is accepted too). Revocation cannot be undone.')

    def add_arguments(self, parser):
        parser.add_argument('prefix', help='the key prefix, or the full key')

    def handle(self, *args, prefix, **options):
        prefix = prefix.partition('.')[0]
        try:
            api_key = APIKey.objects.get(prefix=prefix)
        except APIKey.DoesNotExist:
            raise CommandError('No API key with prefix "%s"' % prefix)
        api_key.revoked = True
        api_key.save()
        self.stdout.write('Revoked API key "%s" (%s)' % (api_key.name, prefix))
