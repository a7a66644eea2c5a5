"""Booking throughput: appointment_create (the flows' door, Django) against the same
transaction in raw psycopg, in one run, on one database, in alternating equal batches.

    .venv/bin/python bench/booking_throughput.py [--bookings 1000] [--batch 100]
                                                 [--verbose] [--profile]

Every booking takes a distinct slot of a business open 00:00–23:59 every day (15-minute
service, 15-minute grid, capacity 1), for a new client, with an idempotency key — so each one
succeeds and both paths do the full work: replay check, BEGIN, advisory lock, replay check,
schedule, calendar, the capacity decision, client insert, appointment insert, event insert,
COMMIT. The service's path also plans the appointment's reminders in the same transaction
(the reminder settings, the reminder rows); the raw path does not, so the ratio is on the
service's side of fair. The raw path decides with the same pure functions
(bookings.availability), so the ratio measures Django and the service's Python around the
SQL, not a different rule. --profile prints where 200 more bookings spend their time.

Last line: orm_per_s, raw_per_s, ratio (orm/raw; goal >= 0.5), queries_per_booking (SQL
statements the service sends per booking, counted by an execute wrapper; BEGIN and COMMIT not
included), raw_queries_per_booking. --verbose first lists the statements of one booking on each
path, in the order sent.
"""

import argparse
import cProfile
import datetime as dt
import io
import json
import pstats
import sys
import time
import uuid
from collections import defaultdict
from decimal import Decimal

import harness
import psycopg


class RawBooking:
    """appointment_create's transaction in plain SQL over one psycopg connection (autocommit,
    with an explicit transaction for the booking itself). No ORM: the service's facts are
    read once, as plain values, like the ORM path's already-loaded service."""

    def __init__(self, url: str, service) -> None:
        from bookings.selectors import booking_rules, service_shape

        self.conn = psycopg.connect(url, autocommit=True)
        business = service.business
        self.business_id = business.pk
        self.service_id = service.pk
        self.service = service  # only for request_fingerprint's plain attributes
        self.rules = booking_rules(business)
        self.shape = service_shape(service)
        self.price = service.list_price
        self.statements = 0
        self.texts: list[str] | None = None  # when set, each statement's text is kept

    def _sent(self, query: str) -> None:
        self.statements += 1
        if self.texts is not None:
            self.texts.append(query)

    def _one(self, query: str, params: list):
        self._sent(query)
        return self.conn.execute(query, params).fetchone()

    def _all(self, query: str, params: list) -> list:
        self._sent(query)
        return self.conn.execute(query, params).fetchall()

    def _replay(self, key: str, fingerprint: str) -> uuid.UUID | None:
        row = self._one(
            "SELECT public_id, request_fingerprint FROM bookings_appointment"
            " WHERE business_id = %s AND idempotency_key = %s",
            [self.business_id, key],
        )
        if row is None:
            return None
        if row[1] != fingerprint:
            raise ValueError("idempotency conflict")
        return row[0]

    def _schedule(self, day: dt.date):
        from bookings.availability import Schedule

        rows = self._all(
            "SELECT weekday, NULL::date, opens_at, closes_at FROM bookings_openinghours"
            " WHERE business_id = %s"
            " UNION ALL SELECT NULL, date, opens_at, closes_at FROM bookings_dateoverride"
            " WHERE business_id = %s AND date BETWEEN %s AND %s",
            [self.business_id, self.business_id, day, day],
        )
        weekly, overrides = defaultdict(list), {}
        for weekday, on_date, opens_at, closes_at in rows:
            if on_date is None:
                weekly[weekday].append((opens_at, closes_at))
                continue
            ranges = overrides.setdefault(on_date, [])
            if opens_at is not None:
                ranges.append((opens_at, closes_at))
        return Schedule(
            weekly={d: sorted(r) for d, r in weekly.items()},
            overrides={d: sorted(r) for d, r in overrides.items()},
        )

    def _calendar(self, start: dt.datetime, end: dt.datetime, now: dt.datetime):
        from bookings.availability import Interval, Taken
        from bookings.models import OCCUPYING_STATUSES

        rows = self._all(
            "SELECT 1, occupied_from, occupied_until, seat FROM bookings_appointment"
            " WHERE business_id = %s AND status = ANY(%s)"
            " AND occupied_from < %s AND occupied_until > %s"
            " UNION ALL SELECT 2, occupied_from, occupied_until, 0 FROM bookings_slothold"
            " WHERE business_id = %s AND expires_at > %s"
            " AND occupied_from < %s AND occupied_until > %s"
            " UNION ALL SELECT 3, starts_at, ends_at, 0 FROM bookings_busyblock"
            " WHERE business_id = %s AND starts_at < %s AND ends_at > %s",
            [
                *(self.business_id, sorted(OCCUPYING_STATUSES), end, start),
                *(self.business_id, now, end, start),
                *(self.business_id, end, start),
            ],
        )
        seated, held, blocked = [], [], []
        for kind, begins, ends, seat in rows:
            interval = Interval(begins, ends)
            if kind == 1:
                seated.append((interval, seat))
            elif kind == 2:
                held.append(interval)
            else:
                blocked.append(interval)
        return Taken.of(held=held, blocked=blocked, seated=seated)

    def create(self, *, start: dt.datetime, name: str, email: str, key: str) -> uuid.UUID:
        from bookings.availability import free_seat, is_open_slot, lock_days
        from bookings.locks import lock_key
        from bookings.services import ClientDetails
        from bookings.services.booking import request_fingerprint
        from bookings.tokens import manage_token, token_hash

        now = dt.datetime.now(dt.UTC)
        fingerprint = request_fingerprint(self.service, start, ClientDetails(name, email))
        if earlier := self._replay(key, fingerprint):
            return earlier
        occupancy = self.shape.occupancy(start)
        day = start.astimezone(self.rules.time_zone).date()
        with self.conn.transaction():
            for lock_day in lock_days(occupancy, self.rules.time_zone):
                self._one(
                    "SELECT pg_advisory_xact_lock(%s)", [lock_key(self.business_id, lock_day)]
                )
            if earlier := self._replay(key, fingerprint):
                return earlier
            schedule = self._schedule(day)
            taken = self._calendar(
                occupancy.start - dt.timedelta(days=1), occupancy.end + dt.timedelta(days=1), now
            )
            if not is_open_slot(
                start, rules=self.rules, schedule=schedule, service=self.shape, taken=taken, now=now
            ):
                raise LookupError("slot not open")
            seat = free_seat(occupancy, taken, self.rules.capacity)
            client = self._one(
                "INSERT INTO bookings_client"
                " (created_at, updated_at, name, email, phone, business_id)"
                " VALUES (now(), now(), %s, %s, '', %s) ON CONFLICT DO NOTHING RETURNING id",
                [name, email, self.business_id],
            ) or self._one(
                "SELECT id FROM bookings_client WHERE business_id = %s AND lower(email) = %s",
                [self.business_id, email],
            )
            public_id = uuid.uuid4()
            ends = start + self.shape.duration
            appointment_id = self._one(
                "INSERT INTO bookings_appointment (created_at, updated_at, public_id, starts_at,"
                " ends_at, occupied_from, occupied_until, seat, status, price, idempotency_key,"
                " request_fingerprint, manage_token_hash, manage_token_expires_at, notes,"
                " business_id, client_id, service_id) VALUES (now(), now(), %s, %s, %s, %s, %s,"
                " %s, 'confirmed', %s, %s, %s, %s, %s, '', %s, %s, %s) RETURNING id",
                [
                    *(public_id, start, ends, occupancy.start, occupancy.end, seat, self.price),
                    *(key, fingerprint, token_hash(manage_token(public_id)), ends),
                    *(self.business_id, client[0], self.service_id),
                ],
            )[0]
            event = (
                "INSERT INTO bookings_appointmentevent"
                " (kind, occurred_at, actor_kind, data, appointment_id, business_id)"
                " VALUES ('created', now(), 'client', %s, %s, %s)"
            )
            self._sent(event)
            self.conn.execute(
                event,
                [
                    json.dumps(
                        {
                            "start": start.isoformat(),
                            "seat": seat,
                            "status": "confirmed",
                            "price": str(self.price),
                        }
                    ),
                    appointment_id,
                    self.business_id,
                ],
            )
        return public_id


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bookings", type=int, default=1000, help="per path")
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=20, help="untimed bookings per path")
    parser.add_argument("--database", default="ordina_bench_throughput")
    parser.add_argument("--verbose", action="store_true", help="list one booking's statements")
    parser.add_argument("--profile", action="store_true", help="where 200 bookings spend time")
    args = parser.parse_args(argv)

    url = harness.bench_database(args.database)
    from django.db import connection

    from bookings.services import ClientDetails
    from orchestration.appointment_changes import appointment_create

    service = harness.open_all_day("open-all-day")
    service.list_price = Decimal("40.00")
    raw = RawBooking(url, service)
    # + 1: the verbose listing's booking; + 200: the profiled ones
    total = 2 * (args.bookings + args.warmup + 1) + 200
    starts = iter(harness.distinct_starts(service, total))
    numbers = iter(range(total))

    def book_orm() -> None:
        n = next(numbers)
        appointment_create(
            service=service,
            start=next(starts),
            client=ClientDetails(name=f"Client {n}", email=f"client{n}@example.com"),
            idempotency_key=f"booking-{n}",
        )

    def book_raw() -> None:
        n = next(numbers)
        raw.create(
            start=next(starts),
            name=f"Client {n}",
            email=f"client{n}@example.com",
            key=f"booking-{n}",
        )

    for _ in range(args.warmup):
        book_orm()
        book_raw()
    if args.verbose:
        listing = harness.StatementCount(keep=True)
        with connection.execute_wrapper(listing):
            book_orm()
        raw.texts = []
        book_raw()
        for path, texts in (("service", listing.texts), ("raw", raw.texts)):
            print(f"{path}: {len(texts)} statements per booking")
            for number, text in enumerate(texts, 1):
                print(f"  {number:2d}. {' '.join(text.split())[:160]}")
        raw.texts = None
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(200):
            book_orm()
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(70)
        print(out.getvalue())

    seconds = {"orm": 0.0, "raw": 0.0}
    orm_statements = harness.StatementCount()
    raw.statements = 0
    for _ in range(args.bookings // args.batch):
        for path, book in (("orm", book_orm), ("raw", book_raw)):
            began = time.perf_counter()
            if path == "orm":
                with connection.execute_wrapper(orm_statements):
                    for _ in range(args.batch):
                        book()
            else:
                for _ in range(args.batch):
                    book()
            seconds[path] += time.perf_counter() - began
    done = args.bookings // args.batch * args.batch
    raw.conn.close()

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM bookings_appointment")
        stored = cursor.fetchone()[0]
    orm_rate, raw_rate = done / seconds["orm"], done / seconds["raw"]
    print(
        harness.summary(
            bookings_per_path=done,
            batch=args.batch,
            stored=stored,
            orm_per_s=f"{orm_rate:.0f}",
            raw_per_s=f"{raw_rate:.0f}",
            ratio=f"{orm_rate / raw_rate:.2f}",
            queries_per_booking=f"{orm_statements.statements / done:.1f}",
            raw_queries_per_booking=f"{raw.statements / done:.1f}",
            orm_ms_per_booking=f"{seconds['orm'] * 1000 / done:.2f}",
            raw_ms_per_booking=f"{seconds['raw'] * 1000 / done:.2f}",
        )
    )


if __name__ == "__main__":
    main(sys.argv[1:])
