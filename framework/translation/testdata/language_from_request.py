"""Prints, as JSON, the language Django's get_language_from_request chooses for each request
read as JSON from stdin: {"language_code": ..., "languages": [codes] or null, "requests":
[{"cookie": value or null, "header": Accept-Language or null}]}. The project has the apps of
conformance/reference (so DRF's catalogs count for check_for_language); LANGUAGES null keeps
Django's own."""
import json
import sys

import django
from django.conf import settings

spec = json.load(sys.stdin)
extra = {}
if spec['languages'] is not None:
    extra['LANGUAGES'] = [(code, code) for code in spec['languages']]
settings.configure(
    INSTALLED_APPS=['django.contrib.auth', 'django.contrib.contenttypes', 'django.contrib.sessions',
                    'rest_framework', 'rest_framework.authtoken'],
    USE_I18N=True, LANGUAGE_CODE=spec['language_code'], ALLOWED_HOSTS=['*'], **extra)
django.setup()
from django.test import RequestFactory  # noqa: E402
from django.utils.translation import get_language_from_request  # noqa: E402

factory = RequestFactory()
out = []
for r in spec['requests']:
    request = factory.get('/')
    if r['header'] is not None:
        request.META['HTTP_ACCEPT_LANGUAGE'] = r['header']
    if r['cookie'] is not None:
        request.COOKIES[settings.LANGUAGE_COOKIE_NAME] = r['cookie']
    out.append(get_language_from_request(request))
json.dump(out, sys.stdout)
