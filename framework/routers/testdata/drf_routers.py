"""DRF's answers for the routers and generic viewsets of framework/routers.

routers_drf_test.go runs it with Debian's Django 3.2 / DRF 3.14, and with
the DRF 3.18 / Django 5.2 of conformance/reference/drf318
(scripts/install-references lays it out), through internal/drfsuite.RunDRF,
and compares each answer.

It prints, as JSON: the versions; "urls", each router's routes (regex and
name) for the configurations of ROUTERS; "default_basename", the basename
of a viewset of RouterNote; "actions", for each request of ACTION_REQUESTS
to a ModelViewSet of notes with extra actions, its status, body and the
values of self.action that get_serializer_class saw; "lookups", the
answers to LOOKUP_REQUESTS: viewsets looked up by uuid, by text__contains
and under a lookup_value_regex, and a DefaultRouter with no trailing
slash; "reverse_uuid", a detail URL by uuid, and "uuid_link", a
HyperlinkedIdentityField to it; "extra_actions", the browsable page's
Extra Actions menu by path; "existing_route", the error
of an @action named as a standard action. routers_drf_test.go pins what
it prints.
"""
import json
import sys
import types

import django
from django.conf import settings

settings.configure(
    DEBUG=False,
    SECRET_KEY="x",
    ALLOWED_HOSTS=["testserver"],
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    ROOT_URLCONF="drf_routers_urls",
    MIDDLEWARE=[],
    REST_FRAMEWORK={
        "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
        "DEFAULT_AUTHENTICATION_CLASSES": [],
        "DEFAULT_PERMISSION_CLASSES": [],
        "UNAUTHENTICATED_USER": None,
    },
)
django.setup()

import rest_framework  # noqa: E402
from django.core.exceptions import ImproperlyConfigured  # noqa: E402
from django.db import connection, models  # noqa: E402
from django.urls import resolve, reverse  # noqa: E402
from rest_framework import routers, serializers, viewsets  # noqa: E402
from rest_framework.decorators import action  # noqa: E402
from rest_framework.response import Response  # noqa: E402
from rest_framework.test import APIClient, APIRequestFactory  # noqa: E402


class RouterNote(models.Model):
    uuid = models.CharField(max_length=20)
    text = models.CharField(max_length=100)

    class Meta:
        app_label = "notes"
        db_table = "router_note"


with connection.schema_editor() as editor:
    editor.create_model(RouterNote)
RouterNote.objects.create(uuid="a1", text="hello")
RouterNote.objects.create(uuid="b2", text="world")


class NoteSerializer(serializers.ModelSerializer):
    class Meta:
        model = RouterNote
        fields = ["id", "uuid", "text"]


class TextSerializer(serializers.ModelSerializer):
    class Meta:
        model = RouterNote
        fields = ["text"]


SEEN = []


class NoteViewSet(viewsets.ModelViewSet):
    """get_serializer_class by self.action, recorded."""

    queryset = RouterNote.objects.order_by("id")

    def get_serializer_class(self):
        SEEN.append(self.action)
        if self.action == "list":
            return TextSerializer
        return NoteSerializer

    @action(detail=False)
    def recent(self, request):
        self.get_serializer()
        return Response({"action": self.action})

    @action(detail=True, methods=["put"])
    def set_password(self, request, pk=None):
        return Response({"action": self.action, "pk": pk})

    @set_password.mapping.delete
    def unset_password(self, request, pk=None):
        return Response({"action": self.action, "pk": pk})

    @action(detail=False, methods=["get", "post"])
    def both(self, request):
        return Response({"action": self.action})


class UUIDViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = RouterNote.objects.order_by("id")
    serializer_class = NoteSerializer
    lookup_field = "uuid"


class ContainsViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = RouterNote.objects.order_by("id")
    serializer_class = NoteSerializer
    lookup_field = "text__contains"


class RegexViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = RouterNote.objects.order_by("id")
    serializer_class = NoteSerializer
    lookup_value_regex = "[0-9]+"


def urls(router):
    return [[p.pattern.regex.pattern, p.name] for p in router.urls]


ROUTERS = {}
r = routers.SimpleRouter()
r.register("notes", NoteViewSet, basename="note")
ROUTERS["actions"] = r
r = routers.SimpleRouter()
r.register("uuids", UUIDViewSet, basename="uuid")
r.register("contains", ContainsViewSet, basename="contains")
r.register("regex", RegexViewSet, basename="regex")
ROUTERS["lookups"] = r
r = routers.SimpleRouter(trailing_slash=False)
r.register("notes", NoteViewSet, basename="note")
r.register("regex", RegexViewSet, basename="regex")
ROUTERS["no_trailing_slash"] = r


class RootRouter(routers.DefaultRouter):
    root_view_name = "root"
    include_format_suffixes = False


r = RootRouter()
r.register("notes", NoteViewSet, basename="note")
ROUTERS["root"] = r

r = routers.DefaultRouter(trailing_slash=False)
r.register("flat", RegexViewSet, basename="flat")
ROUTERS["default_no_trailing_slash"] = r

urlconf = types.ModuleType("drf_routers_urls")
urlconf.urlpatterns = ROUTERS["actions"].urls + ROUTERS["lookups"].urls + ROUTERS["default_no_trailing_slash"].urls
sys.modules["drf_routers_urls"] = urlconf

ACTION_REQUESTS = [
    ["GET", "/notes/"],
    ["POST", "/notes/"],
    ["OPTIONS", "/notes/"],
    ["GET", "/notes/1/"],
    ["PUT", "/notes/1/"],
    ["PATCH", "/notes/1/"],
    ["OPTIONS", "/notes/1/"],
    ["GET", "/notes/recent/"],
    ["PUT", "/notes/1/set_password/"],
    ["DELETE", "/notes/1/set_password/"],
    ["GET", "/notes/both/"],
    ["POST", "/notes/both/"],
]

LOOKUP_REQUESTS = [
    ["GET", "/uuids/b2/"],
    ["GET", "/uuids/zz/"],
    ["GET", "/contains/ell/"],
    ["GET", "/contains/orl/"],
    ["GET", "/contains/zzz/"],
    ["GET", "/regex/2/"],
    ["GET", "/regex/9/"],
    ["GET", "/regex/abc/"],
    ["GET", "/flat"],
    ["GET", "/flat/"],
    ["GET", "/flat.json"],
    ["GET", "/flat/1"],
    ["GET", "/flat/1/"],
    ["GET", "/flat/1.json"],
    ["GET", "/"],
]

client = APIClient()


def answer(method, path, data=None):
    resp = client.generic(method, path, json.dumps(data) if data is not None else "", content_type="application/json")
    body = None
    if resp.get("Content-Type", "").startswith("application/json"):
        body = json.loads(resp.content)
    return {"status": resp.status_code, "body": body}


out = {
    "versions": {"drf": rest_framework.VERSION, "django": django.get_version()},
    "urls": {name: urls(router) for name, router in ROUTERS.items()},
    "actions": [],
    "lookups": [],
}
bodies = {"POST": {"uuid": "c3", "text": "new"}, "PUT": {"uuid": "a1", "text": "hello"}, "PATCH": {"text": "hello"}}
for method, path in ACTION_REQUESTS:
    del SEEN[:]
    a = answer(method, path, bodies.get(method))
    if method == "OPTIONS":
        a["body"] = a["body"].get("actions")
    a.update(method=method, path=path, seen=list(SEEN))
    out["actions"].append(a)
for method, path in LOOKUP_REQUESTS:
    a = answer(method, path)
    a.update(method=method, path=path)
    out["lookups"].append(a)
out["reverse_uuid"] = reverse("uuid-detail", kwargs={"uuid": "b2"})


class UUIDLinkSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="uuid-detail", lookup_field="uuid")

    class Meta:
        model = RouterNote
        fields = ["url", "text"]


link_request = APIRequestFactory().get("/")
out["uuid_link"] = UUIDLinkSerializer(RouterNote.objects.get(uuid="b2"), context={"request": link_request}).data


def extra_actions(path):
    """The browsable page's Extra Actions menu of path: [name, URL]s."""
    match = resolve(path)
    req = APIRequestFactory().get(path)
    req.resolver_match = match
    view = match.func.cls(**match.func.initkwargs)
    view.setup(req, *match.args, **match.kwargs)
    view.action_map = match.func.actions
    return [[name, url] for name, url in view.get_extra_action_url_map().items()]


out["extra_actions"] = {path: extra_actions(path) for path in ["/notes/", "/notes/1/", "/notes/recent/", "/notes/1/set_password/", "/uuids/"]}
out["default_basename"] = routers.SimpleRouter().get_default_basename(UUIDViewSet)


class Existing(viewsets.ModelViewSet):
    queryset = RouterNote.objects.all()
    serializer_class = NoteSerializer

    @action(methods=["post"], detail=True)
    def retrieve(self, request, *args, **kwargs):
        return Response()

    @action(detail=False)
    def list(self, request, *args, **kwargs):
        return Response()


r = routers.SimpleRouter()
r.register("test", Existing, basename="test")
try:
    r.urls
    out["existing_route"] = None
except ImproperlyConfigured as e:
    out["existing_route"] = str(e)

json.dump(out, sys.stdout, indent=1, sort_keys=True)
print()
