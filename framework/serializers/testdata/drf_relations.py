"""DRF 3.14's answers for the relational fields of framework/serializers.

The tests that pin it (relations_drf_test.go, relations_form_test.go,
relations_nested_test.go) run it with Debian's Django 3.2 / DRF 3.14,
through internal/drfsuite.RunDRF.

It prints, as JSON, the OPTIONS metadata (SimpleMetadata), the
representation, the errors of invalid input and the validated data of
valid input, and the browsable form (HTMLFormRenderer) of serializers
holding a PrimaryKeyRelatedField, a SlugRelatedField, a
HyperlinkedRelatedField, a StringRelatedField and nested serializers of a
foreign key and of a reverse relation; relations_drf_test.go pins what it prints.
"""
import json
import sys

import django
from django.conf import settings

settings.configure(
    DEBUG=True,
    SECRET_KEY="x",
    ROOT_URLCONF=__name__,
    ALLOWED_HOSTS=["*"],
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True}],
    USE_TZ=True,
)
django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.db import connection, models  # noqa: E402
from django.urls import include, path  # noqa: E402
from rest_framework import serializers  # noqa: E402
from rest_framework.metadata import SimpleMetadata  # noqa: E402
from rest_framework.renderers import HTMLFormRenderer  # noqa: E402
from rest_framework.request import Request  # noqa: E402
from rest_framework.test import APIRequestFactory  # noqa: E402
from rest_framework.versioning import NamespaceVersioning, URLPathVersioning  # noqa: E402


def view(request, **kw):
    return None


users = [path("users/<int:pk>/", view, name="user-detail")]
urlpatterns = [
    path("users/<int:pk>/", view, name="user-detail"),
    path("snippets/<int:pk>/", view, name="snippet-detail"),
    path("ns1/", include((users, "v1"), namespace="v1")),
    path("ns2/", include((users, "v2"), namespace="v2")),
    path("<str:version>/users/<int:pk>/", view, name="user-detail"),
]


class Snippet(models.Model):
    title = models.CharField(max_length=100)
    owner = models.ForeignKey(User, on_delete=models.CASCADE, related_name="snippets")
    reviewer = models.ForeignKey(User, on_delete=models.SET_NULL, null=True, related_name="reviews")

    class Meta:
        app_label = "snippets"


class PK(serializers.ModelSerializer):
    class Meta:
        model = Snippet
        fields = ["id", "title", "owner", "reviewer"]


class Slug(serializers.ModelSerializer):
    owner = serializers.SlugRelatedField(slug_field="username", queryset=User.objects.all())
    reviewer = serializers.SlugRelatedField(slug_field="username", queryset=User.objects.all(), allow_null=True,
                                            required=False)

    class Meta:
        model = Snippet
        fields = ["id", "title", "owner", "reviewer"]


class Link(serializers.ModelSerializer):
    owner = serializers.HyperlinkedRelatedField(view_name="user-detail", queryset=User.objects.all())
    reviewer = serializers.HyperlinkedRelatedField(view_name="user-detail", queryset=User.objects.all(),
                                                   allow_null=True, required=False)

    class Meta:
        model = Snippet
        fields = ["id", "title", "owner", "reviewer"]


class Owner(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ["id", "username", "email"]


class ReadOnlys(serializers.ModelSerializer):
    owner = serializers.StringRelatedField()
    owner_email = serializers.ReadOnlyField(source="owner.email")
    reviewer = Owner(read_only=True)
    snippets = serializers.PrimaryKeyRelatedField(source="owner.snippets", many=True, read_only=True)

    class Meta:
        model = Snippet
        fields = ["id", "title", "owner", "owner_email", "reviewer", "snippets"]


class SnippetSummary(serializers.ModelSerializer):
    class Meta:
        model = Snippet
        fields = ["id", "title"]


class UserNested(serializers.ModelSerializer):
    snippets = SnippetSummary(many=True, read_only=True)

    class Meta:
        model = User
        fields = ["id", "username", "snippets"]


class UserLinks(serializers.ModelSerializer):
    snippets = serializers.HyperlinkedRelatedField(view_name="snippet-detail", many=True, read_only=True)

    class Meta:
        model = User
        fields = ["id", "username", "snippets"]


factory = APIRequestFactory()


def request(url="/", versioning=None, version=None):
    r = Request(factory.get(url, HTTP_HOST="testserver"))
    if versioning is not None:
        r.versioning_scheme, r.version = versioning, version
    return r


def info(ser):
    return SimpleMetadata().get_serializer_info(ser)


def errors(cls, data, **kw):
    s = cls(data=data, context={"request": request()}, **kw)
    if s.is_valid():
        return {"valid": {k: getattr(v, "pk", v) for k, v in s.validated_data.items()}}
    return {"errors": s.errors}


def form(ser):
    return str(HTMLFormRenderer().render(ser.data, renderer_context={"style": {}}))


def link(url, versioning=None, version=None):
    f = serializers.HyperlinkedRelatedField(view_name="user-detail", queryset=User.objects.all())
    f._context = {"request": request("/", versioning, version)}
    try:
        return {"valid": f.to_internal_value(url).pk}
    except serializers.ValidationError as e:
        return {"errors": e.detail}


def ns_link(url, version):
    f = serializers.HyperlinkedRelatedField(view_name="user-detail", queryset=User.objects.all())
    f._context = {"request": request("/", NamespaceVersioning(), version)}
    try:
        return {"valid": f.to_internal_value(url).pk}
    except serializers.ValidationError as e:
        return {"errors": e.detail}


with connection.schema_editor() as editor:
    editor.create_model(User)
    editor.create_model(Snippet)
ann = User.objects.create(username="ann", email="ann@x.org")
bob = User.objects.create(username="bob", email="bob@x.org")
Snippet.objects.create(title="one", owner=ann, reviewer=bob)
Snippet.objects.create(title="two", owner=bob)

PK_INPUTS = {
    "good": {"title": "t", "owner": 1, "reviewer": 2},
    "text": {"title": "t", "owner": "1", "reviewer": "2"},
    "missing": {"title": "t", "owner": 99, "reviewer": "98"},
    "types": {"title": "t", "owner": "abc", "reviewer": True},
    "lists": {"title": "t", "owner": [1], "reviewer": {"a": 1}},
    "float": {"title": "t", "owner": 1.5, "reviewer": "1.5"},
    "nulls": {"title": "t", "owner": None, "reviewer": None},
    "blank": {"title": "t", "owner": "", "reviewer": ""},
    "empty": {},
}
SLUG_INPUTS = {
    "good": {"title": "t", "owner": "ann", "reviewer": "bob"},
    "missing": {"title": "t", "owner": "zed", "reviewer": "ANN"},
    "types": {"title": "t", "owner": 1, "reviewer": True},
    "lists": {"title": "t", "owner": ["ann"], "reviewer": {"a": 1}},
    "nulls": {"title": "t", "owner": None, "reviewer": None},
    "blank": {"title": "t", "owner": "", "reviewer": ""},
    "empty": {},
}
LINK_INPUTS = {
    "good": {"title": "t", "owner": "http://testserver/users/1/", "reviewer": "/users/2/"},
    "missing": {"title": "t", "owner": "http://testserver/users/99/", "reviewer": "/users/98/"},
    "nomatch": {"title": "t", "owner": "http://testserver/nowhere/", "reviewer": "users/1/"},
    "wrongroute": {"title": "t", "owner": "/snippets/1/", "reviewer": "http://other.host/snippets/1/"},
    "types": {"title": "t", "owner": 1, "reviewer": True},
    "lists": {"title": "t", "owner": ["/users/1/"], "reviewer": {"a": 1}},
    "nulls": {"title": "t", "owner": None, "reviewer": None},
    "blank": {"title": "t", "owner": "", "reviewer": ""},
    "escaped": {"title": "t", "owner": "/users/%31/", "reviewer": "http://testserver/users/2/?x=1#f"},
    "empty": {},
}

snippets = Snippet.objects.order_by("id")
ctx = {"request": request()}
out = {
    "pk_info": info(PK()),
    "slug_info": info(Slug()),
    "link_info": info(Link(context=ctx)),
    "readonly_info": info(ReadOnlys()),
    "userlinks_info": info(UserLinks(context=ctx)),
    "usernested_info": info(UserNested()),
    "usernested_data": UserNested(User.objects.order_by("id"), many=True).data,
    "pk_data": PK(snippets, many=True).data,
    "slug_data": Slug(snippets, many=True).data,
    "link_data": Link(snippets, many=True, context=ctx).data,
    "readonly_data": ReadOnlys(snippets, many=True).data,
    "userlinks_data": UserLinks(User.objects.order_by("id"), many=True, context=ctx).data,
    "pk_errors": {k: errors(PK, v) for k, v in PK_INPUTS.items()},
    "slug_errors": {k: errors(Slug, v) for k, v in SLUG_INPUTS.items()},
    "link_errors": {k: errors(Link, v) for k, v in LINK_INPUTS.items()},
    "versions": {
        "path_same": link("/v1/users/1/", URLPathVersioning(), "v1"),
        "path_other": link("/v2/users/1/", URLPathVersioning(), "v1"),
        "path_unversioned": link("/users/1/", URLPathVersioning(), "v1"),
        "ns_same": ns_link("/ns1/users/1/", "v1"),
        "ns_other": ns_link("/ns2/users/1/", "v1"),
        "ns_root": ns_link("/users/1/", "v1"),
    },
    "pk_form": form(PK(context=ctx)),
    "slug_form": form(Slug(context=ctx)),
    "link_form": form(Link(context=ctx)),
    "pk_form_filled": form(PK(snippets[0], context=ctx)),
}
json.dump(out, sys.stdout, indent=1, default=str)
print()
