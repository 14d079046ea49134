"""DRF's side of the auth model tests: ModelSerializers over Django's own
User, Group, Permission and ContentType, served by ModelViewSets, on the
database the Go test names (djangoperms.settings, DJANGO_DB). argv[1] is
the requests in JSON, [{"method", "path", "body"}], sent in order after
Django's migrate. The answer on stdout is JSON: "answers", [{"status",
"body"}], and "schemas", the OpenAPI schema of each serializer by its
component's name (AutoSchema.map_serializer). The paths are users/,
groups/, permissions/ and contenttypes/, with a detail route each."""
import json
import os
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "djangoperms.settings")
django.setup()

from django.contrib.auth.models import Group, Permission, User  # noqa: E402
from django.contrib.contenttypes.models import ContentType  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.urls import include, path, resolve  # noqa: E402
from rest_framework import routers, serializers, viewsets  # noqa: E402
from rest_framework.schemas.openapi import AutoSchema  # noqa: E402
from rest_framework.test import APIRequestFactory  # noqa: E402


class UserSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ["id", "username", "email", "is_staff"]


class GroupSerializer(serializers.ModelSerializer):
    class Meta:
        model = Group
        fields = ["id", "name"]


class PermissionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Permission
        fields = ["id", "name", "content_type", "codename"]


class ContentTypeSerializer(serializers.ModelSerializer):
    class Meta:
        model = ContentType
        fields = ["id", "app_label", "model"]


def viewset(model, serializer):
    return type(model.__name__ + "ViewSet", (viewsets.ModelViewSet,), {
        "queryset": model.objects.all().order_by("pk"),
        "serializer_class": serializer,
    })


router = routers.SimpleRouter()
router.register("users", viewset(User, UserSerializer))
router.register("groups", viewset(Group, GroupSerializer))
router.register("permissions", viewset(Permission, PermissionSerializer))
router.register("contenttypes", viewset(ContentType, ContentTypeSerializer))
urlpatterns = [path("", include(router.urls))]


def main():
    call_command("migrate", verbosity=0, interactive=False)
    factory = APIRequestFactory()
    answers = []
    for req in json.loads(sys.argv[1]):
        body = req.get("body")
        request = factory.generic(req["method"], req["path"], body or "", content_type="application/json")
        match = resolve(req["path"], urlconf=sys.modules[__name__])
        response = match.func(request, *match.args, **match.kwargs)
        response.render()
        answers.append({"status": response.status_code,
                        "body": json.loads(response.content) if response.content else None})
    schemas = {name: AutoSchema().map_serializer(s()) for name, s in [
        ("User", UserSerializer), ("Group", GroupSerializer),
        ("Permission", PermissionSerializer), ("ContentType", ContentTypeSerializer)]}
    json.dump({"answers": answers, "schemas": schemas}, sys.stdout)


main()
