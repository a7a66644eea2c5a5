"""Refunds through the policy, executed through the real SDK against the local fake Stripe:
recorded, moving the payment forward, written into the appointment's history — and the state
they leave behind blocks a second identical refund before Stripe is asked again.

The paid Wednesday deposit built here is shared with the dashboard tests."""

import datetime as dt
from decimal import Decimal

import pytest

from bookings.actors import Actor, ActorKind
from bookings.models import (
    Appointment,
    AppointmentEvent,
    AppointmentEventKind,
    AppointmentStatus,
    DepositRule,
    Role,
)
from bookings.services import ClientDetails, appointment_create
from payments import stripe_api
from payments.models import Payment, PaymentStatus, Refund
from payments.services import (
    RefundRefused,
    deposit_checkout_open,
    payment_verify,
    refund_issue,
)
from tests.bookings.conftest import WEDNESDAY, lisbon
from tests.factories import AppointmentFactory, owner_of

TEN_AM = lisbon(WEDNESDAY, "10:00")
REFUNDS_PATH = "/v1/refunds"
EVERY_ATTEMPT = 3  # the SDK's first try and its two retries
FULLY_REFUNDED = "This payment has already been fully refunded."


# --- given: a paid deposit ----------------------------------------------------------------------


def deposit_booked(fake_stripe, business, service, *, start=TEN_AM, paid=True) -> Payment:
    """A booking of ``service`` awaiting its deposit through the fake Stripe's Checkout; paid
    (the client pays, and Stripe, asked directly, confirms it) unless told otherwise."""
    business.deposit_rule = DepositRule.PERCENT
    business.deposit_percent = 20
    business.save()
    appointment = appointment_create(
        service=service,
        start=start,
        client=ClientDetails(name="Ana Silva", email="ana@example.com"),
        status=AppointmentStatus.PENDING_PAYMENT,
    ).appointment
    checkout = deposit_checkout_open(appointment=appointment)
    assert checkout is not None
    if not paid:
        return checkout.payment
    fake_stripe.pay(checkout.payment.checkout_session_id)
    payment = payment_verify(checkout.payment)
    assert payment.status == PaymentStatus.PAID
    return payment


@pytest.fixture
def paid(fake_stripe, salon, haircut, frozen_now) -> Payment:
    """Wednesday 10:00's haircut, its 12.00 EUR deposit (20 % of 60.00) paid."""
    return deposit_booked(fake_stripe, salon, haircut)


def refunds_sent(fake_stripe) -> list[dict]:
    return [
        request
        for request in fake_stripe.requests
        if request["method"] == "POST" and request["path"] == REFUNDS_PATH
    ]


def refund(payment: Payment, amount: str, **options) -> Refund:
    """A refund asked for by ``actor``: by default an owner of the payment's business."""
    actor = options.pop("actor", None) or Actor.of_user(owner_of(payment.business), Role.OWNER)
    return refund_issue(
        appointment=Appointment.objects.get(pk=payment.appointment_id),
        amount=Decimal(amount),
        actor=actor,
        **options,
    )


def refunded_events(payment: Payment) -> list[AppointmentEvent]:
    return list(
        AppointmentEvent.objects.filter(
            appointment_id=payment.appointment_id, kind=AppointmentEventKind.REFUNDED
        )
    )


# --- a refund that passes the policy ------------------------------------------------------------


def test_a_refund_goes_through_stripe_with_an_idempotency_key_and_is_recorded(paid, fake_stripe):
    owner = owner_of(paid.business)
    made = refund(paid, "12.00", reason="the client fell ill", actor=Actor.of_user(owner, "owner"))

    [sent] = refunds_sent(fake_stripe)
    assert sent["headers"]["Idempotency-Key"] == made.idempotency_key
    assert sent["form"]["payment_intent"] == paid.payment_intent_id
    assert sent["form"]["amount"] == "1200"
    assert sent["form"]["metadata"] == {"ordina_payment": str(paid.pk)}
    assert made.stripe_refund_id in fake_stripe.refunds
    assert (made.payment, made.business_id) == (paid, paid.business_id)
    assert (made.amount, made.actor, made.reason) == (
        Decimal("12.00"),
        Actor(ActorKind.OWNER, owner.pk),
        "the client fell ill",
    )
    paid.refresh_from_db()
    assert paid.status == PaymentStatus.REFUNDED
    assert paid.amount_refunded == Decimal("12.00")
    [event] = refunded_events(paid)
    assert event.actor == Actor(ActorKind.OWNER, owner.pk)
    assert event.data == {
        "amount": "12.00",
        "refund": made.stripe_refund_id,
        "reason": "the client fell ill",
    }


def test_a_partial_refund_leaves_the_payment_partially_refunded(paid, fake_stripe):
    refund(paid, "5.00")

    paid.refresh_from_db()
    assert paid.status == PaymentStatus.PARTIALLY_REFUNDED
    assert paid.amount_refunded == Decimal("5.00")
    assert refunds_sent(fake_stripe)[0]["form"]["amount"] == "500"


def test_partial_refunds_up_to_what_was_paid_each_go_out_under_their_own_key(paid, fake_stripe):
    first = refund(paid, "5.00")
    second = refund(paid, "7.00")

    assert first.idempotency_key != second.idempotency_key
    assert [sent["form"]["amount"] for sent in refunds_sent(fake_stripe)] == ["500", "700"]
    paid.refresh_from_db()
    assert paid.status == PaymentStatus.REFUNDED
    assert paid.amount_refunded == Decimal("12.00")


def test_a_refund_does_not_change_the_appointment(paid, fake_stripe):
    refund(paid, "12.00")

    appointment = Appointment.objects.get(pk=paid.appointment_id)
    assert appointment.status == AppointmentStatus.CONFIRMED


# --- the state a refund leaves blocks its twin ---------------------------------------------------


def test_second_identical_refund_is_blocked_by_state_and_stripe_is_asked_once(paid, fake_stripe):
    refund(paid, "12.00")

    with pytest.raises(RefundRefused) as refused:
        refund(paid, "12.00")

    assert refused.value.reason == FULLY_REFUNDED
    assert len(refunds_sent(fake_stripe)) == 1
    assert Refund.objects.count() == 1
    assert len(refunded_events(paid)) == 1
    paid.refresh_from_db()
    assert paid.amount_refunded == Decimal("12.00")


def test_second_identical_partial_refund_beyond_what_is_left_is_blocked_by_state(paid, fake_stripe):
    refund(paid, "7.00")

    with pytest.raises(RefundRefused) as refused:
        refund(paid, "7.00")

    assert refused.value.reason == "7.00 EUR is more than the 5.00 EUR still refundable."
    assert len(refunds_sent(fake_stripe)) == 1
    paid.refresh_from_db()
    assert (paid.status, paid.amount_refunded) == (PaymentStatus.PARTIALLY_REFUNDED, 7)


def test_the_capstone_batch_moves_money_once_and_blocks_the_repeated_proposal(
    paid, fake_stripe, salon
):
    """The assistant's refund proposals, as the course's capstone has them: an absurd amount,
    one past the window, a made-up appointment, a legitimate one, and that one again."""
    no_deposit = AppointmentFactory(business=salon, starts_at=TEN_AM + dt.timedelta(hours=3))
    visit_ends = Appointment.objects.get(pk=paid.appointment_id).ends_at
    proposals = [
        (paid, "5000.00", None),
        (paid, "12.00", visit_ends + dt.timedelta(days=31)),
        (no_deposit, "12.00", None),
        (paid, "12.00", None),
        (paid, "12.00", None),
    ]

    outcomes = []
    for target, amount, now in proposals:
        appointment = Appointment.objects.get(
            pk=target.appointment_id if isinstance(target, Payment) else target.pk
        )
        try:
            refund_issue(
                appointment=appointment, amount=Decimal(amount), actor=Actor.assistant(), now=now
            )
        except RefundRefused as refusal:
            outcomes.append(refusal.reason)
        else:
            outcomes.append("EXECUTED")

    assert outcomes == [
        "5000.00 EUR is more than the 12.00 EUR still refundable.",
        "The refund window of 30 days after the visit has passed.",
        "There is no payment for this appointment.",
        "EXECUTED",
        FULLY_REFUNDED,
    ]
    assert len(refunds_sent(fake_stripe)) == 1
    assert sum(made.amount for made in Refund.objects.all()) == Decimal("12.00")


def test_each_rule_blocks_before_stripe_against_a_paid_deposit(paid, fake_stripe, salon):
    salon.max_refund = Decimal("10.00")
    salon.refund_window_days = 7
    salon.save()
    visit_ends = Appointment.objects.get(pk=paid.appointment_id).ends_at
    attempts = {
        "0.00": "A refund must be for more than zero.",
        "12.01": "12.01 EUR is more than the 12.00 EUR still refundable.",
        "10.01": "10.01 EUR is more than this business's maximum refund of 10.00 EUR.",
    }

    reasons = {}
    for amount in attempts:
        with pytest.raises(RefundRefused) as refused:
            refund(paid, amount)
        reasons[amount] = refused.value.reason
    with pytest.raises(RefundRefused) as late:
        refund(paid, "1.00", now=visit_ends + dt.timedelta(days=7, seconds=1))
    on_time = refund(paid, "1.00", now=visit_ends + dt.timedelta(days=7))

    assert reasons == attempts
    assert late.value.reason == "The refund window of 7 days after the visit has passed."
    assert on_time.amount == Decimal("1.00")
    assert len(refunds_sent(fake_stripe)) == 1


def test_an_unpaid_deposit_is_not_refunded_and_stripe_is_not_asked(
    fake_stripe, salon, haircut, frozen_now
):
    pending = deposit_booked(fake_stripe, salon, haircut, paid=False)

    with pytest.raises(RefundRefused) as refused:
        refund(pending, "12.00")

    assert refused.value.reason == (
        "This payment was never completed, so there is nothing to refund."
    )
    assert refunds_sent(fake_stripe) == []


# --- Stripe failing ---------------------------------------------------------------------------


def test_stripe_failing_records_nothing_and_leaves_the_payment_unchanged(paid, fake_stripe):
    fake_stripe.fail_next = EVERY_ATTEMPT

    with pytest.raises(stripe_api.StripeUnavailable):
        refund(paid, "12.00")

    assert len(refunds_sent(fake_stripe)) == EVERY_ATTEMPT
    assert fake_stripe.refunds == {}
    assert not Refund.objects.exists()
    assert refunded_events(paid) == []
    paid.refresh_from_db()
    assert (paid.status, paid.amount_refunded) == (PaymentStatus.PAID, Decimal("0.00"))


def test_a_refund_retried_after_stripe_failed_reuses_its_key(paid, fake_stripe):
    fake_stripe.fail_next = EVERY_ATTEMPT
    with pytest.raises(stripe_api.StripeUnavailable):
        refund(paid, "12.00")

    made = refund(paid, "12.00")

    keys = {sent["headers"]["Idempotency-Key"] for sent in refunds_sent(fake_stripe)}
    assert keys == {made.idempotency_key}
    assert len(fake_stripe.refunds) == 1
