"""Route of the front door; see views.py."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.front_door, name="front-door"),
]
