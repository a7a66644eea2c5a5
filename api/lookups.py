"""Finding what a public request names, or 404. A path segment is checked for shape before it
reaches a query, so no byte a client sends (NUL, a megabyte of text) can reach the database."""

import datetime as dt
import re

from django.db.models import QuerySet
from django.http import Http404

from bookings.models import Appointment, Business, Service
from bookings.tokens import token_hash

SLUG = re.compile(r"[-a-zA-Z0-9_]{1,60}")  # Business.slug: a SlugField of at most 60
TOKEN = re.compile(r"[-A-Za-z0-9_]{16,128}")  # manage tokens are url-safe base64


def business_or_404(slug: str) -> Business:
    business = Business.objects.filter(slug=slug).first() if SLUG.fullmatch(slug) else None
    if business is None:
        raise Http404
    return business


def bookable_services(business: Business) -> QuerySet[Service]:
    return (
        Service.objects.filter(business=business, is_active=True)
        .select_related("business")
        .order_by("name")
    )


def bookable_service_or_404(business: Business, service_id: int) -> Service:
    """One of the business's bookable services; another business's service is not found."""
    service = Service.objects.filter(business=business, pk=service_id, is_active=True).first()
    if service is None:
        raise Http404
    service.business = business
    return service


def appointment_for_token_or_404(token: str, *, now: dt.datetime) -> Appointment:
    """The appointment a management token opens. An unknown token, a malformed one and an
    expired one answer the same 404."""
    appointment = None
    if TOKEN.fullmatch(token):
        appointment = (
            Appointment.objects.select_related("business", "service__business")
            .filter(manage_token_hash=token_hash(token), manage_token_expires_at__gt=now)
            .first()
        )
    if appointment is None:
        raise Http404
    return appointment
