"""/eco/jwt/whoami/ beside simplejwt's own token views (SIMPLE_JWT in config/settings.py)."""
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework_simplejwt.authentication import JWTAuthentication


# GET /eco/jwt/whoami/: Bearer access tokens only.
class JWTWhoAmI(APIView):
    authentication_classes = [JWTAuthentication]
    permission_classes = [IsAuthenticated]

    def get(self, request):
        return Response({'username': request.user.username})
