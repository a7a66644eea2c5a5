"""The booking endpoints of the public API, version 1 (services, availability, holds,
appointments, an appointment by its manage token). The project's router (ordina.api_urls)
puts them beside the chat's under /api/v1/."""

from django.urls import path

from .appointments import AppointmentCreateApi
from .availability import AvailabilityApi
from .catalog import ServiceListApi
from .holds import HoldCreateApi
from .manage_by_token import AppointmentCancelApi, AppointmentDetailApi, AppointmentRescheduleApi

routes = [
    path("businesses/<str:slug>/services/", ServiceListApi.as_view(), name="services"),
    path("businesses/<str:slug>/availability/", AvailabilityApi.as_view(), name="availability"),
    path("businesses/<str:slug>/holds/", HoldCreateApi.as_view(), name="holds"),
    path(
        "businesses/<str:slug>/appointments/",
        AppointmentCreateApi.as_view(),
        name="appointments",
    ),
    path("manage/<str:token>/", AppointmentDetailApi.as_view(), name="manage"),
    path("manage/<str:token>/cancel/", AppointmentCancelApi.as_view(), name="manage-cancel"),
    path(
        "manage/<str:token>/reschedule/",
        AppointmentRescheduleApi.as_view(),
        name="manage-reschedule",
    ),
]
