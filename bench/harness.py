"""What the benchmarks and the concurrency tests share: a database of their own, migrated; a
business open for booking; N forked processes that act at the same instant; one booking
attempt, classified; and the one-line summary.

The harness decides nothing about bookings. It books through
``orchestration.appointment_changes.appointment_create`` (the core's door, reminders in step)
like any writer, and only counts what came back and what the database holds. The switches
that take a guarantee away (no lock, another isolation level) apply inside the worker processes
only, never to the process that checks the counts.
"""

import datetime as dt
import itertools
import math
import multiprocessing
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql

DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432"
BACKSTOP = "appointment_no_overlap_per_seat"  # bookings/migrations/0004
EXCLUSION_VIOLATION = "23P01"
SERIALIZATION_FAILURES = {"40001", "40P01"}  # serialization failure, deadlock

CONFIRMED = "confirmed"  # this attempt created the appointment
REPLAYED = "replayed"  # an earlier attempt with the same key had; its answer came back
REFUSED = "refused"  # SlotUnavailable
ERROR = "error"  # anything else: a 500 in production


# --- a database of one's own ----------------------------------------------------------------


def database_url(name: str) -> str:
    """DATABASE_URL (or the local server) with its database replaced by ``name``."""
    server = urlsplit(os.environ.get("DATABASE_URL") or DEFAULT_SERVER)
    return urlunsplit(server._replace(path=f"/{name}"))


def recreate_database(url: str) -> None:
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    maintenance = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(maintenance, autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def bench_database(name: str) -> str:
    """Drop and create database ``name``, point Django's test settings at it, migrate it.
    Returns its URL. Call before anything imports models."""
    url = database_url(name)
    recreate_database(url)
    os.environ["DATABASE_URL"] = url
    os.environ["DJANGO_SETTINGS_MODULE"] = "ordina.settings.test"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    return url


def drop_backstop() -> None:
    """Remove the seat exclusion constraint (benchmark databases only): what a double-booking
    looks like when nothing in the database refuses it."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE bookings_appointment DROP CONSTRAINT {BACKSTOP}")


# --- a business open for booking ------------------------------------------------------------


_unnamed_salons = itertools.count(1)


def open_salon(
    *,
    slug: str | None = None,
    time_zone: str = "Europe/Lisbon",
    opens: dt.time = dt.time(9),
    closes: dt.time = dt.time(17),
    **business_fields,
):
    """A business open ``opens``–``closes`` every day of the week, with no services yet; in
    Portugal, priced in euros, and every rule not given keeps the model's default. The one
    builder of a bookable business that the tests and the benchmarks share. Without a
    ``slug``, the next of salon-1, salon-2, … (never one a factory's sequence gives)."""
    from bookings.models import Business, OpeningHours

    slug = slug or f"salon-{next(_unnamed_salons)}"
    fields = {"name": slug.replace("-", " ").title(), "country": "PT", "currency": "EUR"}
    business = Business.objects.create(slug=slug, time_zone=time_zone, **(fields | business_fields))
    OpeningHours.objects.bulk_create(
        OpeningHours(business=business, weekday=day, opens_at=opens, closes_at=closes)
        for day in range(7)
    )
    return business


def open_business(
    *,
    slug: str,
    capacity: int,
    opens: dt.time = dt.time(9),
    closes: dt.time = dt.time(17),
    duration_minutes: int = 60,
    slot_interval_minutes: int = 60,
    horizon_days: int = 365,
    time_zone: str = "Europe/Lisbon",
):
    """A salon bookable an hour ahead, with one service; returns the service with its
    business loaded."""
    from decimal import Decimal

    from bookings.models import Service

    business = open_salon(
        slug=slug,
        time_zone=time_zone,
        opens=opens,
        closes=closes,
        capacity=capacity,
        min_notice_minutes=60,
        booking_horizon_days=horizon_days,
        slot_interval_minutes=slot_interval_minutes,
    )
    service = Service.objects.create(
        business=business,
        name="Visit",
        duration_minutes=duration_minutes,
        list_price=Decimal("40.00"),
        price_floor=Decimal("30.00"),
    )
    return Service.objects.select_related("business").get(pk=service.pk)


def open_all_day(slug: str):
    """A one-seat business in UTC open round the clock with fifteen-minute slots two years
    ahead: thousands of distinct slots for a benchmark's bookings, none taken twice."""
    return open_business(
        slug=slug,
        capacity=1,
        opens=dt.time(0),
        closes=dt.time(23, 59),
        duration_minutes=15,
        slot_interval_minutes=15,
        horizon_days=730,
        time_zone="UTC",
    )


def distinct_starts(service, count: int, *, first_day: dt.date | None = None) -> list[dt.datetime]:
    """``count`` slot starts whose occupancies never overlap, from ``first_day`` (tomorrow in
    the business's zone by default), in time order, back to back through each day's hours."""
    from bookings.availability import wall_to_instant

    business = service.business
    tz = business.tzinfo
    hours = business.opening_hours.order_by("opens_at").first()
    day = first_day or dt.datetime.now(tz).date() + dt.timedelta(days=1)
    step = dt.timedelta(minutes=max(service.duration_minutes, business.slot_interval_minutes))
    starts: list[dt.datetime] = []
    while len(starts) < count:
        start = wall_to_instant(day, hours.opens_at, tz)
        closing = wall_to_instant(day, hours.closes_at, tz, latest=True)
        while start + dt.timedelta(minutes=service.duration_minutes) <= closing:
            starts.append(start)
            start += step
        day += dt.timedelta(days=1)
    return starts[:count]


def occupying_at(business_id: int, start: dt.datetime, end: dt.datetime) -> tuple[int, int]:
    """(occupying appointments, distinct seats among them) overlapping [start, end), read
    straight from the table."""
    from django.db import connection

    from bookings.models import OCCUPYING_STATUSES

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*), count(DISTINCT seat) FROM bookings_appointment"
            " WHERE business_id = %s AND status = ANY(%s)"
            " AND occupied_from < %s AND occupied_until > %s",
            [business_id, sorted(OCCUPYING_STATUSES), end, start],
        )
        return cursor.fetchone()


# --- processes that act at the same instant -------------------------------------------------


@dataclass(frozen=True)
class WorkerFailure:
    """What a worker sends back when preparing or acting raised: the parent counts it as an
    error instead of waiting for an answer that will never come."""

    error: str


def _failure(exc: Exception) -> Callable[[], WorkerFailure]:
    return lambda: WorkerFailure(repr(exc))


def _contend(index, prepare, setup, barrier, inbox, results, timeout) -> None:
    from django.db import connections

    if setup is not None:
        setup()
    while (payload := inbox.get()) is not None:
        try:
            act = prepare(payload)
        except Exception as exc:
            act = _failure(exc)
        barrier.wait(timeout)  # a worker that never arrives breaks the barrier for all
        try:
            result = act()
        except Exception as exc:
            result = WorkerFailure(repr(exc))
        results.put((index, result))
    connections.close_all()


class Contenders:
    """``size`` forked processes, each with its own database connection, kept across rounds.

    Each round every worker gets a payload and calls ``prepare(payload)`` (untimed: load the
    service, build the request), which returns the act; then all wait at one barrier and act
    at once. ``setup`` runs once in each worker before its first connection — where a
    benchmark takes a guarantee away.
    """

    def __init__(
        self,
        size: int,
        prepare: Callable[[object], Callable[[], object]],
        *,
        setup: Callable[[], None] | None = None,
        timeout: float = 120.0,
    ) -> None:
        from django.db import connections

        # A child must never inherit the parent's socket: close it, each side reconnects.
        connections.close_all()
        context = multiprocessing.get_context("fork")
        self.size = size
        self.timeout = timeout
        barrier = context.Barrier(size)
        self._inboxes = [context.SimpleQueue() for _ in range(size)]
        self._results = context.Queue()
        self._processes = [
            context.Process(
                target=_contend,
                args=(i, prepare, setup, barrier, self._inboxes[i], self._results, timeout),
                daemon=True,
            )
            for i in range(size)
        ]
        for process in self._processes:
            process.start()

    def round(self, payloads: list) -> list:
        """One payload per worker in; their results out, in the same order."""
        if len(payloads) != self.size:
            raise ValueError(f"{len(payloads)} payloads for {self.size} workers")
        for inbox, payload in zip(self._inboxes, payloads, strict=True):
            inbox.put(payload)
        results: list = [None] * self.size
        for _ in range(self.size):
            index, result = self._results.get(timeout=self.timeout)
            results[index] = result
        return results

    def close(self) -> None:
        for inbox in self._inboxes:
            inbox.put(None)
        deadline = time.monotonic() + 10
        for process in self._processes:
            process.join(timeout=max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()

    def __enter__(self) -> "Contenders":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


# --- switches applied inside the workers ----------------------------------------------------


def without_booking_lock() -> None:
    """The booking service with its advisory lock taken away."""
    import bookings.services.booking as booking

    booking.lock_booking_days = lambda business_id, days: None


def with_business_row_lock() -> None:
    """The "locked counter row" alternative: SELECT ... FOR UPDATE on the business row instead
    of the advisory lock per (business, day)."""
    from django.db import connection

    import bookings.services.booking as booking

    def lock_business_row(business_id, days) -> None:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT id FROM bookings_business WHERE id = %s FOR UPDATE", [business_id]
            )

    booking.lock_booking_days = lock_business_row


def at_isolation(level: str) -> Callable[[], None]:
    """A worker setup that makes every later connection of the process run at ``level``
    (read_committed, repeatable_read, serializable)."""

    def setup() -> None:
        from django.db import connections

        isolation = psycopg.IsolationLevel[level.upper()]
        connections["default"].settings_dict.setdefault("OPTIONS", {})["isolation_level"] = (
            isolation
        )

    return setup


def all_of(*setups: Callable[[], None] | None) -> Callable[[], None]:
    def setup() -> None:
        for one in setups:
            if one is not None:
                one()

    return setup


# --- one booking attempt, classified --------------------------------------------------------


@dataclass(frozen=True)
class BookingRequest:
    service_id: int
    start: dt.datetime
    idempotency_key: str
    email: str
    name: str = "Contender"


@dataclass(frozen=True)
class Attempt:
    outcome: str  # CONFIRMED, REPLAYED, REFUSED or ERROR
    elapsed_ms: float
    public_id: str = ""
    manage_token: str = ""
    alternatives: tuple[dt.datetime, ...] = ()
    backstop_hits: int = 0  # statements the seat exclusion constraint refused
    serialization_failures: int = 0  # transactions aborted with 40001/40P01 (retried or not)
    error: str = ""


class DatabaseRefusals:
    """An execute wrapper counting the statements the seat exclusion constraint refused on
    this connection (appointment_create turns those into SlotUnavailable, so the answer alone
    cannot tell a backstop refusal from a lock-decided one)."""

    def __init__(self) -> None:
        self.backstop = 0

    def __call__(self, execute, sql_text, params, many, context):
        try:
            return execute(sql_text, params, many, context)
        except Exception as exc:
            self.note(exc)
            raise

    def note(self, exc: BaseException) -> None:
        cause = exc.__cause__ or exc
        state = getattr(cause, "sqlstate", None)
        diag = getattr(cause, "diag", None)
        if state == EXCLUSION_VIOLATION and getattr(diag, "constraint_name", None) == BACKSTOP:
            self.backstop += 1


def sqlstate(exc: BaseException) -> str | None:
    return getattr(exc.__cause__ or exc, "sqlstate", None)


def booking_attempt(request: BookingRequest, *, retries: int = 0) -> Callable[[], Attempt]:
    """Prepare one appointment_create call; the returned act makes it and classifies the
    answer. ``retries``: how often to retry a transaction the database aborted as a
    serialization failure (the SERIALIZABLE strategy; the service itself never retries)."""
    from django.db import DatabaseError, connection

    from bookings.errors import SlotUnavailable
    from bookings.models import Service
    from bookings.services import ClientDetails
    from orchestration.appointment_changes import appointment_create

    service = Service.objects.select_related("business").get(pk=request.service_id)
    client = ClientDetails(name=request.name, email=request.email)

    def act() -> Attempt:
        refusals = DatabaseRefusals()
        failures = 0
        started = time.perf_counter()
        with connection.execute_wrapper(refusals):
            while True:
                try:
                    outcome = appointment_create(
                        service=service,
                        start=request.start,
                        client=client,
                        idempotency_key=request.idempotency_key,
                    )
                except SlotUnavailable as refusal:
                    result = {
                        "outcome": REFUSED,
                        "alternatives": tuple(slot.start for slot in refusal.alternatives),
                    }
                except DatabaseError as exc:
                    if sqlstate(exc) in SERIALIZATION_FAILURES:
                        failures += 1
                        if failures <= retries:
                            continue
                    result = {"outcome": ERROR, "error": f"{type(exc).__name__}: {exc}"}
                except Exception as exc:
                    result = {"outcome": ERROR, "error": f"{type(exc).__name__}: {exc}"}
                else:
                    result = {
                        "outcome": CONFIRMED if outcome.created else REPLAYED,
                        "public_id": str(outcome.appointment.public_id),
                        "manage_token": outcome.manage_token,
                    }
                break
        return Attempt(
            elapsed_ms=(time.perf_counter() - started) * 1000,
            backstop_hits=refusals.backstop,
            serialization_failures=failures,
            **result,
        )

    return act


# --- reporting ------------------------------------------------------------------------------


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile, 0 < fraction <= 1."""
    ordered = sorted(values)
    return ordered[max(1, math.ceil(fraction * len(ordered))) - 1]


def median(values: list[float]) -> float:
    return statistics.median(values)


def summary(**values) -> str:
    """The benchmark's last line: key=value pairs, in the order given."""
    return " ".join(f"{key}={value}" for key, value in values.items())


class StatementCount:
    """An execute wrapper counting the statements Django sends; with ``keep``, it also keeps
    their text (for a benchmark's verbose listing)."""

    def __init__(self, *, keep: bool = False) -> None:
        self.statements = 0
        self.texts: list[str] | None = [] if keep else None

    def __call__(self, execute, sql_text, params, many, context):
        self.statements += 1
        if self.texts is not None:
            self.texts.append(sql_text)
        return execute(sql_text, params, many, context)
