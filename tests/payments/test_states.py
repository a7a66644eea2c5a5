"""A payment's status from facts that only grow: the pure half of 'any order, same state'."""

import datetime as dt
from decimal import Decimal
from itertools import permutations

from hypothesis import given
from hypothesis import strategies as st

from payments.models import PaymentStatus
from payments.states import PaymentFacts, status_of

T0 = dt.datetime(2026, 12, 1, 10, tzinfo=dt.UTC)
AMOUNT = Decimal("12.00")

PAID = {"paid_at": T0}
HALF_REFUNDED = {"paid_at": T0, "amount_refunded": Decimal("6.00")}
REFUNDED = {"paid_at": T0, "amount_refunded": AMOUNT}
EXPIRED = {"expired_at": T0 + dt.timedelta(minutes=30)}
FAILED = {"failed_at": T0 + dt.timedelta(minutes=1)}


def after(*events: dict) -> PaymentFacts:
    facts = PaymentFacts(amount=AMOUNT)
    for event in events:
        facts = facts.joined(**event)
    return facts


def test_each_fact_alone_gives_its_status():
    assert status_of(after()) == PaymentStatus.PENDING
    assert status_of(after(PAID)) == PaymentStatus.PAID
    assert status_of(after(HALF_REFUNDED)) == PaymentStatus.PARTIALLY_REFUNDED
    assert status_of(after(REFUNDED)) == PaymentStatus.REFUNDED
    assert status_of(after(EXPIRED)) == PaymentStatus.EXPIRED
    assert status_of(after(FAILED)) == PaymentStatus.FAILED


def test_paid_never_overwrites_refunded():
    assert status_of(after(REFUNDED, PAID)) == PaymentStatus.REFUNDED
    assert status_of(after(REFUNDED, HALF_REFUNDED, PAID)) == PaymentStatus.REFUNDED


def test_a_refund_never_exceeds_the_amount():
    assert after({"paid_at": T0, "amount_refunded": Decimal("99.00")}).amount_refunded == AMOUNT


def test_every_order_of_the_same_events_ends_in_the_same_facts():
    events = [PAID, HALF_REFUNDED, REFUNDED, EXPIRED]
    outcomes = {after(*order) for order in permutations(events)}

    assert len(outcomes) == 1
    assert status_of(outcomes.pop()) == PaymentStatus.REFUNDED


events = st.sampled_from([PAID, HALF_REFUNDED, REFUNDED, EXPIRED, FAILED])


@given(st.lists(events, max_size=12), st.randoms())
def test_any_sequence_with_duplicates_ends_where_its_shuffle_does(sequence, random):
    shuffled = list(sequence)
    random.shuffle(shuffled)

    assert after(*sequence) == after(*shuffled) == after(*sequence, *sequence)
