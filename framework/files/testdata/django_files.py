"""Django's answers for framework/files' tests (files_django_test.go).

Reads a JSON object of cases on stdin and prints Django's answers as JSON:
FileSystemStorage names, available names (get_random_string fixed to
"AbC1234"), URLs, validate_file_name, get_valid_filename, the names
UploadedFile gives, the names FileField.generate_filename gives an upload
(at 2024-03-05 07:08:09.012345), and what static()'s serve view answers. Runs on
Debian's Django 3.2, or Django 5.2 with PYTHONPATH=conformance/reference/drf318.
"""
import datetime
import json
import os
import sys
import tempfile

import django
from django.conf import settings

media = tempfile.mkdtemp()
settings.configure(SECRET_KEY="files", MEDIA_ROOT=media, MEDIA_URL="/media/", DEBUG=True, USE_TZ=True,
                   ROOT_URLCONF=__name__, ALLOWED_HOSTS=["*"])
django.setup()

from django.conf.urls.static import static  # noqa: E402
from django.core.exceptions import SuspiciousFileOperation  # noqa: E402
from django.core.files.base import ContentFile  # noqa: E402
from django.core.files.storage import FileSystemStorage  # noqa: E402
from django.core.files.uploadedfile import SimpleUploadedFile  # noqa: E402
from django.core.files.utils import validate_file_name  # noqa: E402
from django.db.models import FileField  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils.text import get_valid_filename  # noqa: E402

import django.core.files.storage as storage_module  # noqa: E402
import django.db.models.fields.files as fields_module  # noqa: E402


class Now(datetime.datetime):
    @classmethod
    def now(cls, tz=None):
        return cls(2024, 3, 5, 7, 8, 9, 12345)


fields_module.datetime = type("datetime", (), {"datetime": Now})

for mod in (storage_module, sys.modules.get("django.core.files.storage.base")):
    if mod is not None and hasattr(mod, "get_random_string"):
        mod.get_random_string = lambda n: "AbC1234"

urlpatterns = static("/media/", document_root=media)


def attempt(f):
    try:
        return {"ok": f()}
    except SuspiciousFileOperation as e:
        return {"error": str(e)}


cases = json.load(sys.stdin)
out = {"saved": [], "urls": [], "validate": [], "valid": [], "uploaded": [], "serve": []}
fs = FileSystemStorage()
for c in cases["saved"]:
    out["saved"].append(attempt(lambda: fs.save(c["name"], ContentFile(b"x"), max_length=c["max_length"] or None)))
if django.VERSION >= (5, 1):
    overwriting = FileSystemStorage(location=tempfile.mkdtemp(), allow_overwrite=True)
    out["overwrite"] = [attempt(lambda: overwriting.save(c["name"], ContentFile(b"x"), max_length=c["max_length"] or None))
                        for c in cases["overwrite"]]
for name in cases["urls"]:
    out["urls"].append(fs.url(name))
for c in cases["validate"]:
    out["validate"].append(attempt(lambda: validate_file_name(c["name"], allow_relative_path=c["relative"])))
for name in cases["valid"]:
    out["valid"].append(attempt(lambda: get_valid_filename(name)))
for name in cases["uploaded"]:
    out["uploaded"].append(attempt(lambda: SimpleUploadedFile(name, b"").name))
out["generated"] = [attempt(lambda: FileField(upload_to=c["upload_to"]).generate_filename(None, c["name"]))
                    for c in cases["generated"]]

os.makedirs(os.path.join(media, "dir"), exist_ok=True)
with open(os.path.join(media, "dir", "a b.txt"), "wb") as f:
    f.write(b"hello")
with open(os.path.join(media, "dir", "\u00fc.txt"), "wb") as f:
    f.write(b"umlaut")
client = Client()
for path in cases["serve"]:
    r = client.get(path)
    body = b"".join(r.streaming_content) if r.streaming else r.content
    out["serve"].append({"status": r.status_code, "type": r.get("Content-Type"),
                         "disposition": r.get("Content-Disposition"),
                         "body": body.decode() if r.status_code == 200 else ""})
json.dump(out, sys.stdout)
