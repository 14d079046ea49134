"""Writes python.json, the answers of Python and Django that codec_test.go
and query_test.go hold the package to: codecs.lookup() names, decoding with
each kind of codec (bytes.decode strict and "replace", codecs.getreader's
read()), Django's QueryDict and cgi.parse_header. Run it with Debian 12's
Python 3.11 and Django 3.2, the reference's:

    cd internal/pycompat/testdata && /usr/bin/python3 golden.py
"""
import cgi
import codecs
import io
import json
import random
import sys

from django.conf import settings

settings.configure()
from django.http import QueryDict  # noqa: E402

rng = random.Random(27)

MODULES = ['utf_8', 'utf_8_sig', 'utf_16', 'utf_16_le', 'utf_16_be', 'utf_32',
           'utf_32_le', 'utf_32_be', 'latin_1', 'ascii', 'cp1252', 'koi8_r', 'cp1255']


def err(e):
    return {'error': str(e)}


def text(s):
    return {'text': s}


def lookup(label):
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None


labels = ['utf-8', 'UTF-8', 'utf8', 'U8', 'UTF', 'utf_8', ' utf-8 ', 'utf--8', 'UTF 8', 'utf.8',
          'utf_8.', 'x-utf-8', 'utf-8-sig', 'UTF-8-SIG', 'utf_8_sig', 'utf-16', 'UTF16', 'UTF16LE',
          'utf-16le', 'utf_16_le', 'UTF-16BE', 'unicodelittleunmarked', 'utf-32', 'utf-32-le',
          'UTF-32BE', 'u32', 'latin-1', 'latin1', 'Latin', 'ISO-8859-1', 'iso8859-1', 'iso_8859-1:1987',
          'l1', 'cp819', '8859', 'ascii', 'US-ASCII', '646', 'ANSI_X3.4-1968', 'iso646.us', 'cp1252',
          'windows-1252', 'WINDOWS_1252', '1252', 'koi8-r', 'KOI8_U', 'iso-8859-15', 'latin9', 'L9',
          'cp437', 'IBM437', 'macroman', 'mac-roman', 'tis-620', 'cp1255', 'shift_jis', 'gb2312',
          'utf-7', 'cp500', 'rot13', 'base64', 'aliases', 'normalize_encoding', '', '-', 'utf\xe98',
          'utf\xb28', '\xe9utf-8', 'utf\xa08', 'utf8\xd7', 'iso8859.1', 'iso.8859.1', 'iso_ir_100',
          'csISOLatin1', 'unicode-1-1-utf-8', 'utf-8 ;', 'ucs-2', 'ucs2', 'cp65001']
for m in MODULES:
    labels.append(m)

base = [b'', b'{}', b'ascii text', b'caf\xc3\xa9', b'\xe2\x82\xac', b'\xf0\x9f\x98\x80', b'a\xe2\x82x',
        b'a\xe2\x82', b'\xed\xa0\x80', b'\xf0\x9f\x98', b'\xff', b'\xef\xbb\xbfa\xff', b'\xef\xbb\xbf{}',
        b'\xef\xbb', b'\xc0\xaf', b'\xf4\x90\x80\x80', b'\xff\xfe{\x00', b'\xfe\xff\x00{', b'{\x00}',
        b'\xff\xfe{\x00}', b'\x00\xd8a\x00', b'\x00\xdc', b'\x00\xd8', b'\x00\xd8a', b'\xff\xfe\x00\xd8a',
        b'=\xd8\x00\xde', b'\xd8=\xde\x00', b'{\x00\x00\x00', b'\xff\xfe\x00\x00{\x00\x00\x00',
        b'\x00\x00\xfe\xff\x00\x00\x00{', b'\x00\xd8\x00\x00', b'\x00\x00\x11\x00', b'{\x00\x00', b'ab',
        b'a\x81b', b'\x80\x81\x8d', b'\xa4\xbd\xfe']
alphabet = b'\x00\x10Aa{\x7f\x80\x81\x82\x8d\x98\x9f\xa0\xac\xbb\xbf\xc3\xd8\xdc\xde\xe2\xed\xef\xf0\xf4\xfe\xff'
for _ in range(60):
    base.append(bytes(rng.choice(alphabet) for _ in range(rng.randrange(0, 11))))

decodes = []
for m in MODULES:
    for b in base:
        try:
            strict = text(b.decode(m))
        except UnicodeError as e:
            strict = err(e)
        try:
            stream = text(codecs.getreader(m)(io.BytesIO(b)).read())
        except UnicodeError as e:
            stream = err(e)
        decodes.append({'codec': m, 'hex': b.hex(), 'strict': strict,
                        'replace': b.decode(m, 'replace'), 'stream': stream})

raws = [b'', b'a=1', b'page=3', b'format=%zz', b'version=v2%zz', b'a=1;b=2', b'a=1&b=2&a=3', b'a+b=c+d',
        b'a=%2B', b'a', b'a&b=', b'=x', b'&&a=1&&', b'%=%', b'a=%4', b'a=%41%4', b'a=%%41', b'a=%E2%82%AC',
        b'a=%E2%82', b'a=%FF', b'a=%ED%A0%80', b'a=caf\xc3\xa9', b'a=caf\xe9', b'a=\xe9%E9', b'a=%C3\xe9%A9',
        b'%E2%82%AC=1', b'a=x=y', b'a==', b'a=b%00c', b'a=%0D%0A', b'x=%zz&page=%zz', b'a=%c3%a9+b',
        b'a=%E9', b'f\x00o=1', b'ab=cd', b'a=%62', b'abcd=e%41']
qalphabet = ['%', '2', 'B', 'a', '=', '&', '+', ';', 'E', '9', 'C', '3', 'A', 'F', '\xe9', '\xff', 'z',
             '0', 'D', '8', '%E2', '%82', '%AC', '%C3', '%A9', '\xc3\xa9']
for _ in range(60):
    raws.append(''.join(rng.choice(qalphabet) for _ in range(rng.randrange(0, 12))).encode('latin-1'))

queries = []
for enc in ['utf-8', 'latin-1', 'utf-16', 'cp1252', 'ascii']:
    for raw in raws:
        queries.append({'encoding': enc, 'hex': raw.hex(),
                        'pairs': [[k, v] for k, vs in QueryDict(raw, encoding=enc).lists() for v in vs]})

lines = ['application/json', 'application/json; charset=utf-16', 'Application/JSON ;  CHARSET = "utf-8" ',
         'text/plain; charset="a;b"; x=1', 'a; charset=x; charset=y', 'a; charset', 'a;; ;charset=;',
         'a; q="\\"x;y\\""; charset=latin-1', 'a; b="x\\\\"; charset=c', 'multipart/form-data; boundary=xyz',
         'a;b=\'x\'', ' a ; b = " c " ', 'a\xa0; b=\x85c\xa0', '"a;b"; c=d', 'a; b="unterminated; c=d',
         'a;', ';', '', 'a; b="x"y"; c=d', 'a; B=1; b=2']
headers = []
for line in lines:
    key, params = cgi.parse_header(line)
    headers.append({'line': line.encode('latin-1').hex(), 'key': key.encode('latin-1').hex(),
                    'params': {k.encode('latin-1').hex(): v.encode('latin-1').hex() for k, v in params.items()}})

modules = {m: codecs.lookup(m).name for m in MODULES}
json.dump({'python': '%d.%d.%d' % sys.version_info[:3], 'modules': modules,
           'lookups': [{'label': l.encode('latin-1').hex(), 'name': lookup(l)} for l in labels],
           'decodes': decodes, 'queries': queries, 'headers': headers},
          open('python.json', 'w'), separators=(',', ':'), ensure_ascii=False)
