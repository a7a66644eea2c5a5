"""Stripe promises no order: "paid", "intent succeeded" and the refunds may arrive in any
order, some more than once. Every order ends in the same payment and appointment, and "paid"
never overwrites "refunded" — checked by hand to fail when ``status_of`` lets paid win.
"""

import datetime as dt
from decimal import Decimal
from itertools import pairwise, permutations

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bookings.models import AppointmentStatus
from devtools.fake_stripe import event_payload, sign
from payments.models import Payment, PaymentStatus, WebhookEvent, WebhookOutcome
from payments.services import webhook_receive
from tests.payments.test_webhooks import (  # noqa: F401 - the `deposit` fixture
    NOW,
    awaiting_deposit,
    charge_object,
    intent_object,
    paid_events,
    reloaded,
    seconds_after_now,
    session_object,
)

# Stripe's creation times: paid a minute after the booking, refunds an hour and two later.
COMPLETED, SUCCEEDED, PART_REFUNDED, FULLY_REFUNDED = EVENTS = (
    "completed",
    "succeeded",
    "part_refunded",
    "fully_refunded",
)
PAID_AT = NOW + dt.timedelta(minutes=1)


@pytest.fixture
def events(fake_stripe, deposit) -> dict[str, bytes]:
    return {
        COMPLETED: event_payload(
            "evt_completed",
            "checkout.session.completed",
            session_object(fake_stripe, deposit),
            created=seconds_after_now(60),
        ),
        SUCCEEDED: event_payload(
            "evt_succeeded",
            "payment_intent.succeeded",
            intent_object(deposit),
            created=seconds_after_now(61),
        ),
        PART_REFUNDED: event_payload(
            "evt_part_refunded",
            "charge.refunded",
            charge_object(deposit, amount_refunded=500),
            created=seconds_after_now(3600),
        ),
        FULLY_REFUNDED: event_payload(
            "evt_fully_refunded",
            "charge.refunded",
            charge_object(deposit, amount_refunded=1200),
            created=seconds_after_now(7200),
        ),
    }


def receive(events: dict[str, bytes], names) -> None:
    for name in names:
        webhook_receive(events[name], sign(events[name]))


def state_of(payment: Payment) -> tuple:
    payment, appointment = reloaded(payment)
    return (
        payment.status,
        payment.paid_at,
        payment.amount_refunded,
        payment.expired_at,
        payment.failed_at,
        appointment.status,
        paid_events(payment),
    )


def with_redeliveries(order: tuple[str, ...]) -> list[str]:
    """Each event delivered again after the next one: a, b, a, c, b, d, c, d."""
    redelivered = [order[0]]
    for previous, name in pairwise(order):
        redelivered += [name, previous]
    return [*redelivered, order[-1]]


@pytest.mark.parametrize("order", list(permutations(EVENTS)), ids="-".join)
def test_every_order_of_paid_and_refunded_events_with_duplicates_ends_fully_refunded(
    events, deposit, order
):
    receive(events, with_redeliveries(order))

    payment, appointment = reloaded(deposit)
    assert payment.status == PaymentStatus.REFUNDED
    assert payment.amount_refunded == Decimal("12.00")
    assert payment.paid_at == PAID_AT
    assert appointment.status == AppointmentStatus.CONFIRMED
    assert paid_events(payment) == 1
    assert WebhookEvent.objects.count() == len(EVENTS)
    assert set(WebhookEvent.objects.values_list("outcome", flat=True)) == {WebhookOutcome.PROCESSED}


def test_paid_arriving_after_a_full_refund_never_overwrites_refunded(events, deposit):
    receive(events, [FULLY_REFUNDED])
    assert reloaded(deposit)[0].status == PaymentStatus.REFUNDED

    receive(events, [COMPLETED, SUCCEEDED, PART_REFUNDED])

    payment, _ = reloaded(deposit)
    assert payment.status == PaymentStatus.REFUNDED
    assert payment.amount_refunded == Decimal("12.00")


def test_a_partial_refund_arriving_after_the_full_one_takes_nothing_back(events, deposit):
    receive(events, [COMPLETED, FULLY_REFUNDED, PART_REFUNDED])

    payment, _ = reloaded(deposit)
    assert payment.status == PaymentStatus.REFUNDED
    assert payment.amount_refunded == Decimal("12.00")


def test_without_the_full_refund_every_order_ends_partially_refunded(events, deposit):
    orders = permutations([COMPLETED, SUCCEEDED, PART_REFUNDED])
    outcomes = set()
    for order in orders:
        with transaction.atomic():
            receive(events, with_redeliveries(order))
            outcomes.add(state_of(deposit))
            transaction.set_rollback(True)

    assert outcomes == {
        (
            PaymentStatus.PARTIALLY_REFUNDED,
            PAID_AT,
            Decimal("5.00"),
            None,
            None,
            AppointmentStatus.CONFIRMED,
            1,
        )
    }


@settings(
    max_examples=60,
    deadline=None,
    # The deposit is made once; each example runs in a savepoint rolled back at its end.
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(sequence=st.lists(st.sampled_from(EVENTS), min_size=1, max_size=12))
def test_any_sequence_with_duplicates_ends_where_its_sorted_deduplicated_sequence_does(
    events, deposit, sequence
):
    def state_after(names) -> tuple:
        with transaction.atomic():
            receive(events, names)
            state = state_of(deposit)
            transaction.set_rollback(True)
        return state

    canonical = sorted(set(sequence), key=EVENTS.index)

    assert state_after(sequence) == state_after(canonical)
