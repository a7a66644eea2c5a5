"""The sweep lets go of every time held for a deposit nobody can pay any more: a payment whose
Checkout was never opened (the process died before Stripe was asked), an appointment awaiting a
deposit with no payment on record at all, and — closed at Stripe first, so nobody pays a
released time — a Checkout left unpaid past the hold. Each is released only once its hold is
over, and its time is offered again."""

import datetime as dt

import pytest
import time_machine

from bookings.models import AppointmentStatus, DepositRule
from bookings.services import ClientDetails
from orchestration.appointment_changes import appointment_create
from orchestration.booking_with_deposit import booking_with_deposit_create
from orchestration.deposit_settlement import deposit_checkout_open, release_unpaid_expired
from payments.models import Payment, PaymentStatus
from tests.bookings.conftest import NOW, WEDNESDAY, lisbon

TEN_AM = lisbon(WEDNESDAY, "10:00")
HOLD_OVER = NOW + dt.timedelta(minutes=31)  # the 30-minute deposit hold has run out

pytestmark = pytest.mark.usefixtures("frozen_now")


@pytest.fixture
def percent_salon(salon):
    salon.deposit_rule, salon.deposit_percent = DepositRule.PERCENT, 20
    salon.save()
    return salon


def ten_am_is_free(haircut) -> bool:
    from bookings.selectors import open_slots_for

    slots = open_slots_for(haircut, first_day=WEDNESDAY, last_day=WEDNESDAY, now=HOLD_OVER)
    return TEN_AM in {slot.start for slot in slots}


def awaiting_deposit(haircut):
    """Wednesday 10:00 booked through the deposit flow: awaiting its 12.00 deposit."""
    return booking_with_deposit_create(
        service=haircut,
        start=TEN_AM,
        client=ClientDetails("Ana Silva", "ana@example.com"),
        idempotency_key="k-1",
    ).appointment


def test_a_booking_awaiting_its_deposit_is_written_with_its_payment(percent_salon, haircut):
    appointment = awaiting_deposit(haircut)

    [payment] = Payment.objects.all()
    assert payment.appointment == appointment
    assert (payment.status, payment.checkout_session_id) == (PaymentStatus.PENDING, None)
    assert payment.expires_at == NOW + dt.timedelta(minutes=30)


def test_a_payment_never_opened_at_stripe_is_released_once_its_hold_is_over(
    percent_salon, haircut, fake_stripe
):
    appointment = awaiting_deposit(haircut)
    # The process died before asking Stripe: no Checkout, nothing the client could pay.

    with time_machine.travel(NOW + dt.timedelta(minutes=29), tick=False):
        assert release_unpaid_expired() == 0
    with time_machine.travel(HOLD_OVER, tick=False):
        assert release_unpaid_expired() == 1

    appointment.refresh_from_db()
    assert appointment.status == AppointmentStatus.EXPIRED
    assert Payment.objects.get().status == PaymentStatus.EXPIRED
    assert fake_stripe.requests == []  # there was nothing at Stripe to ask about or close
    assert ten_am_is_free(haircut)


def test_an_appointment_awaiting_a_deposit_with_no_payment_at_all_is_released_after_the_hold(
    percent_salon, haircut
):
    # Written by a path that made no payment (before payments were written with bookings).
    appointment = appointment_create(
        service=haircut,
        start=TEN_AM,
        client=ClientDetails("Ana Silva", "ana@example.com"),
        status=AppointmentStatus.PENDING_PAYMENT,
    ).appointment

    with time_machine.travel(NOW + dt.timedelta(minutes=29), tick=False):
        assert release_unpaid_expired() == 0
    with time_machine.travel(HOLD_OVER, tick=False):
        assert release_unpaid_expired() == 1

    appointment.refresh_from_db()
    assert appointment.status == AppointmentStatus.EXPIRED
    event = appointment.events.get(kind="expired")
    assert event.data["reason"] == "no payment was ever opened for the deposit"
    assert ten_am_is_free(haircut)


def test_releasing_an_unpaid_checkout_closes_it_at_stripe_first(
    percent_salon, haircut, fake_stripe
):
    appointment = awaiting_deposit(haircut)
    checkout = deposit_checkout_open(appointment=appointment)
    assert checkout is not None

    with time_machine.travel(HOLD_OVER, tick=False):
        assert release_unpaid_expired() == 1

    session = fake_stripe.sessions[checkout.payment.checkout_session_id]
    assert session["status"] == "expired"  # nobody can pay the released time any more
    closing = [r for r in fake_stripe.requests if r["path"].endswith("/expire")]
    assert len(closing) == 1
    appointment.refresh_from_db()
    assert appointment.status == AppointmentStatus.EXPIRED


def test_a_checkout_stripe_will_not_close_because_it_was_just_paid_keeps_the_appointment(
    percent_salon, haircut, fake_stripe
):
    appointment = awaiting_deposit(haircut)
    checkout = deposit_checkout_open(appointment=appointment)
    assert checkout is not None
    # Paid between the sweep's question and its closing: Stripe refuses to close it.
    session_id = checkout.payment.checkout_session_id
    original_route = fake_stripe._route

    def paid_at_the_last_moment(method, path, form):
        if path.endswith("/expire"):
            fake_stripe.pay(session_id)
        return original_route(method, path, form)

    fake_stripe._route = paid_at_the_last_moment

    with time_machine.travel(HOLD_OVER, tick=False):
        assert release_unpaid_expired() == 0

    appointment.refresh_from_db()
    assert appointment.status == AppointmentStatus.CONFIRMED
    assert Payment.objects.get().status == PaymentStatus.PAID
