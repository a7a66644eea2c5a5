"""The page a dashboard user sees when django-axes has paused signing in to their account from
their address (too many wrong passwords): what happened, for how long, and what to do.

It only explains; axes decides who is locked out and for how long (settings: AXES_*).
"""

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse


def minutes_phrase(minutes: int) -> str:
    return "1 minute" if minutes == 1 else f"{minutes} minutes"


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any = None
) -> HttpResponse:
    """Axes's AXES_LOCKOUT_CALLABLE: 429 with the lock-out page, on the admin's own layout."""
    minutes = settings.AXES_COOLOFF_MINUTES
    response = TemplateResponse(
        request,
        "admin/locked_out.html",
        {
            "title": "Signing in is paused",
            "site_header": "Ordina dashboard",
            "failure_limit": settings.AXES_FAILURE_LIMIT,
            "cooloff": minutes_phrase(minutes),
        },
        status=429,
    )
    response["Retry-After"] = str(minutes * 60)
    return response.render()
