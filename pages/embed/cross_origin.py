"""Which browser origins may call the public API (``/api/v1/``) from their own pages: those a
business lists among its embedding sites (``Business.embed_origins``). It answers
django-cors-headers' ``check_request_enabled`` signal; the library writes the headers (see
CORS_* in ordina/settings/base.py). Nothing under /admin/, /payments/ or any page is ever
opened to another origin.

Any listing business opens the whole public API to that origin, not only its own routes:
the API reads no cookies (a cross-origin caller gains no ambient authority), every route is
callable from any server anyway, and conversation and manage routes name no business.
"""

from corsheaders.signals import check_request_enabled
from django.core.exceptions import DisallowedHost
from django.db.models import Q
from django.dispatch import receiver
from django.http import HttpRequest

from bookings.embed_origins import OriginRefused, normalise_origin
from bookings.models import Business

PUBLIC_API_PREFIX = "/api/v1/"


def some_business_lists(origin: str) -> bool:
    """Whether ``origin`` is a whole line of some business's embedding sites."""
    # Stored one origin per line (Business.clean): match a whole line, never a prefix of one
    # (https://shop.example must not admit https://shop.example.evil).
    line = (
        Q(embed_origins=origin)
        | Q(embed_origins__startswith=f"{origin}\n")
        | Q(embed_origins__endswith=f"\n{origin}")
        | Q(embed_origins__contains=f"\n{origin}\n")
    )
    return Business.objects.filter(line).exists()


def own_origin(request: HttpRequest) -> str | None:
    try:
        return f"{request.scheme}://{request.get_host()}"
    except DisallowedHost:
        return None


@receiver(check_request_enabled, dispatch_uid="pages.embed.cross_origin")
def allow_embedding_sites(sender, request: HttpRequest, **kwargs) -> bool:
    if not request.path_info.startswith(PUBLIC_API_PREFIX):
        return False
    origin = request.headers.get("origin", "")
    # Our own pages' calls carry an Origin too; they need no CORS answer (and no query).
    if not origin or origin == own_origin(request):
        return False
    try:
        if normalise_origin(origin) != origin:
            return False  # not as a browser writes an origin ("null", a path, a wildcard)
    except OriginRefused:
        return False
    return some_business_lists(origin)
