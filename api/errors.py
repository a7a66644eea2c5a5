"""How the public API answers what it cannot do. One envelope for every error —
``{"detail": ..., "code": ...}`` — with field errors (400) or alternatives (409) beside it:

- 400 ``invalid``: the request is malformed; ``errors`` maps each field (or header, or
  ``non_field_errors``) to its messages. InvalidBooking from the core lands here too.
- 404 ``not_found``: a business, service, appointment or token the caller may not see; the
  body never says which.
- 409 ``slot_unavailable`` (with real ``alternatives``), ``idempotency_conflict``,
  ``not_changeable``, ``too_many_holds`` (the client's address holds its allowance already).
- 413 ``too_large``, 415 ``unsupported_media_type``: the body is not a small JSON document.
- 429 ``throttled``, with Retry-After.
- 503 ``payments_unavailable``: a deposit is due and Stripe could not open its checkout;
  nothing stays booked and the time is offered again.

Anything else is a bug: it is not caught here, so it fails loudly as a 500.
"""

import datetime as dt
from typing import Any

from django.http import Http404, HttpRequest, JsonResponse
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler

from bookings.errors import (
    AppointmentNotChangeable,
    IdempotencyConflict,
    InvalidBooking,
    SlotUnavailable,
    TooManyHolds,
)

from .fields import SlotSerializer, iso_in_zone

# Lazy: in the language active when the answer is rendered (the request's: a token that names
# no conversation has no language of its own).
NOT_FOUND = {"detail": gettext_lazy("Not found."), "code": "not_found"}
CONFLICT_CODES = [
    ("slot_unavailable", "The time is not open (any more); see the alternatives."),
    ("idempotency_conflict", "The Idempotency-Key was used for a different request."),
    ("not_changeable", "The appointment can no longer be changed."),
    ("too_many_holds", "This client address already holds as many slots as one client may."),
]
INVALID = gettext_lazy("The request has invalid fields.")


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()
    code = serializers.CharField()

    class Meta:
        ref_name = "Error"


class ValidationErrorSerializer(ErrorSerializer):
    class Meta:
        ref_name = "ValidationError"

    def get_fields(self) -> dict[str, serializers.Field]:
        # Declared in the class body, "errors" would shadow Serializer.errors.
        return {
            **super().get_fields(),
            "errors": serializers.DictField(
                child=serializers.ListField(child=serializers.CharField()),
                help_text="Each invalid field, header or `non_field_errors`, with its messages.",
            ),
        }


class ConflictSerializer(serializers.Serializer):
    detail = serializers.CharField()
    code = serializers.ChoiceField(choices=CONFLICT_CODES)
    alternatives = SlotSerializer(
        many=True,
        required=False,
        help_text="With `slot_unavailable`: the open slots nearest the one asked for.",
    )

    class Meta:
        ref_name = "Conflict"


ERROR_RESPONSES = {
    400: OpenApiResponse(ValidationErrorSerializer, "Invalid input, field by field."),
    404: OpenApiResponse(ErrorSerializer, "No such business, service or appointment."),
    409: OpenApiResponse(ConflictSerializer, "The request conflicts with the calendar's state."),
    413: OpenApiResponse(ErrorSerializer, "The body is too large."),
    415: OpenApiResponse(ErrorSerializer, "The body is not JSON."),
    429: OpenApiResponse(ErrorSerializer, "Too many requests; see Retry-After."),
    503: OpenApiResponse(
        ErrorSerializer,
        "A deposit is due and payments are unavailable: nothing was booked, the time is "
        "offered again; try again shortly (code `payments_unavailable`).",
    ),
}


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    """The documented error answers of an operation, for ``extend_schema(responses=...)``."""
    return {status: ERROR_RESPONSES[status] for status in statuses}


def field_errors(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested error detail flattened to field → messages (``field.sub`` when nested)."""
    here = prefix or api_settings.NON_FIELD_ERRORS_KEY
    if isinstance(detail, dict):
        errors: dict[str, list[str]] = {}
        for key, value in detail.items():
            errors.update(field_errors(value, f"{prefix}.{key}" if prefix else str(key)))
        return errors
    if isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            return {here: [str(item) for item in detail]}
        errors = {}
        for index, item in enumerate(detail):
            errors.update(field_errors(item, f"{prefix}.{index}" if prefix else str(index)))
        return errors
    return {here: [str(detail)]}


def invalid(errors: dict[str, list[str]]) -> Response:
    # Worded now, in the language of the view that answers (a conversation's, in the chat API):
    # the response is rendered after the view has returned.
    return Response({"detail": str(INVALID), "code": "invalid", "errors": errors}, status=400)


def conflict(code: str, detail: str, **extra: Any) -> Response:
    return Response({"detail": detail, "code": code, **extra}, status=409)


def public_api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    zone = getattr(context.get("view"), "time_zone", dt.UTC)
    match exc:
        case InvalidBooking():
            return invalid({field: [message] for field, message in exc.errors.items()})
        case SlotUnavailable():
            alternatives = [
                {"start": iso_in_zone(slot.start, zone), "end": iso_in_zone(slot.end, zone)}
                for slot in exc.alternatives
            ]
            return conflict("slot_unavailable", exc.message, alternatives=alternatives)
        case IdempotencyConflict():
            return conflict("idempotency_conflict", exc.message)
        case AppointmentNotChangeable():
            return conflict("not_changeable", exc.message)
        case TooManyHolds():
            return conflict("too_many_holds", exc.message)
        case Http404() | exceptions.NotFound():
            return Response(NOT_FOUND, status=404)
        case exceptions.ValidationError():
            return invalid(field_errors(exc.detail))
        case exceptions.ParseError():
            return invalid({api_settings.NON_FIELD_ERRORS_KEY: [str(exc.detail)]})
        case exceptions.APIException():
            response = exception_handler(exc, context)
            if response is not None:
                codes = exc.get_codes()
                code = codes if isinstance(codes, str) else exc.default_code
                response.data = {"detail": str(exc.detail), "code": code}
            return response
    return None


def not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Every path under the API that names no endpoint: the same JSON 404 as an unknown token."""
    return JsonResponse(NOT_FOUND, status=404)
