"""Prints, as JSON, the answers of Python and Django that codec_test.go,
query_test.go and multipart_test.go hold the package to: codecs.lookup()
names, decoding with each kind of codec (bytes.decode strict and "replace",
codecs.getreader's read()), Django's QueryDict, cgi.parse_header and
Django's MultiPartParser. The tests run it (readGolden, through
internal/drfsuite/pyrun) with Debian 12's Python 3.11 and Django 3.2, the
reference's:

    /usr/bin/python3 internal/pycompat/testdata/golden.py
"""
import cgi
import codecs
import hashlib
import io
import json
import random
import sys

from django.conf import settings

settings.configure()
from django.core.exceptions import TooManyFieldsSent, TooManyFilesSent  # noqa: E402
from django.core.files.uploadhandler import MemoryFileUploadHandler, TemporaryFileUploadHandler  # noqa: E402
from django.http import QueryDict  # noqa: E402
from django.http.multipartparser import MultiPartParser, MultiPartParserError  # noqa: E402

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



def multipart(content_type, body):
    meta = {'CONTENT_TYPE': content_type, 'CONTENT_LENGTH': str(len(body))}
    try:
        parser = MultiPartParser(meta, io.BytesIO(body), [MemoryFileUploadHandler(), TemporaryFileUploadHandler()],
                                 content_type.partition('charset=')[2] or None)
        post, files = parser.parse()
    except (MultiPartParserError, TooManyFieldsSent, TooManyFilesSent) as e:
        return {'error': type(e).__name__ + ': ' + str(e)}
    return {'fields': [[k, v] for k, vs in post.lists() for v in vs],
            'files': [[k, f.name, f.content_type, hashlib.sha256(f.read()).hexdigest()] for k, fs in files.lists() for f in fs]}


# Bodies as segments: [hex, times].
MP = 'multipart/form-data; boundary=B'


def part(name, value, extra=b''):
    return b'--B\r\nContent-Disposition: form-data; name="' + name + b'"\r\n' + extra + b'\r\n' + value + b'\r\n'


good = part(b'a', b'1') + part(b'b', b'2') + b'--B--\r\n'
bodies = [
    (MP, [good]), (MP, [b'hello']), (MP, [b'']), (MP, [b'--B']), (MP, [b'--B--\r\n']), ('multipart/form-data', [good]),
    ('multipart/form-data; boundary=', [good]), ('multipart/form-data; boundary="B"', [good]),
    ('multipart/form-data; boundary=' + 'x' * 201, [good]), ('multipart/form-data; boundary=' + 'x' * 202, [good]),
    ('multipart/form-data; boundary="B "', [good]), ('multipart/form-data; boundary=B; boundary=C', [good]),
    ("multipart/form-data; boundary*=utf-8''B%0A", [good]), ('Multipart/form-data; boundary=B', [good]),
    ('multipart/form-data; boundary=\xe9', [good]), ('multipart/mixed; boundary=B', [good]),
    (MP, [good[:-9]]), (MP, [b'preamble\r\n', good]), (MP, [b'--B\nContent-Disposition: form-data; name="a"\n\n1\n--B--']),
    (MP, [b'--B\r\nContent-Disposition: form-data; name="a"\r\nContent-Transfer-Encoding: BASE64\r\n\r\nYWxpY2U=\r\n--B--']),
    (MP, [b'--B\r\nContent-Disposition: form-data; name="a"\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!\r\n--B--']),
    (MP, [b'--B\r\nContent-Disposition: form-data; name="a"\r\nContent-Transfer-Encoding: base64\r\n\r\nYWxpY2\r\n--B--']),
    (MP, [b'--B\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!\r\n--B--']),
    (MP, [b'--B\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\nContent-Transfer-Encoding: base64\r\n\r\nYWxp Y2U=\r\n--B--']),
    (MP, [b'--B\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\nContent-Transfer-Encoding: base64\r\n\r\n',
          b'cXFx', 30000, b'\r\n--B--']),
    (MP, [b'--B\r\nContent-Disposition: form-data; name="f"; filename="dir/x\\\\a &amp; b.txt"\r\nContent-Type: Text/Plain; charset=x\r\n\r\nabc\r\n--B--']),
    (MP, [b'--B\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nabc\r\n--B']),
    (MP, [b'--B\r\nContent-Disposition: form-data; name="f"; filename="&#46;&#46;"\r\n\r\nabc\r\n--B--']),
    (MP, [b'--B\r\nContent-Disposition: form-data; name="f"; filename=""\r\n\r\nabc\r\n--B--']),
    (MP, [b'--B\r\nX: y\r\n\r\n1\r\n--B\r\nContent-Disposition: form-data\r\n\r\n2\r\n--B\r\nContent-Disposition : form-data; name="c"\r\n\r\n3\r\n--B--']),
    (MP, [b'--B\r\ncontent-disposition: FORM-DATA; NAME= " a " \r\n\r\n1\r\n--B--']),
    (MP, [b"--B\r\nContent-Disposition: form-data; name*=UTF-8''%C3%A9%20\r\n\r\n1\r\n--B--"]),
    (MP, [b"--B\r\nContent-Disposition: form-data; name*=latin-1''%E9\r\n\r\n1\r\n--B--"]),
    (MP, [b"--B\r\nContent-Disposition: form-data; name*=a'b'c'd\r\n\r\n1\r\n--B--"]),
    (MP, [b'--B\r\nContent-Disposition: form-data; name="a;b"; x="y\r\n\r\n1\r\n--B--']),
    (MP, [b'--B\r\nContent-Disposition: form-data; n\xe9="x"; name="a"\r\n\r\n1\r\n--B--']),
    (MP, [b'--B\r\nContent-Disposition: form-data; name="\xe9"\r\n\r\n\xe9\r\n--B--']),
    (MP + '; charset=latin-1', [b'--B\r\nContent-Disposition: form-data; name="\xe9"\r\n\r\n\xe9\r\n--B--']),
    (MP + '; charset=utf-16', [good]),
    (MP, [b'--B\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r--B\r\nContent-Disposition: form-data; name="b"\r\n\r\n2\n--B--']),
    (MP, [b'--B--B--B']), (MP, [b'xx--B\r\nContent-Disposition: form-data; name="a"\r\n\r\nx--B--']),
    (MP, [b'x', 70000, b'\r\n', good]),
    (MP, [b'--B\r\n', b'x', 70000, b'\r\n', good]),
    (MP, [b'--B\r\nX: y\r\n\r\n', b'y', 65536 - 200, b'\r\n\r\n--junk\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--B--']),
    # A part Django skips unread is read again from where its reading
    # stopped: the end of the first 64 KiB chunk less the separator and six.
    (MP, [b'--B\r\nX: y\r\n\r\n', b'y', 65536 - 22, b'\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--B--']),
    (MP, [b'--B\r\nX: y\r\n\r\n', b'y', 65536 - 21, b'\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--B--']),
    (MP, [b'--B\r\nX: y\r\n\r\n', b'y', 65536 - 23, b'\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--B--']),
    (MP, [b'--B\r\nX: y\r\n\r\n', b'y', 2 * 65536 - 22, b'\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--B--']),
    (MP, [b'--B\r\nX: y\r\n\r\n', b'y', 65536 - 49, b'\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--B--']),
    (MP, [b'--B\r\nX: y\r\n\r\n', b'y', 32768 - 22, b'\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--B--']),
    (MP, [b'--B\r\nContent-Disposition: form-data; name="f"; filename="/"\r\n\r\n', b'z', 200000,
          b'\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--B--']),
    (MP, [b'--B\r\nContent-Disposition: form-data; name="f"; filename="big"\r\n\r\n', b'0123456789', 20000, b'\r\n--B--']),
    (MP, [b'--B\r\n', b'H', 1030, b'\r\n\r\n', good]),
    (MP, [part(b'a', b'1', b'X-Pad: ' + b'p' * 1000 + b'\r\n'), b'--B--']),
    (MP, [part(b'f', b'v'), 1001, b'--B--']), (MP, [part(b'f', b'v'), 1000, b'--B--']),
    (MP, [b'--B\r\nContent-Disposition: form-data; name="f"; filename="a"\r\n\r\nv\r\n', 101, b'--B--']),
    (MP, [b'--B\r\nContent-Disposition: form-data; name="f"; filename="a"\r\n\r\nv\r\n', 100, b'--B--']),
]
palette = [b'--B', b'\r\n', b'\r\n\r\n', b'Content-Disposition: form-data; name="a"', b'; filename="f"', b'1', b'x',
           b'\n', b'\r', b'-', b'Content-Transfer-Encoding: base64', b'YQ==', b';', b'"', b'Content-Type: t']
for _ in range(60):
    bodies.append((MP, [b''.join(rng.choice(palette) for _ in range(rng.randrange(1, 25)))]))
multiparts = []
for ct, segments in bodies:
    body, spec = b'', []
    for seg in segments:
        if isinstance(seg, int):
            body += spec[-1][0] * (seg - 1)
            spec[-1][1] = seg
        else:
            body += seg
            spec.append([seg, 1])
    multiparts.append({'contentType': ct.encode('latin-1').hex(), 'body': [[b.hex(), n] for b, n in spec],
                       'answer': multipart(ct, body)})

modules = {m: codecs.lookup(m).name for m in MODULES}
json.dump({'python': '%d.%d.%d' % sys.version_info[:3], 'modules': modules,
           'lookups': [{'label': l.encode('latin-1').hex(), 'name': lookup(l)} for l in labels],
           'decodes': decodes, 'queries': queries, 'headers': headers, 'multiparts': multiparts},
          sys.stdout, separators=(',', ':'), ensure_ascii=False)
