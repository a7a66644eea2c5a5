"""Holding a slot while the client finishes booking."""

import secrets

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from bookings.services import hold_slot

from .errors import error_responses
from .fields import InstantField, holder_field
from .lookups import bookable_service_or_404, business_or_404
from .public import SLUG_PARAMETER, PublicApi


def new_holder() -> str:
    """An unguessable holder name (192 bits): whoever knows it sees the held slot as open."""
    return secrets.token_urlsafe(24)


class HoldCreateApi(PublicApi):
    class InputSerializer(serializers.Serializer):
        service = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
        start = InstantField(help_text="A slot's start, as availability gives it.")
        holder = holder_field(
            help_text=(
                "Keep it secret. Omit it on the first hold: a new one is made and returned. "
                "Holding again with the same holder replaces the earlier hold."
            ),
        )

        class Meta:
            ref_name = "HoldRequest"

    class OutputSerializer(serializers.Serializer):
        holder = serializers.CharField()
        service = serializers.IntegerField(source="service_id")
        start = InstantField(source="starts_at")
        end = InstantField(source="ends_at")
        expires_at = InstantField()

        class Meta:
            ref_name = "Hold"

    @extend_schema(
        operation_id="hold_create",
        summary="Hold a slot for the business's hold length",
        parameters=[SLUG_PARAMETER],
        request=InputSerializer,
        responses={201: OutputSerializer, **error_responses(400, 404, 409, 413, 415, 429)},
    )
    def post(self, request: Request, slug: str) -> Response:
        business = business_or_404(slug)
        self.time_zone = business.tzinfo
        body = self.InputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        service = bookable_service_or_404(business, body.validated_data["service"])
        hold = hold_slot(
            service=service,
            start=body.validated_data["start"],
            holder=body.validated_data.get("holder", "") or new_holder(),
        )
        return Response(self.OutputSerializer(hold, context=self.output_context()).data, status=201)
