"""The appointment page's deciding and wording parts, on plain values: the refund and
cancellation terms per policy, what cancelling does to a deposit in each state, times in the
business's zone (midnight and the repeated hour of a DST change), the picker's days, and the
.ics an entry becomes. No database, no clock."""

import datetime as dt
import uuid
from decimal import Decimal
from zoneinfo import ZoneInfo

import icalendar
import pytest

from pages.manage.calendar_file import CalendarEntry, calendar_file, event_uid
from pages.manage.picker import picker_day
from pages.manage.terms import RefundPolicy, cancel_outcome, policy_terms, refund_deadline
from pages.manage.wording import Deposit, payment_words, slot_labels, when_label

LISBON = "Europe/Lisbon"
VISIT_ENDS = dt.datetime(2026, 12, 2, 11, tzinfo=dt.UTC)
DUE = dt.datetime(2026, 11, 30, 8, 30, tzinfo=dt.UTC)


def policy(**changes) -> RefundPolicy:
    terms = {
        "business": "Studio Lumen",
        "currency": "EUR",
        "window_days": 30,
        "max_refund": None,
        "asks_deposits": True,
    }
    return RefundPolicy(**(terms | changes))


def deposit(status: str = "paid", refunded: str = "0") -> Deposit:
    return Deposit(Decimal("25.00"), "EUR", status, Decimal(refunded), DUE)


# --- the terms, per policy --------------------------------------------------------------------


def test_without_a_deposit_the_terms_say_cancelling_costs_nothing():
    assert policy_terms(policy(asks_deposits=False), None) == [
        "You can cancel or move this appointment on this page until it starts.",
        "Nothing was paid in advance for it, so cancelling costs nothing.",
    ]


@pytest.mark.parametrize(
    ("window_days", "max_refund", "rule"),
    [
        (30, None, "Under its refund policy, Studio Lumen can refund a deposit until 30 days "
         "after the visit."),
        (1, None, "Under its refund policy, Studio Lumen can refund a deposit until 1 day after "
         "the visit."),
        (0, None, "Under its refund policy, Studio Lumen can refund a deposit until the visit "
         "ends."),
        (14, Decimal("10"), "Under its refund policy, Studio Lumen can refund a deposit until 14 "
         "days after the visit, at most €10.00."),
        (30, Decimal("0"), "Studio Lumen does not refund deposits."),
    ],
)  # fmt: skip
def test_the_refund_rule_is_the_businesss_window_and_maximum(window_days, max_refund, rule):
    terms = policy_terms(policy(window_days=window_days, max_refund=max_refund), deposit())

    assert terms == [
        "You can cancel or move this appointment on this page until it starts.",
        "Cancelling does not refund a deposit by itself: the deposit stays with Studio Lumen "
        "unless Studio Lumen refunds it.",
        rule,
    ]


def test_a_business_asking_deposits_states_its_refund_terms_even_before_one_is_taken():
    assert len(policy_terms(policy(asks_deposits=True), None)) == 3


# --- what cancelling does to the money --------------------------------------------------------


def outcome(deposit_now: Deposit | None, refundable: str = "25.00", **changes) -> str:
    return cancel_outcome(
        policy(**changes),
        deposit_now,
        refundable_now=Decimal(refundable),
        deadline=refund_deadline(visit_ends_at=VISIT_ENDS, window_days=30),
        time_zone=LISBON,
    )


def test_cancelling_with_a_paid_deposit_names_what_the_business_may_refund_and_until_when():
    assert outcome(deposit("paid")) == (
        "Cancelling does not refund your deposit: the €25.00 stays with Studio Lumen. Under "
        "its refund policy, Studio Lumen can refund up to €25.00 of it until 11:00 on "
        "Friday 1 January 2027; ask Studio Lumen if you want it back."
    )


def test_cancelling_with_a_partly_refunded_deposit_speaks_of_what_is_left():
    said = outcome(deposit("partially_refunded", refunded="5.00"), refundable="20.00")

    assert "the €20.00 stays with Studio Lumen" in said
    assert "can refund up to €20.00 of it" in said


def test_a_deposit_the_policy_would_not_refund_is_not_refundable():
    assert outcome(deposit("paid"), refundable="0") == (
        "Your deposit is not refundable: Studio Lumen keeps the €25.00 when you cancel."
    )


@pytest.mark.parametrize(
    ("deposit_now", "said"),
    [
        (None, "Nothing was paid in advance, so there is nothing to refund."),
        (deposit("expired"), "Nothing was paid in advance, so there is nothing to refund."),
        (deposit("failed"), "Nothing was paid in advance, so there is nothing to refund."),
        (
            deposit("pending"),
            "Your €25.00 deposit has not been paid, so there is nothing to refund; do not "
            "pay it after cancelling.",
        ),
        (
            deposit("refunded", refunded="25.00"),
            "Your €25.00 deposit has already been refunded in full.",
        ),
    ],
)
def test_a_deposit_that_was_never_paid_or_already_refunded_needs_no_refund(deposit_now, said):
    assert outcome(deposit_now, refundable="0") == said


def test_the_refund_deadline_is_the_window_after_the_visit():
    assert refund_deadline(visit_ends_at=VISIT_ENDS, window_days=30) == dt.datetime(
        2027, 1, 1, 11, tzinfo=dt.UTC
    )


# --- times and payments in words --------------------------------------------------------------


def test_a_visit_is_written_in_the_businesss_zone():
    assert (
        when_label(
            dt.datetime(2026, 7, 1, 9, tzinfo=dt.UTC),
            dt.datetime(2026, 7, 1, 10, tzinfo=dt.UTC),
            LISBON,
        )
        == "Wednesday 1 July 2026, 10:00–11:00 (Europe/Lisbon)"
    )


def test_a_visit_past_midnight_names_both_days():
    starts = dt.datetime(2026, 12, 2, 22, tzinfo=dt.UTC)

    assert when_label(starts, starts + dt.timedelta(hours=3), LISBON) == (
        "Wednesday 2 December 2026, 22:00 – Thursday 3 December 2026, 01:00 (Europe/Lisbon)"
    )


def test_the_repeated_hour_of_a_dst_change_names_its_offsets():
    # 25 October 2026: Lisbon's clocks go back from 02:00 WEST to 01:00 WET
    first = dt.datetime(2026, 10, 25, 0, 30, tzinfo=dt.UTC)  # 01:30 summer time
    second = dt.datetime(2026, 10, 25, 1, 30, tzinfo=dt.UTC)  # 01:30 winter time
    later = dt.datetime(2026, 10, 25, 3, tzinfo=dt.UTC)

    assert slot_labels([first, second, later], LISBON) == [
        "01:30 (UTC+01:00)",
        "01:30 (UTC+00:00)",
        "03:00",
    ]


def test_a_pending_deposit_says_until_when_in_the_businesss_zone():
    assert payment_words(deposit("pending"), time_zone="Asia/Tokyo") == (
        "Deposit of €25.00 not paid yet: due by 17:30 on Monday 30 November 2026."
    )


# --- the picker's day -------------------------------------------------------------------------

TODAY = dt.date(2026, 11, 30)
WEDNESDAY = dt.date(2026, 12, 2)


def test_the_picker_opens_on_the_appointments_day_with_days_either_side():
    day = picker_day(None, today=TODAY, horizon_days=30, appointment_day=WEDNESDAY)

    assert (day.day, day.previous, day.next, day.problem) == (
        WEDNESDAY,
        dt.date(2026, 12, 1),
        dt.date(2026, 12, 3),
        None,
    )


def test_the_picker_stops_at_today_and_at_the_horizon():
    first = picker_day("2026-11-30", today=TODAY, horizon_days=30, appointment_day=WEDNESDAY)
    last = picker_day("2026-12-30", today=TODAY, horizon_days=30, appointment_day=WEDNESDAY)

    assert (first.previous, first.next) == (None, dt.date(2026, 12, 1))
    assert (last.previous, last.next) == (dt.date(2026, 12, 29), None)


@pytest.mark.parametrize(
    ("asked", "shown", "problem"),
    [
        ("soon", WEDNESDAY, "unreadable"),
        ("2026-02-30", WEDNESDAY, "unreadable"),
        ("20261202", WEDNESDAY, "unreadable"),
        ("２０２６-１２-０２", WEDNESDAY, "unreadable"),  # not ASCII digits
        ("2026-11-01", TODAY, "too_early"),
        ("2027-06-01", dt.date(2026, 12, 30), "too_late"),
    ],
)
def test_a_day_the_picker_cannot_show_is_replaced_and_said_why(asked, shown, problem):
    day = picker_day(asked, today=TODAY, horizon_days=30, appointment_day=WEDNESDAY)

    assert day.day == shown
    assert day.problem is not None
    assert getattr(day.problem, problem)


# --- the calendar file ------------------------------------------------------------------------


def test_the_calendar_file_is_one_event_in_utc_with_its_revision():
    public_id = uuid.UUID("12345678-1234-5678-1234-567812345678")
    starts = dt.datetime(2026, 12, 2, 10, tzinfo=ZoneInfo(LISBON))
    entry = CalendarEntry(
        public_id=public_id,
        summary="Haircut — Studio Lumen",
        starts_at=starts,
        ends_at=starts + dt.timedelta(hours=1),
        cancelled=True,
        sequence=3,
        last_modified=dt.datetime(2026, 11, 30, 8, tzinfo=dt.UTC),
        url="https://book.example.com/manage/t/",
        description="Wednesday 2 December 2026, 10:00–11:00 (Europe/Lisbon)",
        location="Rua Augusta 1, Lisboa",
    )

    first, again = calendar_file(entry), calendar_file(entry)

    assert first == again  # the same state is the same file
    calendar = icalendar.Calendar.from_ical(first)
    assert str(calendar["VERSION"]) == "2.0"
    [event] = calendar.walk("VEVENT")
    assert str(event["UID"]) == event_uid(public_id)
    assert b"DTSTART:20261202T100000Z" in first
    assert b"DTEND:20261202T110000Z" in first
    assert (str(event["STATUS"]), event["SEQUENCE"]) == ("CANCELLED", 3)
    assert str(event["LOCATION"]) == "Rua Augusta 1, Lisboa"
    assert event.decoded("DTSTAMP") == dt.datetime(2026, 11, 30, 8, tzinfo=dt.UTC)
