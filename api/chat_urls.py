"""The chat widget's endpoints of the public API, version 1 (api.conversations, api.verification).
The project's router (ordina.api_urls) puts them beside the booking endpoints under /api/v1/."""

from django.urls import path

from api.conversations import (
    ConversationConfirmApi,
    ConversationDetailsApi,
    ConversationHoldApi,
    ConversationMessageApi,
    ConversationPickApi,
    ConversationReadApi,
    ConversationStartApi,
)
from api.verification import ConversationVerificationApi, ConversationVerificationCheckApi

routes = [
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
]
