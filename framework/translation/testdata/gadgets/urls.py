"""The reference's routes, and /gadgets/: a model viewset open to anyone."""
from rest_framework import permissions, serializers, viewsets
from rest_framework.routers import SimpleRouter

from config.urls import urlpatterns as reference

from .models import Gadget


class GadgetSerializer(serializers.ModelSerializer):
    class Meta:
        model = Gadget
        fields = ['id', 'slug', 'kind', 'owner']


class GadgetViewSet(viewsets.ModelViewSet):
    queryset = Gadget.objects.all()
    serializer_class = GadgetSerializer
    authentication_classes = []
    permission_classes = [permissions.AllowAny]


router = SimpleRouter()
router.register('gadgets', GadgetViewSet)
urlpatterns = router.urls + reference
