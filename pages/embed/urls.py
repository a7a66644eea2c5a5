"""Routes of the embed; see views.py."""

from django.urls import path

from . import views

urlpatterns = [
    path("widget.js", views.widget_js, name="widget-js"),
    path("embed-example/", views.embed_example, name="embed-example"),
]
