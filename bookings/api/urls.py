"""The public API, version 1. Every path under it that names no endpoint answers a JSON 404."""

from django.urls import path, re_path

from agent.api import (
    ConversationConfirmApi,
    ConversationDetailsApi,
    ConversationHoldApi,
    ConversationMessageApi,
    ConversationPickApi,
    ConversationReadApi,
    ConversationStartApi,
)
from agent.verification.api import ConversationVerificationApi, ConversationVerificationCheckApi

from .appointments import AppointmentCreateApi
from .availability import AvailabilityApi
from .catalog import ServiceListApi
from .errors import not_found
from .holds import HoldCreateApi
from .manage_by_token import AppointmentCancelApi, AppointmentDetailApi, AppointmentRescheduleApi

app_name = "api_v1"

urlpatterns = [
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
    # The chat widget's conversations (agent.api).
    path(
        "businesses/<str:slug>/conversations/",
        ConversationStartApi.as_view(),
        name="conversations",
    ),
    path("conversations/<str:token>/", ConversationReadApi.as_view(), name="conversation"),
    path(
        "conversations/<str:token>/messages/",
        ConversationMessageApi.as_view(),
        name="conversation-messages",
    ),
    path(
        "conversations/<str:token>/confirm/",
        ConversationConfirmApi.as_view(),
        name="conversation-confirm",
    ),
    path(
        "conversations/<str:token>/pick/", ConversationPickApi.as_view(), name="conversation-pick"
    ),
    path(
        "conversations/<str:token>/hold/", ConversationHoldApi.as_view(), name="conversation-hold"
    ),
    path(
        "conversations/<str:token>/details/",
        ConversationDetailsApi.as_view(),
        name="conversation-details",
    ),
    path(
        "conversations/<str:token>/verification/",
        ConversationVerificationApi.as_view(),
        name="conversation-verification",
    ),
    path(
        "conversations/<str:token>/verification/check/",
        ConversationVerificationCheckApi.as_view(),
        name="conversation-verification-check",
    ),
    re_path(r"", not_found),
]
