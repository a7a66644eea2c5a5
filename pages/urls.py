"""The client's pages. Each page's routes live beside its views."""

from django.urls import include, path

urlpatterns = [
    path("", include("pages.home.urls")),  # the front door, /
    path("", include("pages.booking.urls")),  # the hosted booking page, /b/<slug>/
    path("", include("pages.embed.urls")),  # /widget.js, the snippet a business's site loads
    path("", include("pages.manage.urls")),  # the client's own appointment page, /manage/<token>/
]
