"""Opening the Stripe Checkout for a booking's deposit, through the real SDK against the local
fake Stripe: one Payment, one session with the right amount, currency, metadata, expiry and
idempotency key; opened once however often it is asked; released when Stripe cannot open it."""

import datetime as dt
from decimal import Decimal

import pytest

from bookings.models import Appointment, AppointmentStatus, DepositRule
from bookings.selectors import open_slots_for
from bookings.services import ClientDetails, appointment_create
from payments import stripe_api
from payments.models import Payment, PaymentStatus
from payments.services import deposit_checkout_open
from payments.services.checkout import CHECKOUT_MARGIN
from tests.bookings.conftest import NOW, WEDNESDAY, lisbon

TEN_AM = lisbon(WEDNESDAY, "10:00")
CHECKOUT_PATH = "/v1/checkout/sessions"
EVERY_ATTEMPT = 3  # the SDK's first try and its two retries


@pytest.fixture
def percent_salon(salon):
    """The Lisbon salon asking 20 %: a 12.00 EUR deposit on the 60.00 EUR haircut."""
    salon.deposit_rule = DepositRule.PERCENT
    salon.deposit_percent = 20
    salon.save()
    return salon


def booked(haircut, status=AppointmentStatus.PENDING_PAYMENT) -> Appointment:
    return appointment_create(
        service=haircut,
        start=TEN_AM,
        client=ClientDetails(name="Ana Silva", email="ana@example.com"),
        status=status,
    ).appointment


def checkouts_opened(fake_stripe) -> list[dict]:
    return [
        request
        for request in fake_stripe.requests
        if request["method"] == "POST" and request["path"] == CHECKOUT_PATH
    ]


def ten_am_is_offered(haircut) -> bool:
    slots = open_slots_for(haircut, first_day=WEDNESDAY, last_day=WEDNESDAY, now=NOW)
    return TEN_AM in {slot.start for slot in slots}


def test_opening_a_checkout_creates_one_payment_and_one_stripe_session(
    fake_stripe, percent_salon, haircut, frozen_now
):
    appointment = booked(haircut)

    checkout = deposit_checkout_open(appointment=appointment)

    assert checkout is not None
    payment = Payment.objects.get()
    assert checkout.payment == payment
    assert payment.appointment == appointment
    assert payment.business == percent_salon
    assert (payment.amount, payment.currency) == (Decimal("12.00"), "EUR")
    assert payment.status == PaymentStatus.PENDING
    assert payment.expires_at == NOW + dt.timedelta(minutes=30)
    [request] = checkouts_opened(fake_stripe)
    session = fake_stripe.sessions[payment.checkout_session_id]
    assert checkout.url == payment.checkout_url == session["url"]
    assert payment.payment_intent_id == session["payment_intent"]
    assert payment.livemode is False
    form = request["form"]
    assert form["mode"] == "payment"
    assert form["line_items"] == {
        "0": {
            "quantity": "1",
            "price_data": {
                "currency": "eur",
                "unit_amount": "1200",
                "product_data": {"name": "Deposit: Haircut"},
            },
        }
    }
    # Stripe's Checkout outlives our hold by a margin; releasing the time closes it at Stripe.
    closes = NOW + dt.timedelta(minutes=30) + CHECKOUT_MARGIN
    assert form["expires_at"] == str(int(closes.timestamp()))
    reference = {
        "ordina_payment": str(payment.pk),
        "ordina_appointment": str(appointment.public_id),
    }
    assert form["metadata"] == reference
    assert form["payment_intent_data"] == {"metadata": reference}
    assert form["customer_email"] == "ana@example.com"
    assert request["headers"]["Idempotency-Key"] == f"ordina-checkout-{appointment.public_id}"


def test_calling_again_returns_the_same_url_without_a_second_stripe_call(
    fake_stripe, percent_salon, haircut, frozen_now
):
    appointment = booked(haircut)
    first = deposit_checkout_open(appointment=appointment)

    again = deposit_checkout_open(appointment=appointment)

    assert first is not None
    assert again is not None
    assert again.url == first.url
    assert again.payment.pk == first.payment.pk
    assert len(checkouts_opened(fake_stripe)) == 1
    assert Payment.objects.count() == 1


@pytest.mark.parametrize(
    ("hold_minutes", "expires_after"),
    [
        pytest.param(45, 45, id="our hold"),
        pytest.param(10, 30, id="never less than Stripe's 30-minute minimum"),
    ],
)
def test_the_payment_expires_with_our_hold_and_its_checkout_a_margin_later(
    fake_stripe, percent_salon, haircut, frozen_now, settings, hold_minutes, expires_after
):
    settings.PAYMENT_HOLD_MINUTES = hold_minutes

    checkout = deposit_checkout_open(appointment=booked(haircut))

    assert checkout is not None
    expires_at = NOW + dt.timedelta(minutes=expires_after)
    assert checkout.payment.expires_at == expires_at
    session = fake_stripe.sessions[checkout.payment.checkout_session_id]
    assert session["expires_at"] == int((expires_at + CHECKOUT_MARGIN).timestamp())


def test_a_fixed_deposit_is_charged_in_minor_units(fake_stripe, salon, haircut, frozen_now):
    salon.deposit_rule = DepositRule.FIXED
    salon.deposit_amount = Decimal("15.50")
    salon.save()

    checkout = deposit_checkout_open(appointment=booked(haircut))

    assert checkout is not None
    assert checkout.payment.amount == Decimal("15.50")
    assert fake_stripe.sessions[checkout.payment.checkout_session_id]["amount_total"] == 1550


@pytest.mark.parametrize(
    "service_deposit",
    [pytest.param(None, id="the business asks none"), pytest.param(Decimal("0"), id="waived")],
)
def test_no_deposit_due_opens_nothing(fake_stripe, salon, haircut, frozen_now, service_deposit):
    salon.deposit_rule = DepositRule.NONE if service_deposit is None else DepositRule.PERCENT
    salon.deposit_percent = None if service_deposit is None else 20
    salon.save()
    haircut.deposit_amount = service_deposit
    haircut.save()

    checkout = deposit_checkout_open(appointment=booked(haircut))

    assert checkout is None
    assert not Payment.objects.exists()
    assert fake_stripe.requests == []


def test_an_appointment_not_awaiting_a_deposit_gets_no_checkout(
    fake_stripe, percent_salon, haircut, frozen_now
):
    confirmed = booked(haircut, status=AppointmentStatus.CONFIRMED)

    assert deposit_checkout_open(appointment=confirmed) is None
    assert not Payment.objects.exists()
    assert fake_stripe.requests == []


def test_stripe_failing_releases_the_appointment_and_records_the_payment_failed(
    fake_stripe, percent_salon, haircut, frozen_now
):
    appointment = booked(haircut)
    assert not ten_am_is_offered(haircut)
    fake_stripe.fail_next = EVERY_ATTEMPT

    with pytest.raises(stripe_api.StripeUnavailable):
        deposit_checkout_open(appointment=appointment)

    appointment.refresh_from_db()
    assert appointment.status == AppointmentStatus.EXPIRED
    [payment] = Payment.objects.all()  # the attempt stays on record, never charged
    assert (payment.status, payment.checkout_session_id) == (PaymentStatus.FAILED, None)
    assert ten_am_is_offered(haircut)
    # every attempt carried the same key, so Stripe could not have opened two sessions
    keys = {request["headers"]["Idempotency-Key"] for request in checkouts_opened(fake_stripe)}
    assert len(checkouts_opened(fake_stripe)) == EVERY_ATTEMPT
    assert keys == {f"ordina-checkout-{appointment.public_id}"}


def test_a_released_appointment_gets_no_checkout_afterwards(
    fake_stripe, percent_salon, haircut, frozen_now
):
    appointment = booked(haircut)
    fake_stripe.fail_next = EVERY_ATTEMPT
    with pytest.raises(stripe_api.StripeUnavailable):
        deposit_checkout_open(appointment=appointment)

    assert deposit_checkout_open(appointment=Appointment.objects.get(pk=appointment.pk)) is None
    assert len(checkouts_opened(fake_stripe)) == EVERY_ATTEMPT


def test_a_transient_stripe_error_is_retried_by_the_sdk_with_the_same_key(
    fake_stripe, percent_salon, haircut, frozen_now
):
    fake_stripe.fail_next = 1

    checkout = deposit_checkout_open(appointment=booked(haircut))

    assert checkout is not None
    first, retry = checkouts_opened(fake_stripe)
    assert first["headers"]["Idempotency-Key"] == retry["headers"]["Idempotency-Key"]
    assert len(fake_stripe.sessions) == 1
