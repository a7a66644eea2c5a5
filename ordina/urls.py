from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

admin.site.site_header = "Ordina dashboard"
admin.site.site_title = "Ordina"
admin.site.index_title = "Your business"
admin.site.site_url = None  # no public site to "view" yet

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/v1/", include("bookings.api.urls")),
    path("payments/", include("payments.urls")),
    path("", include("pages.urls")),
]
