"""Reads for the booking core: the database rows turned into the plain values that
``bookings.availability`` and ``bookings.negotiation`` decide on. Two queries per availability
request whatever the date range: one for the schedule (weekly hours and overrides), one for
everything that takes time (appointments, other clients' holds, busy blocks)."""

import datetime as dt
import functools
from collections import defaultdict

from django.db import connection
from django.db.models import IntegerField, Q, Value

from bookings.availability import (
    NOTHING,
    BookingRules,
    Columns,
    Interval,
    Schedule,
    ServiceShape,
    Taken,
    open_slots,
    to_micros,
    wall_to_instant,
)
from bookings.models import (
    OCCUPYING_STATUSES,
    Appointment,
    Business,
    BusyBlock,
    Service,
    SlotHold,
    TermsSource,
)
from bookings.negotiation import Terms

# Room around the requested days for occupancies that reach into them (buffers, late hours).
MARGIN = dt.timedelta(days=1)


def booking_rules(business: Business) -> BookingRules:
    return BookingRules(
        time_zone=business.tzinfo,
        capacity=business.capacity,
        min_notice=dt.timedelta(minutes=business.min_notice_minutes),
        horizon_days=business.booking_horizon_days,
        slot_interval=dt.timedelta(minutes=business.slot_interval_minutes),
    )


def service_shape(service: Service) -> ServiceShape:
    return ServiceShape(
        duration=dt.timedelta(minutes=service.duration_minutes),
        buffer_before=dt.timedelta(minutes=service.buffer_before_minutes),
        buffer_after=dt.timedelta(minutes=service.buffer_after_minutes),
    )


# Weekly hours (a weekday, no date) and the date overrides of a range (a date, no weekday; a
# closure has no times). Hand-written: the booking reads it under its lock, and compiling the
# ORM's union cost more than running it.
SCHEDULE_SQL = """
    SELECT weekday, CAST(NULL AS date), opens_at, closes_at
      FROM bookings_openinghours WHERE business_id = %(business)s
    UNION ALL
    SELECT CAST(NULL AS integer), date, opens_at, closes_at
      FROM bookings_dateoverride
     WHERE business_id = %(business)s AND date BETWEEN %(first)s AND %(last)s
"""


def schedule_between(business: Business, first_day: dt.date, last_day: dt.date) -> Schedule:
    """Weekly hours and the overrides of [first_day, last_day], in one query."""
    with connection.cursor() as cursor:
        cursor.execute(
            SCHEDULE_SQL, {"business": business.pk, "first": first_day, "last": last_day}
        )
        rows = cursor.fetchall()
    weekly_ranges: dict[int, list] = defaultdict(list)
    override_ranges: dict[dt.date, list] = {}
    for weekday, day, opens_at, closes_at in rows:
        if day is None:
            weekly_ranges[weekday].append((opens_at, closes_at))
            continue
        ranges = override_ranges.setdefault(_date(day), [])
        if opens_at is not None:  # a closure contributes no range
            ranges.append((opens_at, closes_at))
    return Schedule(
        weekly={day: sorted(ranges) for day, ranges in weekly_ranges.items()},
        overrides={day: sorted(ranges) for day, ranges in override_ranges.items()},
    )


def _date(value: dt.date | str) -> dt.date:
    # On SQLite a column of a UNION takes its type from the first SELECT, where the date is a
    # bare NULL: the dates come back as ISO text (the times, typed there, come back as times).
    return dt.date.fromisoformat(value) if isinstance(value, str) else value


APPOINTMENT, HOLD, BLOCK = 1, 2, 3

# What takes time, grouped: one row per (kind, seat) with the spans' starts and ends as two
# arrays of whole microseconds since the epoch, in no particular order (ordering inside the
# aggregate costs the database more than sorting costs Python). extract(epoch ...) is numeric,
# exact, on PostgreSQL 14 and later, and so is its product. An aggregate over no rows still
# gives one row, of NULL arrays: those are read as empty.
CALENDAR_SQL = """
    SELECT {appointment}, a.seat,
           array_agg((extract(epoch FROM a.occupied_from) * 1000000)::bigint),
           array_agg((extract(epoch FROM a.occupied_until) * 1000000)::bigint)
      FROM {appointments} a
     WHERE a.business_id = %(business)s AND a.status = ANY(%(statuses)s)
       AND a.occupied_from < %(end)s AND a.occupied_until > %(start)s
       AND a.id <> %(excluding)s
     GROUP BY a.seat
    UNION ALL
    SELECT {hold}, NULL,
           array_agg((extract(epoch FROM h.occupied_from) * 1000000)::bigint),
           array_agg((extract(epoch FROM h.occupied_until) * 1000000)::bigint)
      FROM {holds} h
     WHERE h.business_id = %(business)s AND h.expires_at > %(now)s
       AND h.occupied_from < %(end)s AND h.occupied_until > %(start)s
       AND h.holder <> %(holder)s
    UNION ALL
    SELECT {block}, NULL,
           array_agg((extract(epoch FROM b.starts_at) * 1000000)::bigint),
           array_agg((extract(epoch FROM b.ends_at) * 1000000)::bigint)
      FROM {blocks} b
     WHERE b.business_id = %(business)s AND b.starts_at < %(end)s AND b.ends_at > %(start)s
"""

# (kind, seat or None, starts, ends): the calendar as both readers below return it.
CalendarGroups = list[tuple[int, int | None, list[int] | None, list[int] | None]]


def calendar_between(
    business: Business,
    start: dt.datetime,
    end: dt.datetime,
    *,
    now: dt.datetime,
    holder: str | None = None,
    excluding_appointment: int | None = None,
) -> Taken:
    """Occupying appointments (with their seats), unexpired holds of other holders, and busy
    blocks overlapping [start, end), in one query."""
    read = calendar_groups_sql if connection.vendor == "postgresql" else calendar_groups_orm
    groups = read(
        business,
        start,
        end,
        now=now,
        holder=holder,
        excluding_appointment=excluding_appointment,
    )
    seated: dict[int, Columns] = {}
    held = blocked = NOTHING
    for kind, seat, starts, ends in groups:
        columns = (starts or [], ends or [])
        if kind == APPOINTMENT and seat is not None:
            seated[seat] = columns
        elif kind == HOLD:
            held = columns
        elif kind == BLOCK:
            blocked = columns
    return Taken.of_micros(held=held, blocked=blocked, seated=seated)


def calendar_groups_sql(
    business: Business,
    start: dt.datetime,
    end: dt.datetime,
    *,
    now: dt.datetime,
    holder: str | None,
    excluding_appointment: int | None,
) -> CalendarGroups:
    """The calendar on PostgreSQL, in one hand-written query read as plain tuples: no model
    instances, no datetime converters (see ``CALENDAR_SQL``)."""
    params: dict[str, int | str | dt.datetime | list[str]] = {
        "business": business.pk,
        "statuses": list(_OCCUPYING),
        "start": start,
        "end": end,
        "now": now,
        # Ids are positive and a holder is never empty (a check constraint on holds), so
        # these stand-ins exclude nothing.
        "excluding": excluding_appointment if excluding_appointment is not None else 0,
        "holder": holder or "",
    }
    with connection.cursor() as cursor:
        cursor.execute(_calendar_sql(), params)
        return cursor.fetchall()


_OCCUPYING = tuple(sorted(str(status) for status in OCCUPYING_STATUSES))


@functools.cache
def _calendar_sql() -> str:
    # Filled in once: the tables' names do not change while the process runs.
    return CALENDAR_SQL.format(
        appointment=APPOINTMENT,
        hold=HOLD,
        block=BLOCK,
        appointments=connection.ops.quote_name(Appointment._meta.db_table),
        holds=connection.ops.quote_name(SlotHold._meta.db_table),
        blocks=connection.ops.quote_name(BusyBlock._meta.db_table),
    )


def calendar_groups_orm(
    business: Business,
    start: dt.datetime,
    end: dt.datetime,
    *,
    now: dt.datetime,
    holder: str | None,
    excluding_appointment: int | None,
) -> CalendarGroups:
    """The same groups through the ORM, for a database without the SQL above (the demo's
    SQLite): one UNION ALL query, its datetimes turned into epoch microseconds here."""
    appointment_rows = Appointment.objects.filter(
        business=business,
        status__in=OCCUPYING_STATUSES,
        occupied_from__lt=end,
        occupied_until__gt=start,
    )
    if excluding_appointment is not None:
        appointment_rows = appointment_rows.exclude(pk=excluding_appointment)
    appointments = (
        appointment_rows.annotate(kind=Value(APPOINTMENT))
        .values_list("kind", "seat", "occupied_from", "occupied_until")
        .order_by()
    )
    holds = (
        SlotHold.objects.filter(
            business=business,
            expires_at__gt=now,
            occupied_from__lt=end,
            occupied_until__gt=start,
        )
        .exclude(holder=holder or "")
        .annotate(kind=Value(HOLD), no_seat=Value(None, output_field=IntegerField()))
        .values_list("kind", "no_seat", "occupied_from", "occupied_until")
        .order_by()
    )
    blocks = (
        BusyBlock.objects.filter(business=business, starts_at__lt=end, ends_at__gt=start)
        .annotate(kind=Value(BLOCK), no_seat=Value(None, output_field=IntegerField()))
        .values_list("kind", "no_seat", "starts_at", "ends_at")
        .order_by()
    )
    groups: dict[tuple[int, int | None], tuple[list[int], list[int]]] = {}
    for kind, seat, begins, ends in appointments.union(holds, blocks, all=True).order_by():
        starts_of, ends_of = groups.setdefault((kind, seat), ([], []))
        starts_of.append(to_micros(begins))
        ends_of.append(to_micros(ends))
    return [(kind, seat, starts, ends) for (kind, seat), (starts, ends) in groups.items()]


def day_bounds(business: Business, first_day: dt.date, last_day: dt.date) -> Interval:
    """The instants from the start of ``first_day`` to the end of ``last_day`` in the business's
    zone, widened by a margin for occupancies reaching in."""
    tz = business.tzinfo
    return Interval(
        wall_to_instant(first_day, dt.time(0), tz) - MARGIN,
        wall_to_instant(last_day + dt.timedelta(days=1), dt.time(0), tz) + MARGIN,
    )


def open_slots_for(
    service: Service,
    *,
    first_day: dt.date,
    last_day: dt.date,
    now: dt.datetime,
    holder: str | None = None,
    excluding_appointment: int | None = None,
) -> list[Interval]:
    """The slots a client can book for ``service`` between two days (the business's zone).
    A holder sees its own held slot as open, and an appointment being moved does not stand in
    its own way. ``service.business`` should be loaded already."""
    business = service.business
    span = day_bounds(business, first_day, last_day)
    return open_slots(
        rules=booking_rules(business),
        schedule=schedule_between(business, first_day, last_day),
        service=service_shape(service),
        taken=calendar_between(
            business,
            span.start,
            span.end,
            now=now,
            holder=holder,
            excluding_appointment=excluding_appointment,
        ),
        now=now,
        first_day=first_day,
        last_day=last_day,
    )


def negotiation_terms(service: Service) -> Terms | None:
    """The terms a price offer for ``service`` is answered by: the service's own when it has
    them, else the business's default; None when that source does not negotiate. No query
    beyond ``service.business`` (usually loaded with the service)."""
    source = service if service.negotiation_terms == TermsSource.OWN else service.business
    if not source.negotiable:
        return None
    return source.terms_at(list_price=service.list_price, floor=service.price_floor)


def negotiation_enabled(business: Business) -> bool:
    """Whether a client of ``business`` may make a price offer at all: some bookable service
    negotiates, by its own terms or by the business's. One query."""
    negotiates = Q(negotiation_terms=TermsSource.OWN, negotiable=True)
    if business.negotiable:
        negotiates |= Q(negotiation_terms=TermsSource.BUSINESS)
    return Service.objects.filter(negotiates, business=business, is_active=True).exists()
