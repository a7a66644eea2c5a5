"""Every figure of the analytics page, checked against a hand-built November (tests/analytics/
world.py) on PostgreSQL — with another business's November beside it, so each figure also
proves it excludes what is not the reader's."""

import datetime as dt
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from analytics import queries
from analytics.periods import Period
from analytics.queries import Channels, Containment, Negotiation, ServiceDemand
from tests.analytics.world import TO_CONFIRMED, at, other_salon_month, salon_month, walk
from tests.factories import BusinessFactory, ServiceFactory

LISBON = ZoneInfo("Europe/Lisbon")
NOVEMBER = Period(dt.date(2026, 11, 1), dt.date(2026, 11, 30))


@pytest.fixture
def world(db):
    salon, other = BusinessFactory(), BusinessFactory()
    haircut = ServiceFactory(business=salon, name="Haircut")
    colour = ServiceFactory(business=salon, name="Colour")
    salon_month(salon, haircut, colour)
    other_salon_month(other, ServiceFactory(business=other, name="Haircut elsewhere"))
    return salon, other


def scope_of(*businesses) -> queries.Scope:
    start, end = NOVEMBER.bounds(LISBON)
    return queries.Scope(tuple(b.pk for b in businesses), start, end, LISBON)


def test_the_funnel_counts_each_step_reached_by_the_conversations_started(world):
    salon, _other = world
    found = queries.funnel(scope_of(salon))
    # started, service chosen, time offered, time held, details, awaiting deposit, confirmed
    assert found.reached == (7, 6, 5, 5, 5, 4, 4)
    # 10, 30, 50 and 70 minutes: the middle two's mean
    assert found.median_to_confirmed == dt.timedelta(minutes=40)


def test_an_odd_number_of_bookings_has_the_middle_one_as_median(world):
    _salon, other = world
    found = queries.funnel(scope_of(other))
    assert found.reached == (1, 1, 1, 1, 1, 1, 1)
    assert found.median_to_confirmed == dt.timedelta(minutes=1)


def test_only_conversations_started_in_the_period_count_whenever_they_move(world):
    """The funnel groups every event from the period's start on: one started the evening before
    that moves — is even confirmed — in the period is not of the period, nor is one started
    after it."""
    _salon, other = world
    eve = [*TO_CONFIRMED, ("confirmed", 30)]
    walk(other, at(31, hour=23, minute=50, month=10), eve)
    walk(other, at(1, hour=0, minute=5, month=12), eve)
    found = queries.funnel(scope_of(other))
    assert found.reached == (1, 1, 1, 1, 1, 1, 1)
    assert found.median_to_confirmed == dt.timedelta(minutes=1)


def test_services_asked_about_in_chat_against_those_booked(world):
    salon, _other = world
    assert queries.services(scope_of(salon)) == [
        ServiceDemand("Haircut", asked=5, booked=3),
        ServiceDemand("Colour", asked=1, booked=1),
    ]


def test_bookings_by_channel(world):
    salon, _other = world
    found = queries.activity(scope_of(salon)).channels
    assert found == Channels(chat=2, booking_page=1, dashboard=1, total=4)
    assert found.other == 0


def test_negotiation_outcomes_and_the_discount_given(world):
    salon, _other = world
    assert queries.activity(scope_of(salon)).negotiation == Negotiation(
        offers=4,
        accepted=1,
        countered=1,
        held_firm=1,
        refused=1,
        discount_refused=Decimal("8.00"),
        discounted_bookings=1,
        discount_given=Decimal("10.00"),
    )


def test_containment_of_the_periods_proposals(world):
    salon, _other = world
    found = queries.activity(scope_of(salon)).containment
    assert found == Containment(
        proposals=8,
        executed=5,
        blocked_structure=0,
        blocked_capability=1,
        blocked_policy=2,
        money_moved=Decimal("12.00"),
        money_contained=Decimal("158.00"),
    )
    assert found.blocked == 3


def test_no_shows_and_reminders_week_by_week(world):
    salon, _other = world
    found = queries.weeks(scope_of(salon), NOVEMBER.week_starts())
    rows = [(w.starts.isoformat(), w.visits_marked, w.no_shows, w.reminders_sent) for w in found]
    assert rows == [
        ("2026-10-26", 0, 0, 0),
        ("2026-11-02", 1, 0, 0),
        ("2026-11-09", 2, 1, 0),
        ("2026-11-16", 0, 0, 2),
        ("2026-11-23", 0, 0, 0),
        ("2026-11-30", 0, 0, 0),
    ]
    assert [w.no_show_rate for w in found][1:3] == [Decimal("0.0"), Decimal("50.0")]
    assert found[0].no_show_rate is None


def test_both_businesses_together_add_up(world):
    salon, other = world
    both = scope_of(salon, other)
    assert queries.funnel(both).reached == (8, 7, 6, 6, 6, 5, 5)
    assert queries.activity(both).channels.total == 7
    assert queries.activity(both).containment.proposals == 13
    assert sum(w.reminders_sent for w in queries.weeks(both, NOVEMBER.week_starts())) == 3
