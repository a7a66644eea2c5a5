"""What a business offers: its bookable services."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from .errors import error_responses
from .lookups import bookable_services, business_or_404
from .public import SLUG_PARAMETER, PublicApi


class ServiceListApi(PublicApi):
    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        name = serializers.CharField()
        duration_minutes = serializers.IntegerField()
        list_price = serializers.DecimalField(max_digits=10, decimal_places=2)
        currency = serializers.CharField(source="business.currency")

        class Meta:
            ref_name = "Service"

    @extend_schema(
        operation_id="services_list",
        summary="The business's bookable services",
        parameters=[SLUG_PARAMETER],
        responses={200: OutputSerializer(many=True), **error_responses(404, 429)},
    )
    def get(self, request: Request, slug: str) -> Response:
        business = business_or_404(slug)
        services = bookable_services(business)
        return Response(self.OutputSerializer(services, many=True).data)
