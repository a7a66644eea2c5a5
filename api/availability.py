"""Open slots of a service over a range of days, in the business's zone."""

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from bookings.selectors import open_slots_for

from .errors import error_responses
from .fields import SlotSerializer, WholeNumberField, day_field, holder_field, single_valued
from .lookups import bookable_service_or_404, business_or_404
from .public import SLUG_PARAMETER, PublicApi

LONGEST_RANGE_DAYS = 62


class AvailabilityApi(PublicApi):
    class InputSerializer(serializers.Serializer):
        # "from" is a Python keyword, so the fields are declared in get_fields.
        class Meta:
            ref_name = "AvailabilityQuery"

        def get_fields(self) -> dict[str, serializers.Field]:
            return {
                "service": WholeNumberField(min_value=1, max_value=2**63 - 1),
                "from": day_field(help_text="First day, in the business's zone (YYYY-MM-DD)."),
                "to": day_field(
                    help_text=(
                        "Last day, included (YYYY-MM-DD); "
                        f"at most {LONGEST_RANGE_DAYS} days after `from`, counting both."
                    )
                ),
                "holder": holder_field(
                    help_text="Your hold's holder: the slot you hold shows as open to you."
                ),
            }

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            first, last = attrs["from"], attrs["to"]
            if first > last:
                raise serializers.ValidationError({"to": "`to` cannot be before `from`."})
            if (last - first).days + 1 > LONGEST_RANGE_DAYS:
                raise serializers.ValidationError(
                    {"to": f"Ask for at most {LONGEST_RANGE_DAYS} days at a time."}
                )
            return attrs

    class OutputSerializer(serializers.Serializer):
        service = serializers.IntegerField()
        time_zone = serializers.CharField(help_text="The business's IANA zone.")
        slots = SlotSerializer(many=True)

        class Meta:
            ref_name = "Availability"

    @extend_schema(
        operation_id="availability",
        summary="Open slots of a service, day by day in the business's zone",
        parameters=[SLUG_PARAMETER, InputSerializer],
        responses={200: OutputSerializer, **error_responses(400, 404, 429)},
    )
    def get(self, request: Request, slug: str) -> Response:
        business = business_or_404(slug)
        self.time_zone = business.tzinfo
        query = self.InputSerializer(data=single_valued(request.GET))
        query.is_valid(raise_exception=True)
        params = query.validated_data
        service = bookable_service_or_404(business, params["service"])
        slots = open_slots_for(
            service,
            first_day=params["from"],
            last_day=params["to"],
            now=timezone.now(),
            holder=params.get("holder"),
        )
        availability = {"service": service.pk, "time_zone": business.time_zone, "slots": slots}
        return Response(self.OutputSerializer(availability, context=self.output_context()).data)
