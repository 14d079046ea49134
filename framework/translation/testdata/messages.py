"""Prints, as JSON, every message of a generated catalog (read from the path in argv[1]) as
Django formats it in English and in each language of the catalog, with gettext/ngettext
under translation.override: [{"english": ..., "translations": {code: text}}]. Arguments are
filled with sample values; plural messages once per count."""
import json
import re
import sys

import django
from django.conf import settings

settings.configure(
    INSTALLED_APPS=['django.contrib.auth', 'django.contrib.contenttypes', 'django.contrib.sessions',
                    'rest_framework', 'rest_framework.authtoken'],
    USE_I18N=True, LANGUAGE_CODE='en-us')
django.setup()
from django.utils import translation  # noqa: E402

catalog = json.load(open(sys.argv[1]))
brace = re.compile(r'\{(\w+)(?::([^{}]*))?\}')
percent = re.compile(r'%\((\w+)\)[sdr]')


def fill(text, n):
    """text with each argument set to n (a number, or for %r a quoted word)."""
    if brace.search(text):
        return brace.sub(lambda m: format(n, m.group(2) or ''), text)
    if percent.search(text):
        names = {m.group(1) for m in percent.finditer(text)}
        return text % {name: n for name in names}
    if '%s' in text or '%d' in text:
        return text % ((n,) * (text.count('%s') + text.count('%d')))
    return text


out = []
for message in catalog['messages']:
    singular = message[0]
    counts = [1, 2, 5, 21, 0] if len(message) == 3 else [7]
    for n in counts:
        if len(message) == 3:
            english = fill(singular if n == 1 else message[1], n)
        else:
            english = fill(singular, n)
        translations = {}
        for code in catalog['catalogs']:
            with translation.override(code):
                if len(message) == 3:
                    translations[code] = fill(translation.ngettext(singular, message[1], n), n)
                else:
                    translations[code] = fill(translation.gettext(singular), n)
        out.append({'english': english, 'translations': translations})
json.dump(out, sys.stdout, ensure_ascii=False)
