"""Routes of the hosted booking page; see views.py."""

from django.urls import path

from . import views

urlpatterns = [
    path("b/<str:slug>/", views.booking_page, name="booking-page"),
]
