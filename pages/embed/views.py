"""The embed's two answers: ``/widget.js``, the script a business's site loads with one line,
and ``/embed-example/``, a stand-in for such a site that exists only while DEBUG is on (the
page ``make demo`` points a newcomer at). Neither reads or writes a booking.
"""

import hashlib
import json
import re
from pathlib import Path
from urllib.parse import urlsplit

from csp.constants import SELF
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import condition, require_GET, require_safe

from api.lookups import SLUG
from bookings.demo import SLUG as DEMO_SLUG

from .words import widget_words

WIDGET_SOURCE = Path(__file__).resolve().parent.parent / "static" / "pages" / "widget.js"
# Where the script's words go: ``/*words*/ {} /*/words*/`` in the source.
WORDS_SLOT = re.compile(rb"/\*words\*/.*?/\*/words\*/", re.DOTALL)
# Short: a fixed widget reaches every embedding site within minutes, and the snippet's URL
# never changes (so it cannot carry a content hash as the static files' URLs can).
WIDGET_MAX_AGE_SECONDS = 300


def widget_source() -> bytes:
    """The script as served: its source with its words in every language written in, as JSON
    (which is JavaScript), in ASCII whatever the site's page is encoded in."""
    words = json.dumps(widget_words(), ensure_ascii=True)
    return WORDS_SLOT.sub(lambda _slot: words.encode(), WIDGET_SOURCE.read_bytes(), count=1)


def _widget_etag(request: HttpRequest) -> str:
    # Of the script as served: a new translation is a new version too.
    return hashlib.sha256(widget_source()).hexdigest()[:32]


@require_safe
@condition(etag_func=_widget_etag)
def widget_js(request: HttpRequest) -> HttpResponse:
    """The embed script, at a URL that stays the same for every release."""
    response = HttpResponse(widget_source(), content_type="text/javascript")
    response["Cache-Control"] = f"public, max-age={WIDGET_MAX_AGE_SECONDS}"
    # A classic <script src> needs no CORS. This lets it load on a site that isolates itself
    # (Cross-Origin-Embedder-Policy: require-corp) as well.
    response["Cross-Origin-Resource-Policy"] = "cross-origin"
    return response


LOOPBACK_PAIRS = {"localhost": "127.0.0.1", "127.0.0.1": "localhost"}


def other_loopback_origin(*, scheme: str, host: str) -> str | None:
    """The same server under its other loopback name (localhost <-> 127.0.0.1): a different
    origin to a browser, so a page on one and the widget from the other are cross-origin."""
    parts = urlsplit(f"//{host}")
    other = LOOPBACK_PAIRS.get(parts.hostname or "")
    if other is None:
        return None
    return f"{scheme}://{other}" + (f":{parts.port}" if parts.port else "")


@require_GET
def embed_example(request: HttpRequest) -> HttpResponse:
    """A page standing in for a business's own site, embedding the widget from the server's
    other loopback origin (open it at 127.0.0.1, the widget comes from localhost)."""
    if not settings.DEBUG:
        raise Http404("The embedding example exists only while DEBUG is on.")
    slug = request.GET.get("business", DEMO_SLUG)
    if not SLUG.fullmatch(slug):
        raise Http404("No such business.")
    widget_origin = other_loopback_origin(scheme=request.scheme or "http", host=request.get_host())
    widget_origin = widget_origin or settings.PUBLIC_URL
    response = render(
        request,
        "pages/embed_example.html",
        {
            "slug": slug,
            "widget_origin": widget_origin,
            "page_origin": f"{request.scheme}://{request.get_host()}",
        },
    )
    # This page plays the embedding site: it loads the script and frames the booking page
    # from the widget's origin. Only this DEBUG page widens the policy.
    response._csp_replace = {  # type: ignore[attr-defined]
        "script-src": [SELF, widget_origin],
        "frame-src": [SELF, widget_origin],
    }
    return response
