"""DRF's answers for the FileField and ImageField of framework/serializers.

TestFileFieldsAsDRF runs it with Debian's Django 3.2 / DRF 3.14 / Pillow
(python3-pil), and with the DRF 3.18 / Django 5.2 of
conformance/reference/drf318 (scripts/install-references lays it out),
through internal/drfsuite.RunDRF, and compares each answer.

It prints, as JSON, the versions and, for each case of CASES, the raw
multipart/form-data body sent (base64), whether the validation is
partial, and the errors of UploadSerializer or the names and sizes of the
files it validated; then the representations of a model's file fields,
the OPTIONS of both serializers and UploadSerializer's OpenAPI schema. files_drf_test.go pins what it
prints.
"""
import base64
import io
import json
import struct
import warnings
import zlib

import django
from django.conf import settings

settings.configure(
    DEBUG=True,
    SECRET_KEY="x",
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    MEDIA_URL="/media/",
    ALLOWED_HOSTS=["testserver"],
    USE_TZ=True,
)
django.setup()

import PIL  # noqa: E402
import rest_framework  # noqa: E402
from PIL import Image  # noqa: E402
from django.db import models  # noqa: E402
from rest_framework import serializers  # noqa: E402
from rest_framework.metadata import SimpleMetadata  # noqa: E402
from rest_framework.parsers import JSONParser, MultiPartParser  # noqa: E402
from rest_framework.request import Request  # noqa: E402
from rest_framework.schemas.openapi import AutoSchema  # noqa: E402
from rest_framework.test import APIRequestFactory  # noqa: E402

# Pillow warns of an image over MAX_IMAGE_PIXELS and refuses one over twice
# that; Django takes what Pillow only warns of.
warnings.simplefilter("ignore", Image.DecompressionBombWarning)


class UploadSerializer(serializers.Serializer):
    file = serializers.FileField(max_length=20)
    image = serializers.ImageField(required=False)
    doc = serializers.FileField(required=False, allow_empty_file=True, allow_null=True)


class Book(models.Model):
    title = models.CharField(max_length=50)
    attachment = models.FileField(upload_to="files/%Y/")
    cover = models.ImageField(upload_to="covers/", blank=True, null=True)

    class Meta:
        app_label = "shelf"


class BookSerializer(serializers.ModelSerializer):
    class Meta:
        model = Book
        fields = ["title", "attachment", "cover"]


class NameSerializer(serializers.ModelSerializer):
    attachment = serializers.FileField(use_url=False)

    class Meta:
        model = Book
        fields = ["attachment", "cover"]


def image(fmt, size=(3, 2)):
    out = io.BytesIO()
    Image.new("RGB", size, (200, 10, 10)).save(out, fmt)
    return out.getvalue()


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_of(width, height):
    """A PNG whose header says width x height, with one row of data."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) +
            chunk(b"IDAT", zlib.compress(b"\x00" * 9)) + chunk(b"IEND", b""))


PNG = image("PNG")
BAD_CRC = PNG[:-5] + bytes([PNG[-5] ^ 1]) + PNG[-4:]
IMAGES = {
    "png": PNG,
    "jpeg": image("JPEG"),
    "gif": image("GIF"),
    "webp": image("WEBP"),
    "text": b"this is no image",
    "truncated png": PNG[:40],
    "png without its end": PNG[:-12],
    "png with a bad checksum": BAD_CRC,
    "jpeg header only": image("JPEG")[:20],
    "png over MAX_IMAGE_PIXELS": png_of(10000, 10000),
    "png over twice MAX_IMAGE_PIXELS": png_of(20000, 20000),
    "empty png": b"",
}

BOUNDARY = "BoUnDaRy"


def body(parts):
    out = b""
    for name, filename, content in parts:
        out += b"--" + BOUNDARY.encode() + b"\r\n"
        if filename is None:
            out += b'Content-Disposition: form-data; name="%s"\r\n\r\n' % name.encode()
        else:
            out += (b'Content-Disposition: form-data; name="%s"; filename="%s"\r\n'
                    b"Content-Type: application/octet-stream\r\n\r\n" % (name.encode(), filename.encode()))
        out += content + b"\r\n"
    return out + b"--" + BOUNDARY.encode() + b"--\r\n"


TXT = ("file", "a.txt", b"hello")
CASES = [
    ("valid", False, [TXT]),
    ("missing", False, []),
    ("missing, partial", True, []),
    ("not a file", False, [("file", None, b"a.txt")]),
    ("blank text", False, [("file", None, b"")]),
    ("no file chosen", False, [("file", "", b"")]),
    ("empty", False, [("file", "a.txt", b"")]),
    ("name of 20", False, [("file", "x" * 16 + ".txt", b"hi")]),
    ("name of 25", False, [("file", "x" * 21 + ".txt", b"hi")]),
    ("empty allowed", False, [TXT, ("doc", "d.txt", b"")]),
    ("doc cleared", True, [("doc", None, b"")]),
    ("image blank", True, [("image", None, b"")]),
    ("image not a file", True, [("image", None, b"x")]),
]
for label, content in IMAGES.items():
    CASES.append(("image: " + label, True, [("image", "i.png", content)]))


def answer(label, partial, parts):
    raw = body(parts)
    factory = APIRequestFactory()
    req = Request(factory.generic("POST", "/", raw, content_type="multipart/form-data; boundary=" + BOUNDARY),
                  parsers=[MultiPartParser()])
    s = UploadSerializer(data=req.data, partial=partial)
    out = {"label": label, "partial": partial, "body": base64.b64encode(raw).decode()}
    if s.is_valid():
        out["data"] = {k: (None if v is None else [v.name, v.size]) for k, v in s.validated_data.items()}
    else:
        out["errors"] = s.errors
    return out


def json_answer(data):
    factory = APIRequestFactory()
    raw = json.dumps(data)
    req = Request(factory.generic("POST", "/", raw, content_type="application/json"), parsers=[JSONParser()])
    s = UploadSerializer(data=req.data, partial=True)
    return {"body": raw, "valid": s.is_valid(), "errors": s.errors}


def representations():
    req = Request(APIRequestFactory().get("/books/"))
    book = Book(title="t", attachment="files/2024/a b.txt", cover="")
    nocover = Book(title="t", attachment="files/x.txt", cover=None)
    return {
        "with request": BookSerializer(book, context={"request": req}).data,
        "without request": BookSerializer(book).data,
        "no cover": BookSerializer(nocover, context={"request": req}).data,
        "names": NameSerializer(Book(attachment="files/a b.txt", cover="covers/c.png"), context={"request": req}).data,
    }


print(json.dumps({
    "versions": {"drf": rest_framework.VERSION, "django": django.get_version(), "pillow": PIL.__version__},
    "cases": [answer(*c) for c in CASES],
    "json": [json_answer(d) for d in [{"file": "a.txt"}, {"file": None}, {"file": ""}, {"doc": None}, {"file": 1}]],
    "representations": representations(),
    "options": SimpleMetadata().get_serializer_info(UploadSerializer()),
    "model_options": SimpleMetadata().get_serializer_info(BookSerializer()),
    "openapi": AutoSchema().map_serializer(UploadSerializer()),
}, indent=1))
