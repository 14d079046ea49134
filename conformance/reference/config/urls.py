"""Every route of the sample's contract (the Go sample's are in sample/routes.go): authentication,
pagination, versioning, then the /eco/ routes."""
from pathlib import Path

import rest_framework
from django.urls import include, path, re_path
from django.views.static import serve
from rest_framework.authtoken.views import obtain_auth_token
from rest_framework.routers import SimpleRouter

from bookshelf import views

router = SimpleRouter()
router.register('books', views.BookViewSet)

namespaced = [path('info/', views.NamespaceInfo.as_view(), name='info')]

urlpatterns = [
    # Authentication
    path('api-token-auth/', obtain_auth_token),
    path('api-token-auth-extra/', views.ObtainAuthTokenExtra.as_view()),
    path('api-token-auth-throttled/', views.ThrottledObtainAuthToken.as_view()),
    path('api-auth/', include('rest_framework.urls')),
    path('whoami/', views.WhoAmI.as_view()),
    path('auth/token-first/', views.TokenFirst.as_view()),
    path('auth/basic-first/', views.BasicFirst.as_view()),
    path('auth/session-first/', views.SessionFirst.as_view()),
    path('auth/header/', views.HeaderScheme.as_view()),
    path('auth/header-challenge/', views.HeaderChallengeScheme.as_view()),
    path('auth/admin-only/', views.AdminOnly.as_view()),
    path('auth/remote-user/', views.RemoteUser.as_view()),
    path('auth/csrf/', views.CsrfCheck.as_view()),

    # Pagination
    path('', include(router.urls)),
    path('pages/page-number/', views.PageNumberList.as_view()),
    path('pages/limit-offset/', views.LimitOffsetList.as_view()),
    path('pages/cursor/', views.CursorList.as_view()),
    path('pages/cursor-rating/', views.RatingCursorList.as_view()),
    path('pages/cursor-orderable/', views.OrderableCursorList.as_view()),
    path('pages/off/', views.UnpaginatedList.as_view()),
    path('pages/manual/', views.ManualPage.as_view()),
    path('pages/link-header/', views.LinkHeaderList.as_view()),
    path('pages/nested-links/', views.NestedLinksList.as_view()),

    # Versioning
    path('url/<str:version>/info/', views.URLPathInfo.as_view(), name='url-info'),
    path('ns/v1/', include((namespaced, 'v1'))),
    path('ns/v2/', include((namespaced, 'v2'))),
    # Any other /ns/<version>/ lands in a namespace that is not an allowed version,
    # so NamespaceVersioning answers its own 404 instead of Django's HTML one.
    re_path(r'^ns/[^/]+/', include((namespaced, 'other'))),
    path('query/info/', views.QueryParameterInfo.as_view(), name='query-info'),
    path('accept/info/', views.AcceptHeaderInfo.as_view(), name='accept-info'),
    path('host/info/', views.HostNameInfo.as_view(), name='host-info'),
    path('custom/info/', views.CustomHeaderInfo.as_view(), name='custom-info'),
    path('url/<str:version>/books/', views.VersionedBookList.as_view(), name='url-book-list'),
    path('url/<str:version>/books/<str:pk>/', views.VersionedBookDetail.as_view(),
         name='url-book-detail'),

    # Ecosystem packages (django-filter, simplejwt, api-key, model permissions): eco/urls.py.
    path('eco/', include('eco.urls')),

    # The browsable pages' CSS and JavaScript (no collectstatic, no DEBUG needed).
    re_path(r'^static/(?P<path>.*)$', serve,
            {'document_root': Path(rest_framework.__file__).parent / 'static'}),
]
