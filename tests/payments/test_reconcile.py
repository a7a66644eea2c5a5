"""Reconciliation: when the webhook never comes, Ordina asks Stripe itself about payments still
pending after five minutes, and marks paid only what Stripe confirms. The sweep releases
appointments whose deposit hold ran out, so their slots are offered again."""

import datetime as dt

import time_machine

from bookings.actors import Actor
from bookings.models import AppointmentEvent, AppointmentEventKind, AppointmentStatus
from payments.models import PaymentStatus
from payments.services import reconcile_pending, release_unpaid_expired
from payments.services.reconcile import Reconciliation
from tests.payments.test_webhooks import (  # noqa: F401 - the `deposit` fixture
    NOW,
    awaiting_deposit,
    deliver_event,
    paid_events,
    reloaded,
    session_object,
    ten_am_is_offered,
)

SIX_MINUTES_LATER = NOW + dt.timedelta(minutes=6)
HOLD_OVER = NOW + dt.timedelta(minutes=31)  # the 30-minute deposit hold has run out


def asked_stripe(fake_stripe) -> int:
    return sum(
        request["method"] == "GET" and request["path"].startswith("/v1/checkout/sessions/")
        for request in fake_stripe.requests
    )


def test_with_the_webhook_never_arriving_reconciliation_marks_a_paid_checkout_paid(
    fake_stripe, deposit
):
    # Given the client paid, and Stripe's webhook never reached us
    fake_stripe.pay(deposit.checkout_session_id)

    # When reconciliation runs six minutes later
    with time_machine.travel(SIX_MINUTES_LATER, tick=False):
        result = reconcile_pending()

    # Then the payment is paid and the appointment confirmed, by reconciliation
    payment, appointment = reloaded(deposit)
    assert result == Reconciliation(checked=1, paid=1, expired=0, errors=[])
    assert payment.status == PaymentStatus.PAID
    assert payment.paid_at == SIX_MINUTES_LATER
    assert appointment.status == AppointmentStatus.CONFIRMED
    paid = AppointmentEvent.objects.get(appointment=appointment, kind=AppointmentEventKind.PAID)
    assert paid.actor == Actor.payments()  # Stripe, asked directly


def test_the_late_webhook_after_reconciliation_moves_nothing_twice(fake_stripe, deposit):
    fake_stripe.pay(deposit.checkout_session_id)
    with time_machine.travel(SIX_MINUTES_LATER, tick=False):
        reconcile_pending()

    deliver_event("evt_late", "checkout.session.completed", session_object(fake_stripe, deposit))

    payment, _ = reloaded(deposit)
    assert payment.status == PaymentStatus.PAID
    assert payment.paid_at == NOW  # the earlier of the two facts
    assert paid_events(payment) == 1


def test_a_payment_younger_than_five_minutes_is_not_asked_about(fake_stripe, deposit):
    fake_stripe.pay(deposit.checkout_session_id)

    with time_machine.travel(NOW + dt.timedelta(minutes=4), tick=False):
        result = reconcile_pending()

    assert result.checked == 0
    assert asked_stripe(fake_stripe) == 0
    assert reloaded(deposit)[0].status == PaymentStatus.PENDING


def test_a_checkout_still_unpaid_at_stripe_is_left_pending(fake_stripe, deposit):
    with time_machine.travel(SIX_MINUTES_LATER, tick=False):
        result = reconcile_pending()

    payment, appointment = reloaded(deposit)
    assert result == Reconciliation(checked=1, paid=0, expired=0, errors=[])
    assert asked_stripe(fake_stripe) == 1
    assert payment.status == PaymentStatus.PENDING
    assert appointment.status == AppointmentStatus.PENDING_PAYMENT


def test_a_checkout_expired_at_stripe_expires_the_payment_and_offers_the_slot_again(
    fake_stripe, haircut, deposit
):
    fake_stripe.expire(deposit.checkout_session_id)

    with time_machine.travel(SIX_MINUTES_LATER, tick=False):
        result = reconcile_pending()

    payment, appointment = reloaded(deposit)
    assert result == Reconciliation(checked=1, paid=0, expired=1, errors=[])
    assert payment.status == PaymentStatus.EXPIRED
    assert appointment.status == AppointmentStatus.EXPIRED
    assert ten_am_is_offered(haircut)


def test_stripe_failing_is_reported_and_changes_nothing_until_the_next_run(fake_stripe, deposit):
    # Given the client paid, but Stripe answers 500 to the call and both SDK retries
    fake_stripe.pay(deposit.checkout_session_id)
    fake_stripe.fail_next = 3

    with time_machine.travel(SIX_MINUTES_LATER, tick=False):
        failed = reconcile_pending()

    assert failed.checked == 1
    assert failed.paid == 0
    assert len(failed.errors) == 1
    assert f"payment {deposit.pk}: Stripe could not say" in failed.errors[0]
    assert asked_stripe(fake_stripe) == 3
    assert reloaded(deposit)[0].status == PaymentStatus.PENDING

    # When Stripe is back, the next run settles it
    with time_machine.travel(SIX_MINUTES_LATER + dt.timedelta(minutes=1), tick=False):
        assert reconcile_pending().paid == 1


def test_a_checkout_stripe_reports_for_another_amount_is_not_marked_paid(fake_stripe, deposit):
    fake_stripe.pay(deposit.checkout_session_id)["amount_total"] = 100

    with time_machine.travel(SIX_MINUTES_LATER, tick=False):
        result = reconcile_pending()

    assert result.paid == 0
    assert "Stripe reports 100 minor units" in result.errors[0]
    assert reloaded(deposit)[0].status == PaymentStatus.PENDING


def test_the_sweep_releases_a_pending_payment_past_its_hold_and_offers_the_slot_again(
    haircut, deposit
):
    with time_machine.travel(HOLD_OVER, tick=False):
        released = release_unpaid_expired()

    payment, appointment = reloaded(deposit)
    assert released == 1
    assert payment.status == PaymentStatus.EXPIRED
    assert payment.expired_at == HOLD_OVER
    assert appointment.status == AppointmentStatus.EXPIRED
    assert ten_am_is_offered(haircut)


def test_the_sweep_leaves_a_payment_within_its_hold(haircut, deposit):
    with time_machine.travel(NOW + dt.timedelta(minutes=29), tick=False):
        released = release_unpaid_expired()

    assert released == 0
    assert reloaded(deposit)[1].status == AppointmentStatus.PENDING_PAYMENT
    assert not ten_am_is_offered(haircut)


def test_the_sweep_never_releases_a_paid_appointment(fake_stripe, haircut, deposit):
    deliver_event(
        "evt_completed", "checkout.session.completed", session_object(fake_stripe, deposit)
    )

    with time_machine.travel(HOLD_OVER, tick=False):
        released = release_unpaid_expired()

    payment, appointment = reloaded(deposit)
    assert released == 0
    assert payment.status == PaymentStatus.PAID
    assert appointment.status == AppointmentStatus.CONFIRMED
    assert not ten_am_is_offered(haircut)


def test_the_sweep_asks_stripe_first_and_keeps_a_last_moment_payment(fake_stripe, haircut, deposit):
    # The client paid just before the hold ran out; the webhook has not arrived yet.
    fake_stripe.pay(deposit.checkout_session_id)

    with time_machine.travel(HOLD_OVER, tick=False):
        released = release_unpaid_expired()

    payment, appointment = reloaded(deposit)
    assert released == 0
    assert payment.status == PaymentStatus.PAID
    assert appointment.status == AppointmentStatus.CONFIRMED


def test_the_sweep_leaves_a_payment_stripe_cannot_be_asked_about(fake_stripe, haircut, deposit):
    fake_stripe.fail_next = 10

    with time_machine.travel(HOLD_OVER, tick=False):
        released = release_unpaid_expired()

    assert released == 0
    assert reloaded(deposit)[0].status == PaymentStatus.PENDING
