"""The webhook's door: only a body signed with our endpoint secret within 300 seconds gets in.
A refused delivery is answered 400 and leaves nothing behind — no event row, no state change.

Time is frozen (time-machine) and Stripe's SDK checks the timestamp against ``time.time()``,
which the freeze covers: "301 s old" is exactly that, not a race with the clock.
"""

import pytest

from bookings.models import AppointmentStatus
from devtools.fake_stripe import WEBHOOK_SECRET, event_payload, sign
from payments.models import Payment, PaymentStatus, WebhookEvent
from tests.payments.test_webhooks import (  # noqa: F401 - the `deposit` fixture
    awaiting_deposit,
    deliver,
    paid_events,
    reloaded,
    seconds_after_now,
    session_object,
)

OLD_SECRET = "whsec_ordina_before_rotation"


def nothing_changed(payment: Payment) -> bool:
    payment, appointment = reloaded(payment)
    return (
        not WebhookEvent.objects.exists()
        and payment.status == PaymentStatus.PENDING
        and payment.paid_at is None
        and appointment.status == AppointmentStatus.PENDING_PAYMENT
        and paid_events(payment) == 0
    )


@pytest.fixture
def paid_session(fake_stripe, deposit) -> bytes:
    """The delivery that would mark the deposit paid, were it signed right."""
    return event_payload(
        "evt_paid", "checkout.session.completed", session_object(fake_stripe, deposit)
    )


def test_a_delivery_without_a_signature_is_refused_and_changes_nothing(paid_session, deposit):
    response = deliver(paid_session, signature="")

    assert response.status_code == 400
    assert response.json()["code"] == "bad_signature"
    assert nothing_changed(deposit)


def test_a_delivery_with_no_signature_header_at_all_is_refused(client, paid_session, deposit):
    response = client.post("/payments/stripe/webhook/", paid_session, "application/json")

    assert response.status_code == 400
    assert nothing_changed(deposit)


def test_a_tampered_body_is_refused_and_changes_nothing(paid_session, deposit):
    signature = sign(paid_session)
    tampered = paid_session.replace(b'"amount_total": 1200', b'"amount_total": 1')
    assert tampered != paid_session

    response = deliver(tampered, signature=signature)

    assert response.status_code == 400
    assert nothing_changed(deposit)


def test_a_body_signed_with_another_secret_is_refused_and_changes_nothing(paid_session, deposit):
    response = deliver(paid_session, secret="whsec_someone_else")

    assert response.status_code == 400
    assert nothing_changed(deposit)


def test_a_signature_301_seconds_old_is_refused_and_changes_nothing(paid_session, deposit):
    response = deliver(paid_session, timestamp=seconds_after_now(-301))

    assert response.status_code == 400
    assert "tolerance" in response.json()["detail"]
    assert nothing_changed(deposit)


def test_a_signature_299_seconds_old_is_accepted(paid_session, deposit):
    response = deliver(paid_session, timestamp=seconds_after_now(-299))

    payment, appointment = reloaded(deposit)
    assert response.status_code == 200
    assert payment.status == PaymentStatus.PAID
    assert appointment.status == AppointmentStatus.CONFIRMED


@pytest.mark.parametrize("valid_first", [True, False], ids=["new-first", "old-first"])
def test_during_secret_rotation_a_header_with_two_signatures_is_accepted_if_one_verifies(
    settings, paid_session, deposit, valid_first
):
    # Given our endpoint secret was rotated, and Stripe signs with the old and the new one
    timestamp = seconds_after_now(0)
    new = sign(paid_session, WEBHOOK_SECRET, timestamp).split(",")[1]
    old = sign(paid_session, OLD_SECRET, timestamp).split(",")[1]
    signatures = [new, old] if valid_first else [old, new]

    response = deliver(paid_session, signature=",".join([f"t={timestamp}", *signatures]))

    assert settings.STRIPE_WEBHOOK_SECRET == WEBHOOK_SECRET
    assert response.status_code == 200
    assert reloaded(deposit)[0].status == PaymentStatus.PAID


def test_a_header_with_two_signatures_neither_of_ours_is_refused(paid_session, deposit):
    timestamp = seconds_after_now(0)
    first = sign(paid_session, OLD_SECRET, timestamp).split(",")[1]
    second = sign(paid_session, "whsec_third", timestamp).split(",")[1]

    response = deliver(paid_session, signature=f"t={timestamp},{first},{second}")

    assert response.status_code == 400
    assert nothing_changed(deposit)


@pytest.mark.parametrize("body", [b"not json", b"\xff\xfe"], ids=["not-json", "not-utf8"])
def test_a_signed_body_that_is_not_a_stripe_event_is_refused(body, deposit):
    response = deliver(body)

    assert response.status_code == 400
    assert nothing_changed(deposit)


def test_an_unset_endpoint_secret_refuses_every_delivery(settings, paid_session, deposit):
    settings.STRIPE_WEBHOOK_SECRET = ""

    response = deliver(paid_session, secret="")

    assert response.status_code == 400
    assert nothing_changed(deposit)


def test_the_webhook_answers_only_post(client):
    assert client.get("/payments/stripe/webhook/").status_code == 405
