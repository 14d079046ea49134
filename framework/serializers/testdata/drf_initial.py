"""DRF's answers for initial= (DRF 3.18's tests/test_fields.py TestInitial,
ported onto framework/serializers and the browsable page): what a new
item's forms start from on DRF's browsable page.

TestInitialFormsAsDRF (framework/browsable) runs it with Debian's Django
3.2 / DRF 3.14, and with the DRF 3.18 / Django 5.2 of
conformance/reference/drf318 (internal/drfsuite.RunDRF), and compares.

It prints, as JSON, the versions and, for the serializer S below (that of
the Go test's view): "data", an unbound S's data (TestInitial's
assertion); "content", the raw data form's initial text
(BrowsableAPIRenderer.get_raw_data_form's _content) for POST; "inputs",
the POST HTML form's inputs (get_rendered_html_form) by name: the value
of a text or number input, "checked"/"unchecked" for a checkbox, the
selected option's value for a select.
"""
import json
import re
import sys

import django
from django.conf import settings

settings.configure(
    DEBUG=True,
    SECRET_KEY="x",
    ROOT_URLCONF=__name__,
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True}],
)
django.setup()
urlpatterns = []

import rest_framework  # noqa: E402
from rest_framework import generics, serializers  # noqa: E402
from rest_framework.renderers import BrowsableAPIRenderer  # noqa: E402
from rest_framework.test import APIRequestFactory  # noqa: E402


class S(serializers.Serializer):
    initial_field = serializers.IntegerField(initial=123)
    blank_field = serializers.IntegerField()
    text = serializers.CharField(initial="hello")
    plain = serializers.CharField()
    flag = serializers.BooleanField(initial=True)
    off = serializers.BooleanField()
    ratio = serializers.FloatField(initial=1.5)
    pick = serializers.ChoiceField(choices=[("a", "A"), ("b", "B")], initial="b")
    nothing = serializers.IntegerField(initial=None, allow_null=True)


class V(generics.CreateAPIView):
    serializer_class = S


view = V.as_view()
request = APIRequestFactory().get("/")
response = view(request)
drf_view = response.renderer_context["view"]
drf_request = response.renderer_context["request"]
renderer = BrowsableAPIRenderer()
renderer.accepted_media_type = "text/html"
renderer.renderer_context = response.renderer_context
content = renderer.get_raw_data_form({}, drf_view, "POST", drf_request)["_content"].initial
html = renderer.get_rendered_html_form({}, drf_view, "POST", drf_request)

inputs = {}
for tag in re.findall(r"<input[^>]*>", html):
    name = re.search(r'name="([^"]*)"', tag).group(1)
    if 'type="checkbox"' in tag:
        inputs[name] = "checked" if re.search(r"\bchecked\b", tag) else "unchecked"
    else:
        inputs[name] = re.search(r'value="([^"]*)"', tag).group(1)
for name, body in re.findall(r'<select[^>]*name="([^"]*)"[^>]*>(.*?)</select>', html, re.S):
    inputs[name] = re.search(r'<option value="([^"]*)"\s*selected', body).group(1)

out = {
    "versions": {"rest_framework": rest_framework.VERSION, "django": django.get_version(),
                 "python": sys.version.split()[0]},
    "data": S().data,
    "content": content,
    "inputs": inputs,
}
json.dump(out, sys.stdout, indent=1, ensure_ascii=True)
sys.stdout.write("\n")
