"""The /eco/ routes (included from config/urls.py): django-filter, simplejwt, api-key and
Django's model permissions."""
from django.urls import path
from rest_framework_simplejwt.views import (
    TokenBlacklistView, TokenObtainPairView, TokenRefreshView, TokenVerifyView,
)

from .api_key_views import APIKeyBookList
from .filtering import FilteredBookList
from .jwt_views import JWTWhoAmI
from .perms import PermBookDetail, PermBookList

urlpatterns = [
    path('perms/books/', PermBookList.as_view()),
    path('perms/books/<int:pk>/', PermBookDetail.as_view()),
    path('books/', FilteredBookList.as_view()),
    path('jwt/token/', TokenObtainPairView.as_view()),
    path('jwt/token/refresh/', TokenRefreshView.as_view()),
    path('jwt/token/verify/', TokenVerifyView.as_view()),
    path('jwt/token/blacklist/', TokenBlacklistView.as_view()),
    path('jwt/whoami/', JWTWhoAmI.as_view()),
    path('api-key/books/', APIKeyBookList.as_view()),
]
