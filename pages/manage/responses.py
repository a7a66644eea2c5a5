"""What every answer under ``/manage/<token>/`` shares, whatever it is (the page, a step, a
refusal, the .ics, a 404): the token in its path is the client's only key, so no browser or
proxy may store the answer (``Cache-Control: no-store``) and no page it leads to may learn its
address (``Referrer-Policy: no-referrer``). Framing stays refused by the project's clickjacking
middleware: nothing here opts out of it.

An unknown, malformed or expired token, and any other path under /manage/, answer the very
same 404 page, so a guess learns nothing.
"""

from collections.abc import Callable
from functools import wraps

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control

View = Callable[..., HttpResponse]


def keep_private(response: HttpResponse) -> HttpResponse:
    patch_cache_control(response, no_store=True)
    response.headers["Referrer-Policy"] = "no-referrer"
    # A link that is a key has no business in a search index.
    response.headers["X-Robots-Tag"] = "noindex, nofollow"
    return response


def not_found(request: HttpRequest) -> HttpResponse:
    """The one 404 page, in the server's language (an expired link must not answer in its
    business's language, or it would differ from an unknown one)."""
    return keep_private(render(request, "pages/not_found.html", status=404))


def private(view: View) -> View:
    """The view's answer, or the 404 page, with the headers above on either."""

    @wraps(view)
    def answer(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            response = view(request, *args, **kwargs)
        except Http404:
            return not_found(request)
        return keep_private(response)

    return answer
