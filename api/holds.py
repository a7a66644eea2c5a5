"""Holding a slot while the client finishes booking.

A hold needs a holder the client made (one per visitor), and counts against the connecting
address's allowance at the business (``HOLDS_PER_ADDRESS``): a client cannot hold more slots
than that at once, however many holders it invents.
"""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from bookings.services import hold_slot
from ordina.client_address import client_address

from .errors import error_responses
from .fields import InstantField, WholeNumberField, holder_field
from .lookups import bookable_service_or_404, business_or_404
from .public import SLUG_PARAMETER, PublicApi


class HoldCreateApi(PublicApi):
    class InputSerializer(serializers.Serializer):
        service = WholeNumberField(min_value=1, max_value=2**63 - 1)
        start = InstantField(help_text="A slot's start, as availability gives it.")
        holder = holder_field(
            required=True,
            help_text=(
                "Required. Make one at random for each visitor (e.g. a UUID without its "
                "dashes), keep it for the visit and keep it secret: whoever names it sees the "
                "held slot as open and may book it. Holding again with the same holder "
                "replaces the earlier hold."
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
        description=(
            "One hold per holder; at most HOLDS_PER_ADDRESS live holds per client address at "
            "the business (409 `too_many_holds` beyond it)."
        ),
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
            holder=body.validated_data["holder"],
            address=client_address(request),
        )
        return Response(self.OutputSerializer(hold, context=self.output_context()).data, status=201)
