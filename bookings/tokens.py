"""Management tokens for client links (view, cancel, reschedule one appointment).

A token is an HMAC of the appointment's public id under the server's secret key: 256 bits,
unguessable, and reproducible by the server, so a retried booking request returns the same
link. Only its SHA-256 is stored; the purpose is part of the MAC, so the token opens nothing
else. Expiry is kept beside the hash on the appointment.
"""

import base64
import hashlib
import hmac
import uuid

from django.conf import settings

PURPOSE = b"ordina.appointment.manage.v1:"


def manage_token(public_id: uuid.UUID) -> str:
    mac = hmac.new(settings.SECRET_KEY.encode(), PURPOSE + public_id.bytes, hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode()


def manage_url(public_id: uuid.UUID) -> str:
    """The client's link to their appointment (MANAGE_URL_TEMPLATE with its token)."""
    return settings.MANAGE_URL_TEMPLATE.format(token=manage_token(public_id))


def calendar_url(public_id: uuid.UUID) -> str:
    """The appointment's .ics for the client's calendar (CALENDAR_URL_TEMPLATE)."""
    return settings.CALENDAR_URL_TEMPLATE.format(token=manage_token(public_id))


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
