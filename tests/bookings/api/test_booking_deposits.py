"""Booking through the public API when the business asks a deposit: the appointment holds its
time awaiting payment, the answer says where to pay, a retried request gets the same Checkout,
and when Stripe is down nothing stays booked. Stripe is the local fake, over real HTTP."""

import datetime as dt
from decimal import Decimal

import pytest
import time_machine

from bookings.models import (
    Appointment,
    AppointmentEvent,
    AppointmentEventKind,
    AppointmentStatus,
    DepositRule,
)
from payments.models import Payment, PaymentStatus
from payments.services import payment_verify, release_unpaid_expired
from tests.factories import ServiceFactory

from .salon import NOW, TUESDAY_9, Salon, salon_in
from .widget import book, open_starts

CHECKOUT_PATH = "/v1/checkout/sessions"
NINE = "2026-12-01T09:00:00+00:00"
# The SDK tries a call three times (max_network_retries=2) before giving up.
EVERY_ATTEMPT = 3


@pytest.fixture
def deposit_salon(db, frozen_now) -> Salon:
    """The Lisbon salon asking 20 % of the 60.00 EUR haircut: a 12.00 EUR deposit."""
    return salon_in(deposit_rule=DepositRule.PERCENT, deposit_percent=20)


def checkouts_opened(fake_stripe) -> list[dict]:
    return [
        request
        for request in fake_stripe.requests
        if request["method"] == "POST" and request["path"] == CHECKOUT_PATH
    ]


def test_a_deposit_booking_is_pending_payment_and_answers_where_to_pay(
    api, deposit_salon, fake_stripe
):
    response = book(api, deposit_salon, TUESDAY_9)

    assert response.status_code == 201
    body = response.json()
    appointment = Appointment.objects.get()
    payment = Payment.objects.get()
    assert body["status"] == "pending_payment"
    assert body["payment"] == {
        "amount": "12.00",
        "currency": "EUR",
        "url": f"{fake_stripe.base_url}/pay/{payment.checkout_session_id}",
        "expires_at": "2026-11-30T08:30:00+00:00",  # the 30-minute payment hold, in Lisbon
    }
    assert appointment.status == AppointmentStatus.PENDING_PAYMENT
    assert payment.appointment == appointment
    assert payment.status == PaymentStatus.PENDING
    [opened] = checkouts_opened(fake_stripe)
    assert opened["headers"]["Idempotency-Key"] == f"ordina-checkout-{appointment.public_id}"
    assert opened["form"]["metadata"] == {
        "ordina_payment": str(payment.pk),
        "ordina_appointment": str(appointment.public_id),
    }


def test_the_appointment_awaiting_its_deposit_holds_its_time(api, deposit_salon, fake_stripe):
    book(api, deposit_salon, TUESDAY_9, key="ana")

    refused = book(api, deposit_salon, TUESDAY_9, key="rui", name="Rui", email="rui@example.com")

    assert NINE not in open_starts(api, deposit_salon)
    assert refused.status_code == 409
    assert refused.json()["code"] == "slot_unavailable"
    assert len(checkouts_opened(fake_stripe)) == 1


def test_a_replay_returns_the_same_checkout_and_asks_stripe_once(api, deposit_salon, fake_stripe):
    first = book(api, deposit_salon, TUESDAY_9, key="retry-me")

    replay = book(api, deposit_salon, TUESDAY_9, key="retry-me")

    assert (first.status_code, replay.status_code) == (201, 200)
    assert replay.json() == first.json()
    assert replay.json()["payment"]["url"] == first.json()["payment"]["url"]
    assert len(checkouts_opened(fake_stripe)) == 1
    assert Payment.objects.count() == 1


def test_a_replay_after_payment_shows_the_appointment_confirmed_with_the_same_checkout(
    api, deposit_salon, fake_stripe
):
    first = book(api, deposit_salon, TUESDAY_9, key="paid-later").json()
    payment = Payment.objects.get()
    fake_stripe.pay(payment.checkout_session_id)
    payment_verify(payment)  # Stripe, asked directly, confirms it: never the client's word

    replay = book(api, deposit_salon, TUESDAY_9, key="paid-later")

    assert replay.status_code == 200
    assert replay.json() == first | {"status": "confirmed"}
    assert len(checkouts_opened(fake_stripe)) == 1


def test_stripe_unavailable_answers_503_and_offers_the_time_again(api, deposit_salon, fake_stripe):
    fake_stripe.fail_next = EVERY_ATTEMPT

    response = book(api, deposit_salon, TUESDAY_9, key="during-outage")

    assert response.status_code == 503
    assert response.json() == {
        "detail": (
            "Payments are unavailable at the moment, so the deposit could not be taken and "
            "nothing was booked. Please try again shortly."
        ),
        "code": "payments_unavailable",
    }
    appointment = Appointment.objects.get()
    assert appointment.status == AppointmentStatus.EXPIRED
    assert AppointmentEvent.objects.filter(
        appointment=appointment, kind=AppointmentEventKind.EXPIRED
    ).exists()
    # The payment attempt was written with the booking; it failed, nothing was charged.
    [payment] = Payment.objects.all()
    assert (payment.status, payment.checkout_session_id) == (PaymentStatus.FAILED, None)
    assert NINE in open_starts(api, deposit_salon)


def test_after_an_outage_the_released_time_is_booked_with_a_new_key(
    api, deposit_salon, fake_stripe
):
    fake_stripe.fail_next = EVERY_ATTEMPT
    book(api, deposit_salon, TUESDAY_9, key="during-outage")

    response = book(api, deposit_salon, TUESDAY_9, key="after-outage")

    assert response.status_code == 201
    assert response.json()["status"] == "pending_payment"
    assert response.json()["payment"]["url"].startswith(fake_stripe.base_url)


def test_a_replay_of_a_request_refused_for_an_outage_shows_the_released_appointment(
    api, deposit_salon, fake_stripe
):
    fake_stripe.fail_next = EVERY_ATTEMPT
    book(api, deposit_salon, TUESDAY_9, key="during-outage")
    attempts = len(fake_stripe.requests)

    replay = book(api, deposit_salon, TUESDAY_9, key="during-outage")

    assert replay.status_code == 200
    assert replay.json()["status"] == "expired"
    assert replay.json()["payment"] is None
    assert len(fake_stripe.requests) == attempts  # a released booking opens no Checkout


def test_an_unpaid_deposit_releases_the_time_when_its_hold_runs_out(
    api, deposit_salon, fake_stripe
):
    book(api, deposit_salon, TUESDAY_9)
    assert NINE not in open_starts(api, deposit_salon)

    with time_machine.travel(NOW + dt.timedelta(minutes=31), tick=False):
        released = release_unpaid_expired()
        starts = open_starts(api, deposit_salon)

    assert released == 1
    assert Appointment.objects.get().status == AppointmentStatus.EXPIRED
    assert NINE in starts


@pytest.mark.parametrize(
    ("business_fields", "service_deposit"),
    [
        pytest.param({}, None, id="the business asks none"),
        pytest.param(
            {"deposit_rule": DepositRule.FIXED, "deposit_amount": Decimal("15.00")},
            Decimal("0.00"),
            id="the service waives the business's deposit",
        ),
    ],
)
def test_no_deposit_due_books_confirmed_with_no_payment_and_no_stripe_call(
    api, db, frozen_now, fake_stripe, business_fields, service_deposit
):
    salon = salon_in(**business_fields)
    salon.service.deposit_amount = service_deposit
    salon.service.save()

    response = book(api, salon, TUESDAY_9)

    assert response.status_code == 201
    assert response.json()["status"] == "confirmed"
    assert response.json()["payment"] is None
    assert not Payment.objects.exists()
    assert fake_stripe.requests == []


def test_a_service_deposit_overrides_the_business_rule(api, deposit_salon, fake_stripe):
    massage = ServiceFactory(
        business=deposit_salon.business, name="Massage", deposit_amount=Decimal("25.00")
    )

    response = book(api, Salon(deposit_salon.business, massage), TUESDAY_9)

    assert response.status_code == 201
    assert response.json()["payment"]["amount"] == "25.00"
    assert checkouts_opened(fake_stripe)[0]["form"]["line_items"]["0"]["price_data"] == {
        "currency": "eur",
        "unit_amount": "2500",
        "product_data": {"name": "Deposit: Massage"},
    }


def test_a_deposit_booking_without_the_fake_stripe_never_leaves_this_machine(api, deposit_salon):
    # Guard of this package's conftest: with no fake Stripe, the SDK is pointed at a closed
    # local port, so the booking is refused (503) instead of calling Stripe's servers.
    response = book(api, deposit_salon, TUESDAY_9)

    assert response.status_code == 503
    assert Appointment.objects.get().status == AppointmentStatus.EXPIRED


def test_the_schema_documents_the_deposit_and_the_503(api, db):
    schema = api.get("/api/schema/?format=json").json()

    booking = schema["paths"]["/api/v1/businesses/{slug}/appointments/"]["post"]
    booked = schema["components"]["schemas"]["BookedAppointment"]
    assert booking["responses"]["503"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Error"
    }
    assert "payment" in booked["required"]
    assert booked["properties"]["payment"]["nullable"] is True
    assert set(schema["components"]["schemas"]["Deposit"]["properties"]) == {
        "amount",
        "currency",
        "url",
        "expires_at",
    }
