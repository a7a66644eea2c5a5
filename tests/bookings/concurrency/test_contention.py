"""Zero double-bookings under real concurrency: the one door (appointment_create) raced by
separate processes, each with its own connection to the test database, on real PostgreSQL.

The processes come from bench/harness.py (the contention benchmark's harness): forked after
Django's connections are closed, released together by a barrier. Each guarantee here was
checked once by hand to fail when removed — the lock and the backstop together, or
REPEATABLE READ with the backstop dropped (docs/benchmarks.md, "Contention", says how).
"""

import datetime as dt
import multiprocessing
import time
from collections import Counter

import pytest
from django.db import connection
from psycopg.pq import TransactionStatus

import bookings.services.booking as booking
from bench import harness
from bench.harness import CONFIRMED, REFUSED, REPLAYED
from bookings.models import Appointment
from bookings.selectors import open_slots_for
from bookings.services import ClientDetails, appointment_create

# Real commits: other processes must see them. (No serialized rollback: restoring the migrations'
# rows collides with the content types a previous flush re-created. The one data-migration row
# tests rely on, the operators group, is created on demand by tests.factories.operator.)
pytestmark = pytest.mark.django_db(transaction=True)

CONTENDERS = 50
ROUNDS = 20


def outcome_of(attempt) -> str:
    return getattr(attempt, "outcome", repr(attempt))  # a WorkerFailure has no outcome


def errors_among(attempts) -> list[str]:
    """What went wrong in the answers that are neither a booking nor a refusal."""
    return [
        getattr(a, "error", "") or repr(a)
        for a in attempts
        if outcome_of(a) not in (CONFIRMED, REPLAYED, REFUSED)
    ]


def contenders_for(service, start: dt.datetime, round_number: int) -> list:
    return [
        harness.BookingRequest(
            service_id=service.pk,
            start=start,
            idempotency_key=f"round-{round_number}-client-{n}",
            email=f"round{round_number}.client{n}@example.com",
        )
        for n in range(CONTENDERS)
    ]


def open_starts_near(service, start: dt.datetime) -> set[dt.datetime]:
    day = start.astimezone(service.business.tzinfo).date()
    slots = open_slots_for(
        service,
        first_day=day,
        last_day=day + dt.timedelta(days=booking.ALTERNATIVE_DAYS),
        now=dt.datetime.now(dt.UTC),
    )
    return {slot.start for slot in slots}


@pytest.mark.parametrize("capacity", [1, 3])
def test_fifty_processes_racing_for_one_slot_confirm_exactly_its_capacity_every_round(capacity):
    # Given a business with `capacity` places and twenty slots to fight over
    service = harness.open_business(slug=f"contended-{capacity}", capacity=capacity)
    starts = harness.distinct_starts(service, ROUNDS)
    length = dt.timedelta(minutes=service.duration_minutes)

    with harness.Contenders(CONTENDERS, harness.booking_attempt) as contenders:
        for number, start in enumerate(starts):
            # When fifty processes book the same slot at the same instant
            attempts = contenders.round(contenders_for(service, start, number))

            # Then exactly `capacity` are confirmed, every other one is refused (no errors)...
            outcomes = Counter(outcome_of(attempt) for attempt in attempts)
            assert outcomes == {CONFIRMED: capacity, REFUSED: CONTENDERS - capacity}, (
                f"round {number}: {outcomes} {errors_among(attempts)[:3]}"
            )
            # ...with real alternatives, never the slot just refused...
            open_now = open_starts_near(service, start)
            for attempt in attempts:
                if attempt.outcome == REFUSED:
                    assert attempt.alternatives, f"round {number}: a refusal without alternatives"
                    assert start not in attempt.alternatives
                    assert set(attempt.alternatives) <= open_now
            # ...and the table holds exactly `capacity` appointments there, one per seat
            stored = harness.occupying_at(service.business_id, start, start + length)
            assert stored == (capacity, capacity), f"round {number}: (rows, seats) = {stored}"


def test_one_confirmation_sent_twenty_times_at_once_and_twenty_times_in_a_row_books_once():
    # Given one confirmation: the same idempotency key, service, time and client
    service = harness.open_business(slug="retried", capacity=1)
    start = harness.distinct_starts(service, 1)[0]
    confirmation = harness.BookingRequest(
        service_id=service.pk,
        start=start,
        idempotency_key="confirm-7f3c",
        email="ana@example.com",
        name="Ana Lima",
    )

    # When it arrives twenty times at the same instant from twenty processes...
    with harness.Contenders(20, harness.booking_attempt) as senders:
        at_once = senders.round([confirmation] * 20)
    # ...and twenty more times one after the other
    in_a_row = [harness.booking_attempt(confirmation)() for _ in range(20)]

    # Then one appointment exists and all forty answers are the same booking
    answers = at_once + in_a_row
    outcomes = Counter(outcome_of(answer) for answer in answers)
    assert outcomes == {CONFIRMED: 1, REPLAYED: 39}, errors_among(answers)[:3]
    appointment = Appointment.objects.get()
    assert {(answer.public_id, answer.manage_token) for answer in answers} == {
        (str(appointment.public_id), answers[0].manage_token)
    }
    assert answers[0].manage_token


def test_appointment_create_decides_inside_one_read_committed_transaction():
    # Given a bookable slot, and a spy reading the server's own view of each statement's
    # transaction once the booking lock is taken
    service = harness.open_business(slug="pinned", capacity=1)
    start = harness.distinct_starts(service, 1)[0]
    seen = []
    locked = False

    def server_view(execute, sql, params, many, context):
        nonlocal locked
        result = execute(sql, params, many, context)
        locked = locked or "pg_advisory_xact_lock" in sql
        raw = context["connection"].connection
        if locked and raw.info.transaction_status == TransactionStatus.INTRANS:
            seen.append(
                raw.execute("SELECT current_setting('transaction_isolation'), now()").fetchone()
            )
        return result

    # When a booking is made
    with connection.execute_wrapper(server_view):
        outcome = appointment_create(
            service=service, start=start, client=ClientDetails(name="Ana", email="a@example.com")
        )

    # Then the lock, the count and the insert ran in one transaction, at READ COMMITTED
    assert outcome.created
    assert len(seen) >= 4  # lock, replay, schedule, calendar, client, insert, event
    assert {isolation for isolation, _ in seen} == {"read committed"}
    assert len({began for _, began in seen}) == 1


def race_two_creators(service, start: dt.datetime, isolation: str) -> list:
    """Two processes book ``start``. Whoever is granted the booking lock first keeps it until
    the other one waits for it — inside its own transaction, so at REPEATABLE READ with its
    snapshot already taken. Returns, per process, (attempt, seats its count check granted)."""
    granted = multiprocessing.get_context("fork").Value("i", 0)
    passed_count_check: list[int] = []  # each process fills its own copy

    def setup() -> None:
        harness.at_isolation(isolation)()
        decide = booking._seat_if_open

        def recorded(*args, **kwargs) -> int:
            seat = decide(*args, **kwargs)
            passed_count_check.append(seat)
            return seat

        booking._seat_if_open = recorded

    def first_holder_waits_for_the_other(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if "pg_advisory_xact_lock" in sql:
            with granted.get_lock():
                first = granted.value == 0
                granted.value += 1
            if first:
                wait_until_someone_waits_for_a_lock(context["connection"].connection)
        return result

    def prepare(request):
        act = harness.booking_attempt(request)

        def run():
            with connection.execute_wrapper(first_holder_waits_for_the_other):
                attempt = act()
            return attempt, tuple(passed_count_check)

        return run

    requests = [
        harness.BookingRequest(
            service_id=service.pk, start=start, idempotency_key=f"k{n}", email=f"c{n}@example.com"
        )
        for n in range(2)
    ]
    with harness.Contenders(2, prepare, setup=setup) as pair:
        return pair.round(requests)


def wait_until_someone_waits_for_a_lock(raw_connection, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        (waiting,) = raw_connection.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        ).fetchone()
        if waiting:
            return
        time.sleep(0.005)  # polling another process, not waiting out the clock
    raise TimeoutError("the second creator never queued for the booking lock")


def test_at_read_committed_the_creator_behind_the_lock_sees_the_first_booking():
    # Given two processes booking the one place, the second queued behind the first's lock
    service = harness.open_business(slug="read-committed", capacity=1)
    start = harness.distinct_starts(service, 1)[0]

    # When both run at READ COMMITTED
    (first, first_seats), (second, second_seats) = race_two_creators(
        service, start, "read_committed"
    )

    # Then the later one's count sees the earlier booking: refused by the check itself
    assert sorted([first.outcome, second.outcome]) == [CONFIRMED, REFUSED]
    assert sorted([first_seats, second_seats]) == [(), (1,)]
    assert first.backstop_hits + second.backstop_hits == 0


def test_at_repeatable_read_both_creators_pass_the_count_check_and_only_the_backstop_holds():
    # Given the same race
    service = harness.open_business(slug="repeatable-read", capacity=1)
    start = harness.distinct_starts(service, 1)[0]
    length = dt.timedelta(minutes=service.duration_minutes)

    # When both run at REPEATABLE READ (the snapshot predates the lock)
    (first, first_seats), (second, second_seats) = race_two_creators(
        service, start, "repeatable_read"
    )

    # Then both counts saw room and chose seat 1: the lock alone did not serialise them, and
    # only the exclusion constraint refused the second insert
    assert first_seats == second_seats == (1,)
    assert sorted([first.outcome, second.outcome]) == [CONFIRMED, REFUSED]
    assert first.backstop_hits + second.backstop_hits == 1
    assert harness.occupying_at(service.business_id, start, start + length) == (1, 1)
