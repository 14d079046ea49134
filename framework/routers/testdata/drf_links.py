"""DRF's links for requests with a format suffix, for links_drf_test.go.

Run with Debian's Django 3.2 / DRF 3.14, and with the DRF 3.18 / Django
5.2 of conformance/reference/drf318 (PYTHONPATH); the test runs it at
each level and compares:

    /usr/bin/python3 framework/routers/testdata/drf_links.py < requests.json
    PYTHONPATH=conformance/reference/drf318 /usr/bin/python3 framework/routers/testdata/drf_links.py < requests.json

A DefaultRouter (format suffixes included) registers "owners", a
ReadOnlyModelViewSet of LinkOwner, and "items", a ModelViewSet of
LinkItem with pages of two, whose HyperlinkedModelSerializer has the
item's url (HyperlinkedIdentityField) and its owner's
(HyperlinkedRelatedField); "links/", under format_suffix_patterns, is
the tutorial's hand-made api_root, reversing with format=format. Stdin is a JSON list of [method, path, body]
(body null or an object sent as JSON); stdout is the list of answers:
status, the Location header, the JSON body (null when not JSON) and the
values of the options of the HTML page's selects of the owner (the
browsable forms' choices).
"""
import json
import re
import sys
import types

import django
from django.conf import settings

settings.configure(
    DEBUG=False,
    SECRET_KEY="x",
    ALLOWED_HOSTS=["testserver"],
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "django.contrib.staticfiles", "rest_framework"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    ROOT_URLCONF="drf_links_urls",
    MIDDLEWARE=[],
    STATIC_URL="/static/",
    TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True}],
    REST_FRAMEWORK={
        "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer", "rest_framework.renderers.BrowsableAPIRenderer"],
        "DEFAULT_AUTHENTICATION_CLASSES": [],
        "DEFAULT_PERMISSION_CLASSES": [],
        "UNAUTHENTICATED_USER": None,
    },
)
django.setup()

from django.db import connection, models  # noqa: E402
from django.urls import path  # noqa: E402
from rest_framework import pagination, routers, serializers, viewsets  # noqa: E402
from rest_framework.decorators import api_view  # noqa: E402
from rest_framework.response import Response  # noqa: E402
from rest_framework.reverse import reverse  # noqa: E402
from rest_framework.urlpatterns import format_suffix_patterns  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402


class LinkOwner(models.Model):
    name = models.CharField(max_length=20)

    class Meta:
        app_label = "links"
        db_table = "link_owner"

    def __str__(self):
        return self.name


class LinkItem(models.Model):
    name = models.CharField(max_length=20)
    owner = models.ForeignKey(LinkOwner, on_delete=models.CASCADE)

    class Meta:
        app_label = "links"
        db_table = "link_item"


with connection.schema_editor() as editor:
    editor.create_model(LinkOwner)
    editor.create_model(LinkItem)
for name in ["ann", "bob"]:
    LinkOwner.objects.create(name=name)
for i, name in enumerate(["a", "b", "c"]):
    LinkItem.objects.create(name=name, owner_id=i % 2 + 1)


class OwnerSerializer(serializers.HyperlinkedModelSerializer):
    class Meta:
        model = LinkOwner
        fields = ["url", "name"]


class ItemSerializer(serializers.HyperlinkedModelSerializer):
    class Meta:
        model = LinkItem
        fields = ["url", "name", "owner"]


class Pages(pagination.PageNumberPagination):
    page_size = 2


class OwnerViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = LinkOwner.objects.order_by("id")
    serializer_class = OwnerSerializer


class ItemViewSet(viewsets.ModelViewSet):
    queryset = LinkItem.objects.order_by("id")
    serializer_class = ItemSerializer
    pagination_class = Pages


@api_view(["GET"])
def links(request, format=None):
    """The tutorial's hand-made api_root: links reversed with format=format."""
    return Response({
        "owners": reverse("linkowner-list", request=request, format=format),
        "item": reverse("linkitem-detail", kwargs={"pk": 1}, request=request, format=format),
    })


router = routers.DefaultRouter()
router.register("owners", OwnerViewSet, basename="linkowner")
router.register("items", ItemViewSet, basename="linkitem")
urlconf = types.ModuleType("drf_links_urls")
urlconf.urlpatterns = router.urls + format_suffix_patterns([path("links/", links, name="links")])
sys.modules["drf_links_urls"] = urlconf

OWNER = re.compile(r'<select[^>]*name="owner"[^>]*>(.*?)</select>', re.S)
OPTION = re.compile(r'<option value="([^"]*)"')
client = APIClient()
out = []
for method, url, body in json.load(sys.stdin):
    resp = client.generic(method, url, json.dumps(body) if body is not None else "", content_type="application/json")
    ct = resp.get("Content-Type", "")
    a = {"status": resp.status_code, "location": resp.get("Location", ""), "body": None, "options": None}
    if ct.startswith("application/json"):
        a["body"] = json.loads(resp.content)
    elif ct.startswith("text/html"):
        a["options"] = [v for s in OWNER.findall(resp.content.decode()) for v in OPTION.findall(s)]
    out.append(a)
json.dump(out, sys.stdout)
print()
