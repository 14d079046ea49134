"""DRF's OPTIONS description (SimpleMetadata.get_serializer_info) of nested
serializers declared with many=True: required, optional with a label,
read-only, and write-only with allow_empty=False and max_length.

TestNestedListInfoAsDRF (nested_list_info_drf_test.go) runs it with
Debian's Django 3.2 / DRF 3.14 and with the DRF 3.18 / Django 5.2 of
conformance/reference/drf318 (internal/drfsuite.RunDRF) and compares the
description of serializers.NestedList fields with what it prints.
"""
import json
import sys

import django
from django.conf import settings

settings.configure(INSTALLED_APPS=["rest_framework"])
django.setup()

from rest_framework import serializers  # noqa: E402
from rest_framework.metadata import SimpleMetadata  # noqa: E402


class ItemSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=10)
    qty = serializers.IntegerField(required=False)


class OrderSerializer(serializers.Serializer):
    title = serializers.CharField()
    items = ItemSerializer(many=True)
    extra = ItemSerializer(many=True, required=False, label="Optional")
    shown = ItemSerializer(many=True, read_only=True)
    given = ItemSerializer(many=True, write_only=True, allow_empty=False, min_length=1, max_length=3)


json.dump(SimpleMetadata().get_serializer_info(OrderSerializer()), sys.stdout, indent=1)
sys.stdout.write("\n")
