"""What every public endpoint shares: no authentication (so no session, no CSRF, no cookies),
JSON only, one rate limit per client address, the error mapping of ``errors``, and answers
that no browser or proxy may store (``Cache-Control: no-store``)."""

import datetime as dt
import io
from typing import IO, Any, cast

from django.utils.cache import patch_cache_control
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from .errors import public_api_exception_handler

SLUG_PARAMETER = OpenApiParameter(
    "slug", str, OpenApiParameter.PATH, description="The business's slug, e.g. studio-lumen."
)
TOKEN_PARAMETER = OpenApiParameter(
    "token",
    str,
    OpenApiParameter.PATH,
    description="The management token from the booking's confirmation (its manage_url).",
)

# A booking is a few hundred bytes; nothing a public client sends needs more.
LARGEST_BODY_BYTES = 64 * 1024


class BodyTooLarge(APIException):
    status_code = 413
    default_detail = f"The body may be at most {LARGEST_BODY_BYTES // 1024} KB."
    default_code = "too_large"


class PublicJSONParser(JSONParser):
    """DRF's JSON parser, refusing what would otherwise crash it or fill memory: a body of
    more than LARGEST_BODY_BYTES, and nesting deep enough to exhaust the decoder's stack."""

    def parse(self, stream: IO[bytes], media_type=None, parser_context=None) -> Any:
        body = stream.read(LARGEST_BODY_BYTES + 1)
        if len(body) > LARGEST_BODY_BYTES:
            raise BodyTooLarge()
        try:
            return super().parse(io.BytesIO(body), media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - the body is nested too deeply.") from None


class PublicRateThrottle(ScopedRateThrottle):
    """The scoped throttle, reading its rate when a request arrives rather than when the module
    is imported, so a changed REST_FRAMEWORK setting (tests, a reload) takes effect."""

    def get_rate(self) -> str | None:
        # The stubs type the setting's rates as numbers; they are rate strings ("120/minute").
        self.THROTTLE_RATES = cast("dict[str, str | None]", api_settings.DEFAULT_THROTTLE_RATES)
        return super().get_rate()


class PublicApi(APIView):
    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_classes = (PublicRateThrottle,)
    throttle_scope = "public"
    renderer_classes = (JSONRenderer,)
    parser_classes = (PublicJSONParser,)

    # The zone times are shown in: the business's, once a view knows which business it serves.
    # Error bodies (alternatives of a refused slot) are written in it too.
    time_zone: dt.tzinfo = dt.UTC

    def get_exception_handler(self):
        return public_api_exception_handler

    def finalize_response(self, request: Request, response: Response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        # Every answer here is one client's: a transcript with names, emails and phones, a
        # booking with its manage token, a hold's secret holder, a managed appointment. Shared
        # and browser caches must not keep them. The few answers that hold nothing personal
        # (services, open slots) change with every booking, so they are marked the same: a
        # new endpoint is covered without anyone having to remember it.
        patch_cache_control(response, no_store=True)
        return response

    def output_context(self) -> dict[str, Any]:
        return {"time_zone": self.time_zone}
