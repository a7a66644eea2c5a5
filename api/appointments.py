"""Booking an appointment: the public face of ``appointment_create``, idempotent by the
``Idempotency-Key`` header. The price is always the service's list price; a client never
sets it. When the business asks a deposit, the appointment is booked awaiting it (it holds its
time) and the answer carries the Stripe Checkout where the client pays; whether it was paid is
never the client's to say."""

import re
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from bookings.models import Appointment, AppointmentStatus
from bookings.services import ClientDetails
from orchestration.booking_with_deposit import book_with_deposit
from payments.models import Payment
from payments.stripe_api import StripeUnavailable

from .errors import error_responses
from .fields import NOT_BLANK_PATTERN, InstantField, StrictCharField, WholeNumberField, holder_field
from .lookups import bookable_service_or_404, business_or_404
from .public import SLUG_PARAMETER, PublicApi

IDEMPOTENCY_HEADER = "Idempotency-Key"
# A structured-header string, as the IETF Idempotency-Key draft has it: visible ASCII and
# spaces; 255 is the column's length.
IDEMPOTENCY_KEY = re.compile(r"[\x20-\x7e]{1,255}")
IDEMPOTENCY_PARAMETER = OpenApiParameter(
    IDEMPOTENCY_HEADER,
    {"type": "string", "minLength": 1, "maxLength": 255, "pattern": r"^[\x20-\x7e]+$"},
    OpenApiParameter.HEADER,
    required=True,
    description=(
        "Your unique key for this booking (a UUID, say). Sending the same request with the "
        "same key again returns the same appointment (200); the same key with a different "
        "request is refused (409)."
    ),
)


class AppointmentSerializer(serializers.Serializer):
    """An appointment as its client sees it: no internal ids, no token hash, no notes."""

    id = serializers.UUIDField(source="public_id")
    business = serializers.CharField(source="business.slug")
    service = serializers.IntegerField(source="service_id")
    service_name = serializers.CharField(source="service.name")
    start = InstantField(source="starts_at")
    end = InstantField(source="ends_at")
    time_zone = serializers.CharField(source="business.time_zone")
    status = serializers.ChoiceField(choices=AppointmentStatus.choices)
    price = serializers.DecimalField(max_digits=10, decimal_places=2)
    currency = serializers.CharField(source="business.currency")

    class Meta:
        ref_name = "Appointment"


class DepositSerializer(serializers.Serializer):
    """The deposit a booking awaits, and where the client pays it."""

    amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    currency = serializers.CharField()
    url = serializers.URLField(source="checkout_url", help_text="Stripe Checkout, to pay at.")
    expires_at = InstantField(
        help_text="Unpaid by then, the appointment is released and its time offered again."
    )

    class Meta:
        ref_name = "Deposit"


class PaymentsUnavailable(APIException):
    status_code = 503
    default_detail = (
        "Payments are unavailable at the moment, so the deposit could not be taken and "
        "nothing was booked. Please try again shortly."
    )
    default_code = "payments_unavailable"


def idempotency_key_errors(key: str | None) -> dict[str, list[str]]:
    if key is None:
        return {IDEMPOTENCY_HEADER: [gettext("This header is required.")]}
    if not IDEMPOTENCY_KEY.fullmatch(key):
        return {
            IDEMPOTENCY_HEADER: [gettext("Give 1 to 255 visible ASCII characters (a UUID, say).")]
        }
    return {}


class AppointmentCreateApi(PublicApi):
    class InputSerializer(serializers.Serializer):
        service = WholeNumberField(min_value=1, max_value=2**63 - 1)
        start = InstantField(help_text="A slot's start, as availability gives it.")
        name = StrictCharField(max_length=120)
        email = serializers.EmailField(max_length=254, required=False, allow_blank=True)
        phone = serializers.CharField(
            max_length=32,
            required=False,
            allow_blank=True,
            help_text="Read in the business's country unless it starts with +.",
        )
        holder = holder_field(help_text="The holder of your hold on this slot, if you hold it.")

        class Meta:
            ref_name = "AppointmentRequest"

    class OutputSerializer(AppointmentSerializer):
        manage_token = serializers.SerializerMethodField()
        manage_url = serializers.SerializerMethodField()
        payment = serializers.SerializerMethodField()

        class Meta:
            ref_name = "BookedAppointment"

        def get_manage_token(self, appointment: Appointment) -> str:
            return self.context["manage_token"]

        def get_manage_url(self, appointment: Appointment) -> str:
            """Where the client views, cancels or moves the appointment."""
            return reverse("api_v1:manage", kwargs={"token": self.context["manage_token"]})

        @extend_schema_field(DepositSerializer(allow_null=True))
        def get_payment(self, appointment: Appointment) -> dict | None:
            """The deposit to pay; null when the booking asks none."""
            payment: Payment | None = self.context["payment"]
            return (
                None if payment is None else DepositSerializer(payment, context=self.context).data
            )

    @extend_schema(
        operation_id="appointment_create",
        summary="Book an appointment",
        parameters=[SLUG_PARAMETER, IDEMPOTENCY_PARAMETER],
        request=InputSerializer,
        responses={
            201: OpenApiResponse(
                OutputSerializer,
                "Booked. With a deposit due, the status is pending_payment and `payment` "
                "says where to pay it before it expires.",
            ),
            200: OpenApiResponse(
                OutputSerializer,
                "A repeat of a booked request: the same answer, with the appointment's status "
                "as it is now (confirmed once paid, expired if the deposit was not paid).",
            ),
            **error_responses(400, 404, 409, 413, 415, 429, 503),
        },
    )
    def post(self, request: Request, slug: str) -> Response:
        business = business_or_404(slug)
        self.time_zone = business.tzinfo
        key = request.headers.get(IDEMPOTENCY_HEADER)
        body = self.InputSerializer(data=request.data)
        body.is_valid()
        # The header's and the body's mistakes, reported together.
        if errors := {**idempotency_key_errors(key), **body.errors}:
            raise ValidationError(errors)
        booking = body.validated_data
        service = bookable_service_or_404(business, booking["service"])
        try:
            # Awaiting its deposit, the appointment holds its time; its payment is written with
            # it, and a repeated request gets the same Checkout.
            booked = book_with_deposit(
                service=service,
                start=booking["start"],
                client=ClientDetails(
                    name=booking["name"],
                    email=booking.get("email", ""),
                    phone=booking.get("phone", ""),
                ),
                idempotency_key=key,
                holder=booking.get("holder"),
            )
        except StripeUnavailable:
            # The flow has released the appointment: its time is open again.
            raise PaymentsUnavailable() from None
        outcome = booked.outcome
        output = self.OutputSerializer(
            outcome.appointment,
            context={
                **self.output_context(),
                "manage_token": outcome.manage_token,
                "payment": booked.payment,
            },
        )
        return Response(output.data, status=201 if outcome.created else 200)


class AppointmentRequestSchema(OpenApiSerializerExtension):
    """The booking request's schema also says what the fields must give together: an email
    address or a phone number, as the booking service requires. Which phone numbers exist it
    cannot say: that stays the service's 400."""

    target_class = AppointmentCreateApi.InputSerializer

    def map_serializer(self, auto_schema, direction) -> dict[str, Any]:
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        return schema | {
            "anyOf": [
                {"required": ["email"], "properties": {"email": {"minLength": 1}}},
                {
                    "required": ["phone"],
                    "properties": {"phone": {"minLength": 1, "pattern": NOT_BLANK_PATTERN}},
                },
            ]
        }
