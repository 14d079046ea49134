"""DRF's answers for an ImageField's width_field and height_field.

TestImageDimensionsAsDRF runs it with Debian's Django 3.2 / DRF 3.14 /
Pillow (python3-pil), and with the DRF 3.18 / Django 5.2 of
conformance/reference/drf318 (scripts/install-references lays it out),
through internal/drfsuite.RunDRF, and compares each answer.

It sends STEPS, multipart bodies, to generic views of a ModelSerializer
over Photo (an ImageField whose width and height fields are read-only,
editable=False) and Poster (whose are plain integer fields), on SQLite
with the files in a temporary MEDIA_ROOT, and prints each answer and the
row it leaves, then the OPTIONS of both serializers. files_dims_test.go
pins what it prints.
"""
import io
import json
import tempfile

import django
from django.conf import settings

settings.configure(
    DEBUG=True,
    SECRET_KEY="x",
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    MEDIA_URL="/media/",
    MEDIA_ROOT=tempfile.mkdtemp(),
    ALLOWED_HOSTS=["testserver"],
    USE_TZ=True,
    REST_FRAMEWORK={"DEFAULT_AUTHENTICATION_CLASSES": [], "DEFAULT_PERMISSION_CLASSES": [],
                    "UNAUTHENTICATED_USER": None},
)
django.setup()

import PIL  # noqa: E402
import rest_framework  # noqa: E402
from PIL import Image  # noqa: E402
from django.db import connection, models  # noqa: E402
from rest_framework import generics, serializers  # noqa: E402
from rest_framework.test import APIRequestFactory  # noqa: E402


class Photo(models.Model):
    title = models.CharField(max_length=50)
    image = models.ImageField(upload_to="photos/", null=True, blank=True,
                              width_field="width", height_field="height")
    width = models.PositiveIntegerField(null=True, blank=True, editable=False)
    height = models.PositiveIntegerField(null=True, blank=True, editable=False)

    class Meta:
        app_label = "shelf"


class Poster(models.Model):
    image = models.ImageField(upload_to="posters/", width_field="w", height_field="h")
    w = models.IntegerField(default=0)
    h = models.IntegerField(default=0)

    class Meta:
        app_label = "shelf"


class PhotoSerializer(serializers.ModelSerializer):
    class Meta:
        model = Photo
        fields = ["id", "title", "image", "width", "height"]


class PosterSerializer(serializers.ModelSerializer):
    class Meta:
        model = Poster
        fields = ["id", "image", "w", "h"]


def views(model, serializer):
    attrs = {"queryset": model.objects.order_by("id"), "serializer_class": serializer}
    return (generics.ListCreateAPIView.as_view(**attrs), generics.RetrieveUpdateAPIView.as_view(**attrs))


VIEWS = {"photos": views(Photo, PhotoSerializer), "posters": views(Poster, PosterSerializer)}


def image(fmt, size):
    out = io.BytesIO()
    Image.new("RGB", size, (200, 10, 10)).save(out, fmt)
    return out.getvalue()


PNG, GIF, JPEG = image("PNG", (3, 2)), image("GIF", (5, 4)), image("JPEG", (7, 3))
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


# Each step: label, method, collection, id (None for the list), parts.
STEPS = [
    ("create with a PNG", "POST", "photos", None, [("title", None, b"a"), ("image", "a.png", PNG)]),
    ("replace with a GIF", "PATCH", "photos", 1, [("image", "b.gif", GIF)]),
    ("title only", "PATCH", "photos", 1, [("title", None, b"b")]),
    ("width sent, read-only", "PATCH", "photos", 1, [("width", None, b"99")]),
    ("clear the image", "PATCH", "photos", 1, [("image", None, b"")]),
    ("create without an image", "POST", "photos", None, [("title", None, b"c")]),
    ("poster with a JPEG", "POST", "posters", None, [("image", "p.jpg", JPEG)]),
    ("poster replaced", "PUT", "posters", 1, [("image", "q.png", PNG)]),
]

BOXES = {"photos": (Photo, ["id", "title", "image", "width", "height"]), "posters": (Poster, ["id", "image", "w", "h"])}


def step(label, method, collection, pk, parts):
    raw = body(parts)
    path = "/%s/" % collection if pk is None else "/%s/%d/" % (collection, pk)
    req = APIRequestFactory().generic(method, path, raw, content_type="multipart/form-data; boundary=" + BOUNDARY)
    listing, detail = VIEWS[collection]
    resp = listing(req) if pk is None else detail(req, pk=pk)
    model, cols = BOXES[collection]
    rows = [[str(v) if isinstance(v, models.fields.files.FieldFile) else v for v in r]
            for r in model.objects.order_by("id").values_list(*cols)]
    return {"label": label, "method": method, "path": path, "body": raw.decode("latin-1"),
            "status": resp.status_code, "answer": resp.data, "rows": rows}


with connection.schema_editor() as editor:
    editor.create_model(Photo)
    editor.create_model(Poster)

steps = [step(*s) for s in STEPS]
options = {}
for name, (listing, _) in VIEWS.items():
    resp = listing(APIRequestFactory().options("/%s/" % name))
    options[name] = resp.data["actions"]["POST"]

print(json.dumps({
    "versions": {"drf": rest_framework.VERSION, "django": django.get_version(), "pillow": PIL.__version__},
    "steps": steps,
    "options": options,
}, indent=1))
