"""One log line per request on the ``ordina.requests`` logger: the method, the URL's route, the
status, the time taken and the client's address, under the request's id (django-guid).

The route is the pattern the request matched (``api/v1/manage/<str:token>/``), never the path
or the query string: paths carry the secret tokens of manage links and conversations, and a
log is read by more people than those tokens are meant for. A path no pattern matches logs as
``unmatched``. The health endpoints are answered before this middleware and never logged.
Django's own lines about refused and failed requests ("Not Found: <path>", "Forbidden (CSRF
...): <path>") get the route in place of the path too (``PathAsRoute``, on the log handler).

It reads nothing from the database: a request's queries stay those of its view.
"""

import logging
import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve

from ordina.client_address import client_address

logger = logging.getLogger("ordina.requests")

UNMATCHED = "unmatched"


def route_of(request: HttpRequest) -> str:
    """The pattern ``request`` matched; resolved here when it failed before its view was found
    (a middleware's error)."""
    match = request.resolver_match
    if match is None:
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return UNMATCHED
    return match.route


class RequestLogMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        duration_ms = round((time.perf_counter() - started) * 1000, 1)
        route = route_of(request)
        client = client_address(request)
        logger.info(
            "%s %s %s %.1f ms from %s",
            request.method,
            route,
            response.status_code,
            duration_ms,
            client or "-",
            # Separate fields for a JSON log's reader, beside the sentence above.
            extra={
                "method": request.method,
                "route": route,
                "status": response.status_code,
                "duration_ms": duration_ms,
                "client": client,
            },
        )
        return response


class PathAsRoute(logging.Filter):
    """Writes the route where a ``django.request`` line names the request's path. Django
    escapes the arguments it logs, so the path is compared escaped."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        if isinstance(request, HttpRequest) and isinstance(record.args, tuple):
            path = request.path.encode("unicode_escape").decode("ascii")
            route = route_of(request)
            record.args = tuple(route if arg == path else arg for arg in record.args)
        return True
