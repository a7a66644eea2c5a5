"""POST /payments/internal/verify/<appointment>/: a trusted server, holding the shared secret,
can make Ordina ask Stripe about one deposit. The caller triggers the question; only Stripe's
answer can mark a payment paid."""

import pytest
from django.test import Client as HttpClient

from bookings.models import AppointmentStatus
from payments.models import Payment, PaymentStatus
from tests.payments.test_webhooks import (  # noqa: F401 - the `deposit` fixture
    awaiting_deposit,
    paid_events,
    reloaded,
)

SECRET = "internal-shared-secret-for-tests"
HEADER = "HTTP_X_ORDINA_INTERNAL_SECRET"


@pytest.fixture(autouse=True)
def shared_secret(settings):
    settings.PAYMENTS_INTERNAL_SECRET = SECRET


def verify(appointment_id, *, body: dict | None = None, **headers: str):
    return HttpClient().post(
        f"/payments/internal/verify/{appointment_id}/",
        data=body or {},
        content_type="application/json",
        **headers,
    )


def public_id(payment: Payment) -> str:
    return str(payment.appointment.public_id)


def unchanged(payment: Payment) -> bool:
    payment, appointment = reloaded(payment)
    return (
        payment.status == PaymentStatus.PENDING
        and appointment.status == AppointmentStatus.PENDING_PAYMENT
        and paid_events(payment) == 0
    )


# --- who may ask --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [{}, {HEADER: ""}, {HEADER: "wrong"}, {HEADER: SECRET[:-1]}, {HEADER: SECRET + "x"}],
    ids=["missing", "empty", "wrong", "prefix", "longer"],
)
def test_a_caller_without_the_shared_secret_is_refused(fake_stripe, deposit, headers):
    fake_stripe.pay(deposit.checkout_session_id)

    response = verify(public_id(deposit), **headers)

    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"
    assert unchanged(deposit)
    assert fake_stripe.requests[-1]["method"] == "POST"  # Stripe was not asked


@pytest.mark.parametrize("offered", ["", "anything"])
def test_with_no_secret_configured_every_caller_is_refused(settings, deposit, offered):
    settings.PAYMENTS_INTERNAL_SECRET = ""

    response = verify(public_id(deposit), **{HEADER: offered})

    assert response.status_code == 403
    assert unchanged(deposit)


def test_the_endpoint_answers_only_post(deposit):
    response = HttpClient().get(
        f"/payments/internal/verify/{public_id(deposit)}/", **{HEADER: SECRET}
    )

    assert response.status_code == 405


# --- what it does -------------------------------------------------------------------------------


def test_with_the_secret_it_asks_stripe_and_records_a_confirmed_payment(fake_stripe, deposit):
    fake_stripe.pay(deposit.checkout_session_id)

    response = verify(public_id(deposit), **{HEADER: SECRET})

    payment, appointment = reloaded(deposit)
    assert response.status_code == 200
    assert response.json() == {"status": "paid", "appointment_status": "confirmed"}
    assert payment.status == PaymentStatus.PAID
    assert appointment.status == AppointmentStatus.CONFIRMED
    assert (
        fake_stripe.requests[-1]["path"] == f"/v1/checkout/sessions/{payment.checkout_session_id}"
    )


def test_a_body_claiming_paid_changes_nothing_while_stripe_says_unpaid(fake_stripe, deposit):
    response = verify(
        public_id(deposit),
        body={"status": "paid", "payment_status": "paid", "paid": True},
        **{HEADER: SECRET},
    )

    assert response.status_code == 200
    assert response.json() == {"status": "pending", "appointment_status": "pending_payment"}
    assert unchanged(deposit)


def test_a_checkout_expired_at_stripe_is_recorded_and_the_appointment_released(
    fake_stripe, deposit
):
    fake_stripe.expire(deposit.checkout_session_id)

    response = verify(public_id(deposit), **{HEADER: SECRET})

    payment, appointment = reloaded(deposit)
    assert response.json() == {"status": "expired", "appointment_status": "expired"}
    assert payment.status == PaymentStatus.EXPIRED
    assert appointment.status == AppointmentStatus.EXPIRED


# A fixed unknown id: parameters are the same in every process that collects them.
UNKNOWN_ID = "6f1c2a4e-9b1d-4c8e-a2f0-3d5e7b9c1a22"


@pytest.mark.parametrize("appointment_id", [UNKNOWN_ID, "not-a-uuid", "1"])
def test_an_unknown_or_malformed_appointment_is_not_found(deposit, appointment_id):
    response = verify(appointment_id, **{HEADER: SECRET})

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_stripe_being_down_is_answered_503_and_changes_nothing(fake_stripe, deposit):
    fake_stripe.pay(deposit.checkout_session_id)
    fake_stripe.fail_next = 3  # the call and both SDK retries

    response = verify(public_id(deposit), **{HEADER: SECRET})

    assert response.status_code == 503
    assert response.json()["code"] == "stripe_unavailable"
    assert unchanged(deposit)


def test_a_checkout_stripe_reports_for_another_amount_is_answered_409(fake_stripe, deposit):
    fake_stripe.pay(deposit.checkout_session_id)["amount_total"] = 1

    response = verify(public_id(deposit), **{HEADER: SECRET})

    assert response.status_code == 409
    assert response.json()["code"] == "mismatch"
    assert unchanged(deposit)
