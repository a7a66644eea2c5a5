"""Who may show a business's booking page inside theirs: the business itself ('self') and the
sites it lists (``Business.embed_origins``), and nobody else. Every other page keeps the
project's ``frame-ancestors 'none'`` and X-Frame-Options DENY.

It decides only the framing headers of the booking page's answer; it renders nothing.
"""

from collections.abc import Callable
from functools import wraps

from csp.constants import SELF
from django.http import HttpRequest, HttpResponse

from api.lookups import SLUG
from bookings.models import Business

View = Callable[..., HttpResponse]


def frame_ancestors(business: Business) -> list[str]:
    """The CSP frame-ancestors sources for ``business``'s booking page."""
    return [SELF, *business.embedding_origins]


def let_embedding_sites_frame(response: HttpResponse, *, business: Business) -> HttpResponse:
    """``response`` framable by ``business``'s embedding sites only."""
    # django-csp replaces this one directive for this response (the rest of the policy stays).
    response._csp_replace = {"frame-ancestors": frame_ancestors(business)}  # type: ignore[attr-defined]
    # X-Frame-Options cannot name origins: with it, DENY would win in browsers that read it.
    # CSP frame-ancestors takes its place (browsers ignore XFO when frame-ancestors is set).
    response.xframe_options_exempt = True
    return response


def framable_by_embedding_sites(view: View) -> View:
    """For the view of ``/b/<slug>/``: its answer for a known business may be framed by that
    business's embedding sites. A 404 (or any other failure) stays unframable."""

    @wraps(view)
    def answer(request: HttpRequest, *args, slug: str, **kwargs) -> HttpResponse:
        response = view(request, *args, slug=slug, **kwargs)
        if response.status_code != 200 or not SLUG.fullmatch(slug):
            return response
        business = Business.objects.filter(slug=slug).only("embed_origins").first()
        if business is None:
            return response
        return let_embedding_sites_frame(response, business=business)

    return answer
