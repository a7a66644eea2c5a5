"""An appointment managed by its client through the token of its confirmation: view, cancel,
reschedule. The token is the only credential; unknown, malformed and expired tokens all answer
the same 404."""

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from bookings.models import Appointment
from orchestration.appointment_changes import appointment_cancel, appointment_reschedule

from .appointments import AppointmentSerializer
from .errors import error_responses
from .fields import InstantField
from .lookups import appointment_for_token_or_404
from .public import TOKEN_PARAMETER, PublicApi


class ManagedAppointmentApi(PublicApi):
    def managed(self, token: str) -> Appointment:
        appointment = appointment_for_token_or_404(token, now=timezone.now())
        self.time_zone = appointment.business.tzinfo
        return appointment

    def answer(self, appointment: Appointment) -> Response:
        return Response(AppointmentSerializer(appointment, context=self.output_context()).data)


class AppointmentDetailApi(ManagedAppointmentApi):
    @extend_schema(
        operation_id="appointment_detail",
        summary="The appointment a management token opens",
        parameters=[TOKEN_PARAMETER],
        responses={200: AppointmentSerializer, **error_responses(404, 429)},
    )
    def get(self, request: Request, token: str) -> Response:
        return self.answer(self.managed(token))


class AppointmentCancelApi(ManagedAppointmentApi):
    @extend_schema(
        operation_id="appointment_cancel",
        summary="Cancel the appointment; its time is free again at once",
        parameters=[TOKEN_PARAMETER],
        request=None,
        responses={200: AppointmentSerializer, **error_responses(404, 409, 429)},
    )
    def post(self, request: Request, token: str) -> Response:
        return self.answer(appointment_cancel(appointment=self.managed(token)))


class AppointmentRescheduleApi(ManagedAppointmentApi):
    class InputSerializer(serializers.Serializer):
        start = InstantField(help_text="The new start: a slot's start, as availability gives it.")

        class Meta:
            ref_name = "RescheduleRequest"

    @extend_schema(
        operation_id="appointment_reschedule",
        summary="Move the appointment to another open slot",
        parameters=[TOKEN_PARAMETER],
        request=InputSerializer,
        responses={200: AppointmentSerializer, **error_responses(400, 404, 409, 413, 415, 429)},
    )
    def post(self, request: Request, token: str) -> Response:
        appointment = self.managed(token)
        body = self.InputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        moved = appointment_reschedule(
            appointment=appointment, new_start=body.validated_data["start"]
        )
        return self.answer(moved)
