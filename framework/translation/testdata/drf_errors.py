"""Sends requests to the DRF reference of the sample's contract (conformance/reference), and
to /gadgets/ (testdata/gadgets: a unique field, choices, a foreign key), with
Django's LocaleMiddleware added where Django's documentation puts it (after
SessionMiddleware), through Django's test client, and prints each answer's status, body,
Content-Language and Vary as JSON. Reads from stdin {"before": [requests], "requests":
[requests]}, a request being {"method", "path", "body", "headers": {name: value}}; the
"before" ones (to use up a throttle) are sent first and not reported. The database is a
fresh SQLite file with the reference's demo data."""
import io
import json
import os
import sys
import tempfile
from pathlib import Path

reference = Path(__file__).resolve().parents[3] / 'conformance' / 'reference'
sys.path.insert(0, str(reference))
tmp = tempfile.mkdtemp(prefix='drf-locale.')
os.environ['REFERENCE_DB'] = os.path.join(tmp, 'db.sqlite3')
os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'

import django  # noqa: E402
from django.conf import settings  # noqa: E402

middleware = list(settings.MIDDLEWARE)
middleware.insert(middleware.index('django.contrib.sessions.middleware.SessionMiddleware') + 1,
                  'django.middleware.locale.LocaleMiddleware')
settings.MIDDLEWARE = middleware
sys.path.insert(0, str(Path(__file__).resolve().parent))
settings.INSTALLED_APPS = list(settings.INSTALLED_APPS) + ['gadgets']
settings.ROOT_URLCONF = 'gadgets.urls'
django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

call_command('migrate', run_syncdb=True, verbosity=0)
call_command('seed', stdout=io.StringIO())

spec = json.load(sys.stdin)
client = Client(REMOTE_ADDR='127.0.0.1', HTTP_HOST='127.0.0.1')


def send(r):
    extra = {'HTTP_' + k.upper().replace('-', '_'): v for k, v in r.get('headers', {}).items()}
    kwargs = dict(path=r['path'], data=r.get('body', ''), content_type='application/json', **extra)
    return client.generic(r['method'], **kwargs)


for r in spec['before']:
    send(r)
out = []
for r in spec['requests']:
    resp = send(r)
    out.append({'status': resp.status_code, 'body': resp.content.decode(),
                'content_language': resp.headers.get('Content-Language', ''),
                'vary': resp.headers.get('Vary', '')})
json.dump(out, sys.stdout, ensure_ascii=False)
