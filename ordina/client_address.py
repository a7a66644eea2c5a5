"""The address a request comes from, for every per-client limit: the API's rate limit, holds per
address, and the dashboard's sign-in lock-out.

Without proxies (``TRUSTED_PROXY_COUNT`` 0, the default) it is the connecting address and any
X-Forwarded-For is ignored: a client could write anything there. Behind N proxies that each
append the address they were reached from, the client is the N-th address from the right of
X-Forwarded-For: what the outermost trusted proxy saw. Addresses further left were written by
the client and are ignored. The count must match the deployment exactly (docs/deploy.md).
This is how Django REST framework's throttles read ``NUM_PROXIES``, which is set from the same
count, so every limit counts the same client.
"""

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The client's address, or "" when the server reports none (such requests then share one
    allowance, never none)."""
    remote = request.META.get("REMOTE_ADDR") or ""
    trusted = settings.TRUSTED_PROXY_COUNT
    if not trusted:
        return remote
    forwarded = [
        address.strip()
        for address in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if address.strip()
    ]
    if not forwarded:
        return remote
    return forwarded[-min(trusted, len(forwarded))]
