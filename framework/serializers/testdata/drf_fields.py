"""DRF 3.14's answers for the serializer fields of framework/serializers.

The tests that pin it (fields_drf_test.go, and framework/schemas' and
framework/browsable's) run it with Debian's Django 3.2 / DRF 3.14,
through internal/drfsuite.RunDRF.

It prints, as JSON, the OPTIONS metadata (SimpleMetadata), the errors of
invalid input, the validated data of valid input and the browsable form
(HTMLFormRenderer) of a model serializer and a plain serializer holding
every non-relational field type (a set as a sorted list); fields_drf_test.go
pins what it prints.
"""
import json

import django
from django.conf import settings

settings.configure(
    DEBUG=True,
    SECRET_KEY="x",
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True}],
    USE_TZ=True,
)
django.setup()

from django.db import connection, models  # noqa: E402
from rest_framework import serializers  # noqa: E402
from rest_framework.metadata import SimpleMetadata  # noqa: E402
from rest_framework.renderers import HTMLFormRenderer  # noqa: E402
from rest_framework.schemas.openapi import AutoSchema  # noqa: E402

LANGUAGES = [("go", "Go"), ("python", "Python")]


class Snippet(models.Model):
    created = models.DateTimeField(auto_now_add=True)
    title = models.CharField(max_length=100, blank=True, default="")
    code = models.TextField()
    linenos = models.BooleanField(default=False)
    language = models.CharField(choices=LANGUAGES, default="python", max_length=100)
    email = models.EmailField(null=True)
    homepage = models.URLField(blank=True)
    slug = models.SlugField(unique=True)
    ip = models.GenericIPAddressField(null=True, blank=True)
    hidden = models.IntegerField(editable=False, default=0)
    rank = models.PositiveIntegerField(default=1)

    class Meta:
        app_label = "snippets"
        unique_together = [("title", "code")]


class SnippetSerializer(serializers.ModelSerializer):
    class Meta:
        model = Snippet
        fields = ["id", "created", "title", "code", "linenos", "language", "email",
                  "homepage", "slug", "ip", "hidden", "rank"]


class Extras(serializers.Serializer):
    color = serializers.ChoiceField(choices=[("red", "Red"), ("green", "Green")])
    colors = serializers.MultipleChoiceField(choices=[("red", "Red"), ("green", "Green")], required=False)
    email = serializers.EmailField()
    url = serializers.URLField(required=False)
    code = serializers.RegexField(r"^[A-Z]{3}$", required=False)
    slug = serializers.SlugField(required=False)
    ip = serializers.IPAddressField(required=False)
    tags = serializers.ListField(child=serializers.IntegerField(), required=False)
    scores = serializers.DictField(child=serializers.IntegerField(), required=False)
    words = serializers.ListField(child=serializers.CharField(max_length=3), required=False)
    note = serializers.CharField(style={"base_template": "textarea.html"}, required=False)
    shout = serializers.SerializerMethodField()
    owner = serializers.HiddenField(default=1)

    def get_shout(self, obj):
        return "hi"


def info(ser):
    return SimpleMetadata().get_serializer_info(ser)


def errors(cls, data, **kw):
    s = cls(data=data, **kw)
    if s.is_valid():
        return {"valid": json.loads(json.dumps(s.validated_data, default=lambda v: sorted(v) if isinstance(v, set) else str(v)))}
    return {"errors": s.errors}


def form(ser, data=None):
    if data is not None:
        ser = type(ser)(data=data)
        ser.is_valid()
    return str(HTMLFormRenderer().render(ser.data, renderer_context={"style": {}}))


EMAILS = ["a@b.co", "A.B+c@example.com", "a@localhost", "a@[127.0.0.1]", "a@[::1]", "a@[1.2.3]",
          '"a b"@x.org', "a@b", "a@-b.com", "a@b-.com", "a@b.c-", "a@b.c1", "a@b.123", "a..b@x.org",
          ".a@x.org", "a@x..org", "a@x.org.", "ü@x.org", "a@ü.org", "a@@x.org", "a b@x.org", "a@x.o"]
URLS = ["http://x.org", "https://x.org/p?q=1#f", "ftp://user:pw@x.org:21/", "ftps://1.2.3.4", "http://localhost",
        "http://localhost:8000/", "http://[::1]:80/", "http://[::z]/", "http://256.1.1.1", "http://x", "http://x.o",
        "http://x.org.", "http://-x.org", "http://x-.org", "http://x.xn--p1ai", "http://ü.org", "mailto:a@b.co",
        "//x.org", "http://x.org/a b", "HTTP://X.ORG", "http://x.org:1", "http://x.org:123456", "http://a.b-c.de",
        "http://1.2.3.4.5", "http://x.org\n", "http://01.2.3.4", "http://0.0.0.0", "http://10.20.30.40:8080/",
        "http://x.org/" + "a" * 2040, "http://[::1", "https://user@x.org/"]
IPS = ["1.2.3.4", "01.2.3.4", "::1", "::ffff:1.2.3.4", "2001:DB8::1", "1:2:3:4:5:6:7:8:9", "fe80::1%eth0", "1.2.3",
       " 1.2.3.4 ", "::", "0.0.0.0"]


class Texts(serializers.Serializer):
    email = serializers.EmailField()
    url = serializers.URLField()
    ip = serializers.IPAddressField()


def one(name, value):
    s = Texts(data={name: value}, partial=True)
    if s.is_valid():
        return {"valid": s.validated_data[name]}
    return {"errors": s.errors[name]}


with connection.schema_editor() as editor:
    editor.create_model(Snippet)
Snippet.objects.create(title="taken", code="x", slug="taken")

out = {
    "model_info": info(SnippetSerializer()),
    "model_repr": repr(SnippetSerializer()),
    "extras_info": info(Extras()),
    "model_errors": {
        "empty": errors(SnippetSerializer, {}),
        "bad": errors(SnippetSerializer, {
            "code": "c", "language": "cobol", "email": "nope", "homepage": "nope",
            "slug": "a b", "ip": "1.2.3", "rank": -1, "title": "t" * 101}),
        "null": errors(SnippetSerializer, {"code": None, "language": None, "email": None, "slug": None, "ip": None, "title": None}),
        "blank": errors(SnippetSerializer, {"code": "", "language": "", "email": "", "homepage": "", "slug": "", "ip": ""}),
        "unique": errors(SnippetSerializer, {"code": "x", "slug": "taken", "title": "taken"}),
        "together": errors(SnippetSerializer, {"code": "x", "slug": "fresh", "title": "taken"}),
        "good": errors(SnippetSerializer, {"code": "c", "slug": "s-1", "email": "A@Example.COM", "homepage": "http://x.org", "ip": "::ffff:1.2.3.4"}),
        "partial": errors(SnippetSerializer, {"language": "go"}, partial=True),
    },
    "extras_errors": {
        "empty": errors(Extras, {}),
        "bad": errors(Extras, {
            "color": "blue", "colors": "red", "email": "a@", "url": "ftp:/x", "code": "abc",
            "slug": "é", "ip": "x", "tags": [1, "x", 3, "y"], "scores": {"a": 1, "b": "z"},
            "words": ["abcd", "ab"]}),
        "types": errors(Extras, {"color": 1, "colors": ["red", "blue"], "email": 3, "tags": "1", "scores": [1]}),
        "nulls": errors(Extras, {"color": None, "colors": None, "email": None, "tags": None, "scores": None}),
        "blank": errors(Extras, {"color": "", "colors": [], "email": ""}),
        "good": errors(Extras, {"color": "red", "colors": ["red", "red", "green"], "email": "a@b.co",
                                "tags": ["1", 2], "scores": {"a": "3"}, "code": "ABC"}),
        "partial": errors(Extras, {"tags": [1]}, partial=True),
    },
    "emails": {v: one("email", v) for v in EMAILS},
    "urls": {v: one("url", v) for v in URLS},
    "ips": {v: one("ip", v) for v in IPS},
    "model_openapi": AutoSchema().map_serializer(SnippetSerializer()),
    "extras_openapi": AutoSchema().map_serializer(Extras()),
    "model_form": form(SnippetSerializer()),
    "model_form_filled": form(SnippetSerializer(), {"code": "a\nb", "language": "go", "email": "a@b.co", "slug": "s"}),
    "extras_form": form(Extras()),
    "extras_form_filled": form(Extras(), {"color": "green", "colors": ["red"], "email": "a@b.co", "tags": [1, 2]}),
}
print(json.dumps(out, indent=1, default=str))
