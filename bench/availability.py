"""Availability: open slots of a busy business over 1, 7 and 90 days.

    .venv/bin/python bench/availability.py [--appointments 10000] [--repeat 60] [--profile]

A business with capacity 3, open 06:00–22:00 every day (Europe/Lisbon), a 90-day horizon and
10,000 appointments over the next 90 days: 20-minute visits on a 20-minute grid, at most three
at a time, seats 1..3, inserted with bulk_create. One availability request is what the API
does: load the service with select_related("business"), then open_slots_for() for that
20-minute service on the business's 20-minute grid (a slot is open where fewer than three of
the existing appointments sit).

Last line: p50_ms and p99_ms of the 90-day request, queries (the most SQL statements any
request sent, service lookup included; goal <= 3 whatever the range), slots (offered over 90
days), the 1- and 7-day medians, and digest: a hash of every slot offered over 1, 7 and 90 days
(each start and end, their zones included). The data is seeded, so two versions of the code
run on the same day must print the same digest: a faster path that offers other slots shows.
--profile prints where a 90-day request spends its time.
"""

import argparse
import cProfile
import datetime as dt
import hashlib
import io
import pstats
import random
import sys
import time
from decimal import Decimal

import harness

DAYS = 90
CELL = dt.timedelta(minutes=20)


def fill(service, count: int, first_day: dt.date) -> None:
    """``count`` appointments on distinct (cell, seat) places of the next DAYS days: never
    more than three at a time, each in its own seat — what the booking service would store."""
    from bookings.availability import wall_to_instant
    from bookings.models import Appointment, AppointmentStatus, Client

    business = service.business
    tz = business.tzinfo
    places = []
    for offset in range(DAYS):
        day = first_day + dt.timedelta(days=offset)
        start = wall_to_instant(day, dt.time(6), tz)
        closing = wall_to_instant(day, dt.time(22), tz, latest=True)
        while start + CELL <= closing:
            places.extend((start, seat) for seat in (1, 2, 3))
            start += CELL
    if count > len(places):
        raise SystemExit(f"only {len(places)} places for {count} appointments")
    chosen = random.Random(20261129).sample(places, count)  # noqa: S311 - test data
    clients = Client.objects.bulk_create(
        Client(business=business, name=f"Client {n}", email=f"client{n}@example.com")
        for n in range(500)
    )
    Appointment.objects.bulk_create(
        (
            Appointment(
                business=business,
                service=service,
                client=clients[n % len(clients)],
                starts_at=start,
                ends_at=start + CELL,
                occupied_from=start,
                occupied_until=start + CELL,
                seat=seat,
                status=AppointmentStatus.CONFIRMED,
                price=Decimal("25.00"),
            )
            for n, (start, seat) in enumerate(chosen)
        ),
        batch_size=2000,
    )


def measure(service_id: int, first_day: dt.date, days: int, repeat: int):
    """Time ``repeat`` availability requests over ``days`` days; (times ms, max statements,
    slots of the last request)."""
    from django.db import connection

    from bookings.models import Service
    from bookings.selectors import open_slots_for

    times, most, slots = [], 0, []
    last_day = first_day + dt.timedelta(days=days - 1)
    for _ in range(repeat):
        count = harness.StatementCount()
        began = time.perf_counter()
        with connection.execute_wrapper(count):
            service = Service.objects.select_related("business").get(pk=service_id)
            slots = open_slots_for(
                service, first_day=first_day, last_day=last_day, now=dt.datetime.now(dt.UTC)
            )
        times.append((time.perf_counter() - began) * 1000)
        most = max(most, count.statements)
    return times, most, slots


def digest(*offered) -> str:
    """A short hash of slot lists: the repr of each start and end (the instant and its tzinfo),
    so equal digests mean equal values, not only equal counts."""
    text = "\n".join(repr((slot.start, slot.end)) for slots in offered for slot in slots)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def profile(service_id: int, first_day: dt.date) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    measure(service_id, first_day, DAYS, 10)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(30)
    print(out.getvalue())


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appointments", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=60, help="90-day requests")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--database", default="ordina_bench_availability")
    args = parser.parse_args(argv)

    harness.bench_database(args.database)
    from django.db import connection

    service = harness.open_business(
        slug="busy-studio",
        capacity=3,
        opens=dt.time(6),
        closes=dt.time(22),
        duration_minutes=20,
        slot_interval_minutes=20,
        horizon_days=DAYS,
    )
    first_day = dt.datetime.now(service.business.tzinfo).date() + dt.timedelta(days=1)
    fill(service, args.appointments, first_day)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # what autovacuum would have done after such an insert

    measure(service.pk, first_day, DAYS, 5)  # warm the connection and the plans
    day_ms, day_queries, day_slots = measure(service.pk, first_day, 1, args.repeat * 5)
    week_ms, week_queries, week_slots = measure(service.pk, first_day, 7, args.repeat * 2)
    quarter_ms, quarter_queries, slots = measure(service.pk, first_day, DAYS, args.repeat)
    if args.profile:
        profile(service.pk, first_day)
    print(
        harness.summary(
            appointments=args.appointments,
            days=DAYS,
            p50_ms=f"{harness.median(quarter_ms):.1f}",
            p99_ms=f"{harness.percentile(quarter_ms, 0.99):.1f}",
            queries=max(day_queries, week_queries, quarter_queries),
            slots=len(slots),
            p50_1d_ms=f"{harness.median(day_ms):.1f}",
            p50_7d_ms=f"{harness.median(week_ms):.1f}",
            queries_1d=day_queries,
            queries_7d=week_queries,
            queries_90d=quarter_queries,
            digest=digest(day_slots, week_slots, slots),
        )
    )


if __name__ == "__main__":
    main(sys.argv[1:])
