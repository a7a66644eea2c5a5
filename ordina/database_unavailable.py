"""What a request gets when the database cannot be reached: refused when connecting, or lost in
the middle of the request. Every such request answers 503 with Retry-After, and the cause is
logged as one line — never a 500, never a traceback page.

- The API (``/api/``) and the payment endpoints (``/payments/``: Stripe's webhook, the internal
  verification call) answer JSON, ``{"detail": ..., "code": "database_unavailable"}``; Stripe
  sees a non-2xx and delivers the event again later.
- Every other page (the dashboard) answers a short plain-text 503.

A failure in a view reaches ``process_exception``. One raised by another middleware (the
dashboard's session and user are read there) never does: Django turns it into a 500 inside
that middleware. For those, the failure is noted on the request when Django reports it
(``got_request_exception``) and the 500 is replaced here, as the outermost middleware.
Django's own lines for such a request ("Internal Server Error" with a traceback, "Service
Unavailable") are dropped by ``OneLinePerDatabaseFailure`` on the ``django.request`` logger
(settings.LOGGING): the line logged here says what happened.

This module decides only the answer; it never retries, and it treats no other error.
"""

import logging
import sys
from collections.abc import Callable
from typing import Any

from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import patch_cache_control

from ordina.request_log import route_of

logger = logging.getLogger(__name__)

# Refused, dropped or closed connections, and the server going away, all arrive as these.
DATABASE_ERRORS = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 30
JSON_PATH_PREFIXES = ("/api/", "/payments/")
DETAIL = "The service is briefly unavailable: its database cannot be reached. Try again shortly."
NOTED_FAILURE = "_ordina_database_failure"


def is_database_failure(error: BaseException | None) -> bool:
    return isinstance(error, DATABASE_ERRORS)


def unavailable_response(request: HttpRequest, error: BaseException) -> HttpResponse:
    """The 503 for ``request``, after logging ``error`` (its class and message: the cause). The
    request is named by its route, never its path, which can carry a secret token."""
    logger.error(
        "Database unavailable, answering 503 to %s %s: %s: %s",
        request.method,
        route_of(request),
        type(error).__name__,
        " ".join(str(error).split()),  # psycopg's messages span lines; the log keeps one
    )
    response: HttpResponse
    if request.path.startswith(JSON_PATH_PREFIXES):
        response = JsonResponse({"detail": DETAIL, "code": "database_unavailable"}, status=503)
    else:
        response = HttpResponse(DETAIL, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    patch_cache_control(response, no_store=True)
    return response


def note_database_failure(sender: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
    """Sent while Django handles an exception no one caught: remember a database failure."""
    error = sys.exc_info()[1]
    if request is not None and is_database_failure(error):
        setattr(request, NOTED_FAILURE, error)


class OneLinePerDatabaseFailure(logging.Filter):
    """A filter for the ``django.request`` logger: drops its records about a request whose
    database failure ``unavailable_response`` logs."""

    def filter(self, record: logging.LogRecord) -> bool:
        return getattr(getattr(record, "request", None), NOTED_FAILURE, None) is None


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        got_request_exception.connect(note_database_failure, dispatch_uid=NOTED_FAILURE)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        noted = getattr(request, NOTED_FAILURE, None)
        if noted is not None and response.status_code == 500:
            return unavailable_response(request, noted)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_database_failure(exception):
            setattr(request, NOTED_FAILURE, exception)
            return unavailable_response(request, exception)
        return None
