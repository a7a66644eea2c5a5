"""The calendar read: what takes time near a request, as epoch microseconds grouped by seat.
PostgreSQL reads it with hand-written SQL, other databases with the ORM; both must return the
same thing, exactly what the rows say (microseconds included), and in one query."""

import datetime as dt
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bookings.availability import Interval, to_micros
from bookings.models import AppointmentStatus
from bookings.selectors import (
    APPOINTMENT,
    BLOCK,
    HOLD,
    calendar_between,
    calendar_groups_orm,
    calendar_groups_sql,
)
from tests.factories import (
    AppointmentFactory,
    BusinessFactory,
    BusyBlockFactory,
    SlotHoldFactory,
)
from tests.on_sqlite import sqlite_report

SCRIPT = Path(__file__).parent / "scripts" / "sqlite_calendar.py"

NOW = dt.datetime(2026, 12, 2, 8, tzinfo=dt.UTC)
FROM = dt.datetime(2026, 12, 2, 0, tzinfo=dt.UTC)
UNTIL = dt.datetime(2026, 12, 4, 0, tzinfo=dt.UTC)
US = dt.timedelta(microseconds=1)


def at(hour: int, minute: int = 0, day: int = 2) -> dt.datetime:
    return dt.datetime(2026, 12, day, hour, minute, tzinfo=dt.UTC)


@pytest.fixture
def calendar(db):
    """A business whose calendar has one of each thing the read must keep or leave out; returns
    (business, the appointment to exclude, what the read must return as sets of spans)."""
    business = BusinessFactory()
    elsewhere = BusinessFactory()

    def appointment(starts, ends, seat, status=AppointmentStatus.CONFIRMED, owner=business):
        return AppointmentFactory(
            business=owner, starts_at=starts, ends_at=ends, seat=seat, status=status
        )

    kept = [
        appointment(at(9) + US, at(10) - US, seat=1),  # microseconds on both ends
        appointment(at(9, 30), at(10, 30), seat=3),  # overlaps the first, in another seat
        appointment(at(23, 30, day=1), at(0, 30), seat=2),  # reaches in across the start
        appointment(at(23, 30, day=3), at(0, 30, day=4), seat=3),  # reaches out past the end
        appointment(at(11), at(12), seat=2, status=AppointmentStatus.PENDING_PAYMENT),
        appointment(at(13), at(14), seat=2, status=AppointmentStatus.ATTENDED),
        appointment(at(15), at(16), seat=2, status=AppointmentStatus.NO_SHOW),
    ]
    moved = appointment(at(16), at(17), seat=1)
    appointment(at(17), at(18), seat=1, status=AppointmentStatus.CANCELLED)
    appointment(at(18), at(19), seat=1, status=AppointmentStatus.EXPIRED)
    appointment(at(23, day=1), FROM, seat=1)  # ends as the range starts: touches, no overlap
    appointment(UNTIL, at(1, day=4), seat=1)  # starts as the range ends
    appointment(at(9), at(10), seat=1, owner=elsewhere)

    def hold(starts, ends, holder, expires=NOW + dt.timedelta(minutes=10), owner=business):
        return SlotHoldFactory(
            business=owner,
            starts_at=starts,
            ends_at=ends,
            holder=holder,
            expires_at=expires,
        )

    hold(at(10) + 7 * US, at(11), "another client")
    hold(at(12), at(13), "the one asking")
    hold(at(14), at(15), "a lapsed client", expires=NOW)  # expires as of now: gone
    hold(at(14), at(15), "another client", owner=elsewhere)

    def block(starts, ends, owner=business):
        return BusyBlockFactory(business=owner, starts_at=starts, ends_at=ends)

    block(at(19), at(20, 30) - US)
    block(at(22, day=1), FROM)  # touches the range's start
    block(at(19), at(20), owner=elsewhere)

    expected = {
        (APPOINTMENT, 1): {(to_micros(kept[0].occupied_from), to_micros(kept[0].occupied_until))},
        (APPOINTMENT, 2): {
            (to_micros(a.occupied_from), to_micros(a.occupied_until)) for a in (kept[2], *kept[4:])
        },
        (APPOINTMENT, 3): {
            (to_micros(a.occupied_from), to_micros(a.occupied_until)) for a in kept[1:4:2]
        },
        (HOLD, None): {(to_micros(at(10) + 7 * US), to_micros(at(11)))},
        (BLOCK, None): {(to_micros(at(19)), to_micros(at(20, 30) - US))},
    }
    return business, moved, expected


def grouped(groups) -> dict:
    """The groups as sets of (start, end) per (kind, seat), empty groups left out: the order
    of groups and of spans inside them is free."""
    return {
        (kind, seat): set(zip(starts, ends, strict=True))
        for kind, seat, starts, ends in groups
        if starts
    }


def read(reader, business, **changes):
    arguments = {"now": NOW, "holder": "the one asking", "excluding_appointment": None}
    return grouped(reader(business, FROM, UNTIL, **arguments | changes))


def test_the_sql_read_returns_exactly_the_rows_that_take_time(calendar):
    business, moved, expected = calendar
    with_moved = expected | {
        (APPOINTMENT, 1): expected[(APPOINTMENT, 1)]
        | {(to_micros(moved.occupied_from), to_micros(moved.occupied_until))}
    }

    assert read(calendar_groups_sql, business, excluding_appointment=moved.pk) == expected
    assert read(calendar_groups_sql, business) == with_moved


@pytest.mark.parametrize(
    "changes",
    [
        {"excluding_appointment": None},
        {"holder": None},
        {"holder": "another client"},
        {"now": NOW + dt.timedelta(minutes=20)},  # every hold has expired
    ],
)
def test_the_orm_read_and_the_sql_read_agree(calendar, changes):
    business, moved, _ = calendar
    changes = {"excluding_appointment": moved.pk} | changes

    assert read(calendar_groups_orm, business, **changes) == read(
        calendar_groups_sql, business, **changes
    )


def test_a_holders_own_hold_and_an_expired_one_are_not_in_its_way(calendar):
    business, _, _ = calendar

    groups = read(calendar_groups_sql, business, holder=None)

    assert groups[(HOLD, None)] == {
        (to_micros(at(10) + 7 * US), to_micros(at(11))),
        (to_micros(at(12)), to_micros(at(13))),
    }


def test_an_empty_calendar_reads_as_nothing_taken(db):
    business = BusinessFactory()

    taken = calendar_between(business, FROM, UNTIL, now=NOW)

    assert (len(taken.seated), len(taken.held), len(taken.blocked)) == (0, 0, 0)


def test_calendar_between_is_one_hand_written_query_on_postgresql(calendar):
    business, moved, expected = calendar
    everything = Interval(FROM - dt.timedelta(days=2), UNTIL + dt.timedelta(days=2))

    with CaptureQueriesContext(connection) as queries:
        taken = calendar_between(
            business,
            FROM,
            UNTIL,
            now=NOW,
            holder="the one asking",
            excluding_appointment=moved.pk,
        )

    assert len(queries) == 1
    assert "array_agg" in queries[0]["sql"]
    seated = {
        (to_micros(i.start), to_micros(i.end), seat)
        for i, seat in taken.seated.overlapping(everything)
    }
    assert seated == {
        (start, end, seat)
        for (kind, seat), spans in expected.items()
        if kind == APPOINTMENT
        for start, end in spans
    }
    assert {
        (to_micros(i.start), to_micros(i.end)) for i, _ in taken.held.overlapping(everything)
    } == expected[(HOLD, None)]
    assert {
        (to_micros(i.start), to_micros(i.end)) for i, _ in taken.blocked.overlapping(everything)
    } == expected[(BLOCK, None)]


def test_instants_far_from_now_keep_their_microseconds(db):
    business = BusinessFactory()
    far = dt.datetime(2199, 12, 31, 23, 59, 59, 999_999, tzinfo=dt.UTC)
    AppointmentFactory(
        business=business, starts_at=far - dt.timedelta(hours=1), ends_at=far, seat=1
    )
    early = dt.datetime(1970, 1, 1, 0, 0, 0, 1, tzinfo=dt.UTC)
    AppointmentFactory(business=business, starts_at=early, ends_at=early + US, seat=2)

    groups = grouped(
        calendar_groups_sql(
            business,
            early - US,
            far + US,
            now=NOW,
            holder=None,
            excluding_appointment=None,
        )
    )

    assert groups == {
        (APPOINTMENT, 1): {(to_micros(far - dt.timedelta(hours=1)), to_micros(far))},
        (APPOINTMENT, 2): {(1, 2)},
    }


def test_on_sqlite_the_calendar_is_read_through_the_orm_with_the_same_answers(tmp_path):
    """The demo's database: calendar_between takes the ORM path there and returns what the
    rows say, the appointment being moved and the asking holder's own hold left out."""
    report = sqlite_report(SCRIPT, tmp_path)
    assert report["vendor"] == "sqlite"
    assert report["read"] == report["expected"]
    assert report["slots"] == report["expected_slots"]
