"""Stripe's webhook, event by event: what each event type does to a payment and its
appointment, and what is refused (recorded as failed, answered 200) when an event does not
match what we stored.

The Wednesday haircut, its Checkout and the events built here are shared by the other webhook,
reconciliation and internal-endpoint tests (they import them from this module).
"""

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client as HttpClient
from django.urls import reverse

from bookings.models import (
    Appointment,
    AppointmentEvent,
    AppointmentEventKind,
    AppointmentStatus,
    DepositRule,
)
from bookings.selectors import open_slots_for
from bookings.services import ClientDetails, appointment_create
from devtools.fake_stripe import WEBHOOK_SECRET, event_payload, sign
from payments.models import Payment, PaymentStatus, WebhookEvent, WebhookOutcome
from payments.services import deposit_checkout_open
from tests.bookings.conftest import NOW, WEDNESDAY, lisbon

DEPOSIT_MINOR = 1200  # 20 % of the 60.00 EUR haircut
WEBHOOK_URL = reverse("payments:stripe-webhook")
TEN_AM = lisbon(WEDNESDAY, "10:00")


# --- given: a booking awaiting its deposit, and the events Stripe would send about it ---------


@pytest.fixture(name="deposit")
def awaiting_deposit(fake_stripe, salon, haircut, frozen_now) -> Payment:
    """Wednesday 10:00's haircut, awaiting its 12.00 EUR deposit; the Checkout is open at the
    fake Stripe, which the test can make the client pay (``fake_stripe.pay``)."""
    salon.deposit_rule = DepositRule.PERCENT
    salon.deposit_percent = 20
    salon.save()
    booked = appointment_create(
        service=haircut,
        start=TEN_AM,
        client=ClientDetails(name="Ana Silva", email="ana@example.com"),
        status=AppointmentStatus.PENDING_PAYMENT,
    )
    checkout = deposit_checkout_open(appointment=booked.appointment)
    assert checkout is not None
    return checkout.payment


def session_object(fake_stripe, payment: Payment, **changes: Any) -> dict[str, Any]:
    """The Checkout Session as Stripe holds it, paid unless ``changes`` say otherwise."""
    session = dict(fake_stripe.sessions[payment.checkout_session_id])
    session.update(status="complete", payment_status="paid")
    return session | changes


def intent_object(payment: Payment, **changes: Any) -> dict[str, Any]:
    return {
        "id": payment.payment_intent_id,
        "object": "payment_intent",
        "status": "succeeded",
        "amount": DEPOSIT_MINOR,
        "amount_received": DEPOSIT_MINOR,
        "currency": "eur",
        "livemode": False,
        "metadata": {"ordina_payment": str(payment.pk)},
    } | changes


def charge_object(payment: Payment, *, amount_refunded: int, **changes: Any) -> dict[str, Any]:
    """The charge behind the payment, with ``amount_refunded`` refunded so far (cumulative)."""
    return {
        "id": f"ch_for_{payment.payment_intent_id}",
        "object": "charge",
        "amount": DEPOSIT_MINOR,
        "amount_captured": DEPOSIT_MINOR,
        "amount_refunded": amount_refunded,
        "refunded": amount_refunded == DEPOSIT_MINOR,
        "currency": "eur",
        "livemode": False,
        "payment_intent": payment.payment_intent_id,
    } | changes


def seconds_after_now(seconds: int) -> int:
    return int(NOW.timestamp()) + seconds


# --- when: Stripe delivers ----------------------------------------------------------------------


def deliver(
    payload: bytes,
    *,
    secret: str = WEBHOOK_SECRET,
    timestamp: int | None = None,
    signature: str | None = None,
    http: HttpClient | None = None,
):
    """POST ``payload`` to the webhook as Stripe would, signed with ``secret`` at ``timestamp``
    (now by default) unless a ready ``signature`` header is given."""
    header = signature if signature is not None else sign(payload, secret, timestamp)
    return (http or HttpClient()).post(
        WEBHOOK_URL, data=payload, content_type="application/json", HTTP_STRIPE_SIGNATURE=header
    )


def deliver_event(event_id: str, kind: str, obj: dict[str, Any], **options: Any):
    response = deliver(event_payload(event_id, kind, obj, **options))
    assert response.status_code == 200, response.content
    return response.json()


def stored(event_id: str) -> WebhookEvent:
    return WebhookEvent.objects.get(stripe_event_id=event_id)


def paid_events(payment: Payment) -> int:
    return AppointmentEvent.objects.filter(
        appointment_id=payment.appointment_id, kind=AppointmentEventKind.PAID
    ).count()


def reloaded(payment: Payment) -> tuple[Payment, Appointment]:
    payment.refresh_from_db()
    return payment, Appointment.objects.get(pk=payment.appointment_id)


def ten_am_is_offered(haircut) -> bool:
    slots = open_slots_for(haircut, first_day=WEDNESDAY, last_day=WEDNESDAY, now=NOW)
    return TEN_AM in {slot.start for slot in slots}


# --- the events we act on -----------------------------------------------------------------------


def test_checkout_completed_and_paid_marks_the_payment_paid_and_confirms_the_appointment(
    fake_stripe, deposit
):
    answer = deliver_event(
        "evt_completed", "checkout.session.completed", session_object(fake_stripe, deposit)
    )

    payment, appointment = reloaded(deposit)
    assert answer == {"received": True, "duplicate": False, "outcome": "processed"}
    assert payment.status == PaymentStatus.PAID
    assert payment.paid_at == NOW
    assert appointment.status == AppointmentStatus.CONFIRMED
    assert paid_events(payment) == 1
    assert stored("evt_completed").payment == payment


def test_completed_but_unpaid_waits_for_the_async_payment_to_succeed(fake_stripe, haircut, deposit):
    unpaid = session_object(fake_stripe, deposit, payment_status="unpaid")

    deliver_event("evt_completed", "checkout.session.completed", unpaid)
    payment, appointment = reloaded(deposit)
    assert payment.status == PaymentStatus.PENDING
    assert appointment.status == AppointmentStatus.PENDING_PAYMENT
    assert not ten_am_is_offered(haircut)  # still held while the bank transfer settles

    deliver_event(
        "evt_async_ok",
        "checkout.session.async_payment_succeeded",
        session_object(fake_stripe, deposit),
        created=seconds_after_now(3600),
    )
    payment, appointment = reloaded(deposit)
    assert payment.status == PaymentStatus.PAID
    assert appointment.status == AppointmentStatus.CONFIRMED


def test_async_payment_failed_fails_the_payment_and_releases_the_appointment(
    fake_stripe, haircut, deposit
):
    deliver_event(
        "evt_completed",
        "checkout.session.completed",
        session_object(fake_stripe, deposit, payment_status="unpaid"),
    )

    deliver_event(
        "evt_async_failed",
        "checkout.session.async_payment_failed",
        session_object(fake_stripe, deposit, payment_status="unpaid"),
    )

    payment, appointment = reloaded(deposit)
    assert payment.status == PaymentStatus.FAILED
    assert appointment.status == AppointmentStatus.EXPIRED
    assert ten_am_is_offered(haircut)


def test_checkout_expired_expires_the_payment_and_offers_the_slot_again(
    fake_stripe, haircut, deposit
):
    assert not ten_am_is_offered(haircut)

    deliver_event(
        "evt_expired",
        "checkout.session.expired",
        session_object(fake_stripe, deposit, status="expired", payment_status="unpaid"),
    )

    payment, appointment = reloaded(deposit)
    assert payment.status == PaymentStatus.EXPIRED
    assert appointment.status == AppointmentStatus.EXPIRED
    assert AppointmentEvent.objects.filter(
        appointment=appointment, kind=AppointmentEventKind.EXPIRED
    ).exists()
    assert ten_am_is_offered(haircut)


def test_expired_arriving_after_paid_changes_neither_payment_nor_appointment(
    fake_stripe, haircut, deposit
):
    deliver_event(
        "evt_completed", "checkout.session.completed", session_object(fake_stripe, deposit)
    )

    deliver_event(
        "evt_expired",
        "checkout.session.expired",
        session_object(fake_stripe, deposit, status="expired", payment_status="unpaid"),
        created=seconds_after_now(1800),
    )

    payment, appointment = reloaded(deposit)
    assert payment.status == PaymentStatus.PAID
    assert appointment.status == AppointmentStatus.CONFIRMED
    assert not ten_am_is_offered(haircut)


def test_payment_intent_succeeded_alone_marks_the_payment_paid(deposit):
    deliver_event("evt_intent", "payment_intent.succeeded", intent_object(deposit))

    payment, appointment = reloaded(deposit)
    assert payment.status == PaymentStatus.PAID
    assert appointment.status == AppointmentStatus.CONFIRMED


def test_charge_refunded_records_the_cumulative_amount_refunded(fake_stripe, deposit):
    deliver_event(
        "evt_completed", "checkout.session.completed", session_object(fake_stripe, deposit)
    )

    deliver_event("evt_refund_1", "charge.refunded", charge_object(deposit, amount_refunded=500))
    payment, _ = reloaded(deposit)
    assert payment.status == PaymentStatus.PARTIALLY_REFUNDED
    assert payment.amount_refunded == Decimal("5.00")

    deliver_event("evt_refund_2", "charge.refunded", charge_object(deposit, amount_refunded=1200))
    payment, appointment = reloaded(deposit)
    assert payment.status == PaymentStatus.REFUNDED
    assert payment.amount_refunded == Decimal("12.00")
    assert appointment.status == AppointmentStatus.CONFIRMED  # a refund cancels nothing by itself


# --- what is stored and answered 200 without changing a payment -------------------------------


def test_an_unknown_event_type_is_stored_as_ignored_and_answered_200(deposit):
    answer = deliver_event(
        "evt_customer", "customer.created", {"id": "cus_1", "object": "customer"}
    )

    payment, _ = reloaded(deposit)
    assert answer["outcome"] == "ignored"
    assert stored("evt_customer").outcome == WebhookOutcome.IGNORED
    assert stored("evt_customer").type == "customer.created"
    assert payment.status == PaymentStatus.PENDING


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        (
            {"id": "cs_someone_elses", "metadata": {}},
            "no payment of ours has checkout_session_id cs_someone_elses",
        ),
        ({"metadata": {"ordina_payment": "999999"}}, "no payment of ours has pk 999999"),
        ({"id": None, "metadata": {}}, "the event names no payment of ours"),
    ],
    ids=["unknown-session", "unknown-reference", "no-reference"],
)
def test_an_event_for_a_payment_we_do_not_have_is_recorded_as_failed(
    fake_stripe, deposit, changes, error
):
    stranger = session_object(fake_stripe, deposit, **changes)

    answer = deliver_event("evt_stranger", "checkout.session.completed", stranger)

    payment, _ = reloaded(deposit)
    assert answer["outcome"] == "failed"
    assert stored("evt_stranger").error == error
    assert stored("evt_stranger").payment is None
    assert payment.status == PaymentStatus.PENDING


@pytest.mark.parametrize(
    ("what", "changes", "error"),
    [
        ("amount", {"amount_total": 100}, "Stripe reports 100 minor units"),
        ("currency", {"currency": "usd"}, "Stripe reports usd"),
        ("session", {"id": "cs_test_another"}, "checkout cs_test_another is not the one opened"),
    ],
)
def test_a_completed_session_that_does_not_match_ours_is_failed_and_leaves_it_unpaid(
    fake_stripe, deposit, what, changes, error
):
    # Given a paid session carrying our metadata but another `what`
    mismatched = session_object(fake_stripe, deposit, **changes)

    # When Stripe delivers it
    answer = deliver_event("evt_mismatch", "checkout.session.completed", mismatched)

    # Then it is answered 200 (a retry would not fix it), recorded as failed, and nothing is paid
    payment, appointment = reloaded(deposit)
    assert answer["outcome"] == "failed"
    assert stored("evt_mismatch").outcome == WebhookOutcome.FAILED
    assert error in stored("evt_mismatch").error
    assert payment.status == PaymentStatus.PENDING
    assert payment.paid_at is None
    assert appointment.status == AppointmentStatus.PENDING_PAYMENT
    assert paid_events(payment) == 0


def test_a_live_mode_event_for_a_test_mode_payment_is_failed(fake_stripe, deposit):
    payload = event_payload(
        "evt_live",
        "checkout.session.completed",
        session_object(fake_stripe, deposit, livemode=True),
        livemode=True,
    )

    response = deliver(payload)

    payment, _ = reloaded(deposit)
    assert response.status_code == 200
    assert "livemode True does not match" in stored("evt_live").error
    assert payment.status == PaymentStatus.PENDING


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"amount_received": 1}, "Stripe reports 1 minor units"),
        ({"currency": "gbp"}, "Stripe reports gbp"),
        ({"id": "pi_test_someone_elses"}, "intent pi_test_someone_elses is not payment"),
    ],
)
def test_a_payment_intent_that_does_not_match_ours_is_failed(deposit, changes, error):
    answer = deliver_event(
        "evt_intent", "payment_intent.succeeded", intent_object(deposit, **changes)
    )

    payment, _ = reloaded(deposit)
    assert answer["outcome"] == "failed"
    assert error in stored("evt_intent").error
    assert payment.status == PaymentStatus.PENDING


def test_a_failed_event_is_kept_with_its_payload_for_the_replay_command(fake_stripe, deposit):
    mismatched = session_object(fake_stripe, deposit, amount_total=1)

    deliver_event("evt_mismatch", "checkout.session.completed", mismatched)

    event = stored("evt_mismatch")
    assert event.payload["data"]["object"]["amount_total"] == 1
    assert event.processed_at is not None


@pytest.mark.parametrize(
    ("changes", "referenced", "error"),
    [
        ({"amount": 5000}, False, "Stripe reports 5000 minor units"),
        ({"currency": "usd"}, False, "Stripe reports usd"),
        ({"payment_intent": "pi_test_other"}, True, "intent pi_test_other is not payment"),
        ({"payment_intent": "pi_test_other"}, False, "no payment of ours has payment_intent_id"),
    ],
    ids=["amount", "currency", "other-intent-with-our-reference", "unknown-intent"],
)
def test_a_refunded_charge_that_does_not_match_ours_neither_pays_nor_refunds(
    deposit, changes, referenced, error
):
    # Given a refunded charge (which also reports the deposit paid) that is not ours, perhaps
    # carrying our payment's reference in its metadata
    if referenced:
        changes["metadata"] = {"ordina_payment": str(deposit.pk)}
    charge = charge_object(deposit, amount_refunded=DEPOSIT_MINOR, **changes)

    answer = deliver_event("evt_charge", "charge.refunded", charge)

    payment, appointment = reloaded(deposit)
    assert answer["outcome"] == "failed"
    assert error in stored("evt_charge").error
    assert payment.status == PaymentStatus.PENDING
    assert payment.amount_refunded == 0
    assert appointment.status == AppointmentStatus.PENDING_PAYMENT
