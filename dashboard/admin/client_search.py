"""Finding a client from the dashboard: by name, email or phone as people type them, and — in
the appointment form's client search — only among the clients the user may book for.

Phones are stored in E.164 ("+351912345678"), but people type "912 345 678" or
"020 7946 0958"; the search matches the typed digits inside the stored number, and the whole
number read as dialled in the business's country. The tenant scope is the client admin's own
(``BusinessScopedAdmin.get_queryset``); this module only ever narrows it.
"""

import re
from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet
from django.http import HttpRequest

from bookings.access import Action
from bookings.models import Business, normalize_phone
from bookings.scoped_admin import is_unscoped, tenant_access

PHONE_LIKE = re.compile(r"^[\d\s().\-/+]+$")
# Fewer digits than this match too many numbers to be a phone search; the name and email
# search still runs on them.
MIN_PHONE_DIGITS = 3
MAX_ID_DIGITS = 18  # a bigint's worth: anything longer names no business


def looks_like_phone(term: str) -> bool:
    """Whether ``term`` is typed like a phone number (digits, spaces, + ( ) . - /) with enough
    digits to be worth a phone search."""
    term = term.strip()
    return bool(PHONE_LIKE.match(term)) and len(re.sub(r"\D", "", term)) >= MIN_PHONE_DIGITS


def phone_search(term: str, countries: Iterable[str]) -> Q:
    """A filter for clients whose stored phone is the one typed (``looks_like_phone``): its
    digits anywhere in the number ("912 345 678" finds +351912345678), or the whole number as
    dialled in one of ``countries`` ("020 7946 0958" in GB finds +442079460958)."""
    term = term.strip()
    found = Q(phone__contains=re.sub(r"\D", "", term))
    for country in sorted(set(countries)):
        try:
            found |= Q(phone=normalize_phone(term, country))
        except ValidationError:
            continue  # not a whole number there; the digits may still match
    return found


def is_appointment_client_search(request: HttpRequest) -> bool:
    """Whether ``request`` is the appointment form's client search (the admin's autocomplete
    view names the field it serves)."""
    asks = request.GET
    return (asks.get("app_label"), asks.get("model_name"), asks.get("field_name")) == (
        "bookings",
        "appointment",
        "client",
    )


def clients_to_book(request: HttpRequest, clients: QuerySet) -> QuerySet:
    """``clients`` narrowed to the businesses where the user may book, and to the business
    chosen in the form when it sends one (an id the user may not book at finds nobody)."""
    if not is_unscoped(request):
        bookable = tenant_access(request).businesses("bookings.appointment", Action.ADD)
        clients = clients.filter(business_id__in=bookable)
    chosen = request.GET.get("business", "").strip()
    if chosen:
        is_id = chosen.isdigit() and len(chosen) <= MAX_ID_DIGITS
        clients = clients.filter(business_id=int(chosen)) if is_id else clients.none()
    return clients


def countries_of(clients: QuerySet) -> list[str]:
    """The countries of the businesses behind ``clients``: where a typed phone is read."""
    return list(
        Business.objects.filter(pk__in=clients.values("business_id"))
        .values_list("country", flat=True)
        .distinct()
        .order_by()
    )
