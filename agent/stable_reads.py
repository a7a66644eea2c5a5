"""What a turn reads of its business that rarely changes — the bookable services, the weekly
opening hours (for the dayparts a message names), the agent's grants, the knowledge base —
kept in the process, keyed by the business's read stamp (agent.models.BusinessStamp).

Every insert, update or delete of those tables' rows gives the business a new stamp, by
database triggers (agent/migrations/0020_business_stamp.py), whoever the writer is. The turn
reads the stamp in the statement that locks its conversation (agent.conversation.row_read),
so the cache costs no query: a hit is a stamp seen before, a new stamp reads afresh. The stamp
lives in the database and the cache only in memory, so every process (and every test) sees
another's writes on its next turn. A business whose stamp was not read with its row (a
Business loaded any other way) or that has none is read from the database every time, as
before.

Bounded: the last ``MAX_BUSINESSES`` businesses used, one state each (a new stamp replaces the
business's entry). What is kept is immutable (tuples, strings, frozensets); the services are
kept as their rows and built into new instances for each request, so no request can change
what another sees.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from django.db import connection
from django.db.models import Model

from agent.models import AgentGrant
from bookings.models import Business, OpeningHours, Service, TermsSource
from knowledge.models import KnowledgeSource

MAX_BUSINESSES = 512

# The models whose rows are kept here: each table must carry the stamp triggers (tests/agent/
# test_stable_reads.py checks the database for them).
CACHED_MODELS: tuple[type[Model], ...] = (Service, OpeningHours, AgentGrant, KnowledgeSource)

_entries: OrderedDict[int, tuple[int, dict[str, Any]]] = OrderedDict()
_lock = threading.Lock()


def read_stamp(business: Business) -> int | None:
    """The stamp read with ``business``'s row in this request, None when it was not."""
    return getattr(business, "read_stamp", None)


def kept[T](business: Business, name: str, load: Callable[[], T]) -> T:
    """``name`` of ``business`` as ``load`` reads it, from the process's cache while the
    business's stamp is the one it was kept under. ``load`` must return an immutable value."""
    stamp = read_stamp(business)
    if stamp is None:
        return load()
    with _lock:
        entry = _entries.get(business.pk)
        if entry is not None and entry[0] == stamp:
            _entries.move_to_end(business.pk)
            if name in entry[1]:
                return entry[1][name]
    value = load()
    with _lock:
        entry = _entries.get(business.pk)
        if entry is None or entry[0] != stamp:
            entry = (stamp, {})
            _entries[business.pk] = entry
        entry[1][name] = value
        _entries.move_to_end(business.pk)
        while len(_entries) > MAX_BUSINESSES:
            _entries.popitem(last=False)
    return value


def forget_all() -> None:
    """Empty the cache (tests that count queries from a cold start)."""
    with _lock:
        _entries.clear()


def cached_businesses() -> int:
    return len(_entries)


# --- what is kept -------------------------------------------------------------------------


_SERVICE_FIELDS = tuple(field.attname for field in Service._meta.concrete_fields)


def active_services(business: Business) -> list[Service]:
    """The business's bookable services by name, with ``business`` set: read once per request
    (kept on the instance), as new instances of the rows kept here."""
    memo = getattr(business, "_active_services", None)
    if memo is None:
        memo = business._active_services = _built_services(business)  # type: ignore[attr-defined]
    return memo


def negotiates(business: Business) -> bool:
    """bookings.selectors.negotiation_enabled, from the services kept here: some bookable
    service negotiates, by its own terms or by the business's (read with its row)."""
    return any(
        (service.negotiation_terms == TermsSource.OWN and service.negotiable)
        or (service.negotiation_terms == TermsSource.BUSINESS and business.negotiable)
        for service in active_services(business)
    )


def _built_services(business: Business) -> list[Service]:

    def load() -> tuple[tuple[Any, ...], ...]:
        rows = Service.objects.filter(business=business, is_active=True).order_by("name")
        return tuple(rows.values_list(*_SERVICE_FIELDS))

    services = []
    for row in kept(business, "services", load):
        service = Service.from_db(connection.alias, _SERVICE_FIELDS, row)
        service.business = business
        services.append(service)
    return services


def weekly_hours(business: Business) -> tuple[tuple[Any, ...], ...]:
    """The business's weekly opening hours: (weekday, opens_at, closes_at) rows."""
    return kept(
        business,
        "weekly_hours",
        lambda: tuple(
            # Ordered by its own columns: the model's ordering would join the business.
            OpeningHours.objects.filter(business=business)
            .order_by("weekday", "opens_at")
            .values_list("weekday", "opens_at", "closes_at")
        ),
    )


def stored_grants(business: Business, excluded: frozenset[str]) -> frozenset[str]:
    """The actions granted by the business's grant rows, less ``excluded``."""
    return kept(
        business,
        f"grants:{','.join(sorted(excluded))}",
        lambda: frozenset(
            AgentGrant.objects.filter(business=business)
            .exclude(action__in=excluded)
            .order_by()  # a set: the model's ordering would join the business
            .values_list("action", flat=True)
        ),
    )


def knowledge(business: Business, budget: int, load: Callable[[], str]) -> str:
    """The knowledge block of ``budget`` characters that ``load`` composes."""
    return kept(business, f"knowledge:{budget}", load)
