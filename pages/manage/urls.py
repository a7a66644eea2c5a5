"""Routes of the client's appointment page; see views.py. The last route takes every other
path under /manage/, so each of them answers the same private 404 as an unknown token."""

from django.urls import path, re_path

from . import assistant, views

app_name = "manage"

urlpatterns = [
    path("manage/<str:token>/", views.appointment_page, name="page"),
    path("manage/<str:token>/cancel/", views.cancel, name="cancel"),
    path("manage/<str:token>/reschedule/", views.reschedule, name="reschedule"),
    path("manage/<str:token>/calendar.ics", views.calendar, name="calendar"),
    path("manage/<str:token>/assistant/", assistant.ask_the_assistant, name="assistant"),
    path("manage/<str:token>", views.add_slash, name="add-slash"),
    re_path(r"^manage/", views.anything_else),
]
