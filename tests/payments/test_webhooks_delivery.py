"""Stripe delivers at least once: the same event may come many times, some at the same instant.
It is stored once and moves the payment once, because the unique event row is inserted in the
same transaction as the state change — checked by hand to fail when that insert is moved out of
the transaction or removed (docs/benchmarks.md, "Webhooks").
"""

import threading

import pytest
from django.db import OperationalError, connection
from django.test import Client as HttpClient

import payments.services.webhooks as webhooks
from bookings.models import AppointmentStatus
from devtools.fake_stripe import event_payload, sign
from payments.models import PaymentStatus, WebhookEvent, WebhookOutcome
from tests.payments.test_webhooks import (  # noqa: F401 - the `deposit` fixture
    awaiting_deposit,
    deliver,
    paid_events,
    reloaded,
    session_object,
)

DELIVERIES = 50
AT_ONCE = 10


def deliver_at_once(payload: bytes, signature: str, count: int) -> list:
    """``count`` threads, each with its own database connection, POST the same delivery at the
    same instant; their responses (or what they raised)."""
    barrier = threading.Barrier(count)
    answers: list = [None] * count

    def one(index: int) -> None:
        try:
            http = HttpClient()
            barrier.wait(timeout=30)
            answers[index] = deliver(payload, signature=signature, http=http)
        except Exception as problem:
            answers[index] = problem
        finally:
            connection.close()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


# Real commits, so that the threads' connections see each other's rows.
@pytest.mark.django_db(transaction=True)
def test_the_same_delivery_fifty_times_ten_at_once_is_stored_once_and_pays_once(
    fake_stripe, deposit
):
    # Given one signed delivery of "checkout completed, paid"
    payload = event_payload(
        "evt_once", "checkout.session.completed", session_object(fake_stripe, deposit)
    )
    signature = sign(payload)

    # When it arrives ten times at the same instant, then forty times more
    answers = deliver_at_once(payload, signature, AT_ONCE)
    answers += [deliver(payload, signature=signature) for _ in range(DELIVERIES - AT_ONCE)]

    # Then every delivery is answered 2xx, one of them as new, all after the payment moved
    assert [getattr(a, "status_code", a) for a in answers] == [200] * DELIVERIES
    bodies = [a.json() for a in answers]
    assert sum(not body["duplicate"] for body in bodies) == 1
    assert {body["outcome"] for body in bodies} == {WebhookOutcome.PROCESSED}
    # And one event row, one transition
    payment, appointment = reloaded(deposit)
    assert WebhookEvent.objects.filter(stripe_event_id="evt_once").count() == 1
    assert payment.status == PaymentStatus.PAID
    assert appointment.status == AppointmentStatus.CONFIRMED
    assert paid_events(payment) == 1


def test_a_delivery_whose_state_change_fails_is_not_stored_so_stripes_retry_applies_it(
    fake_stripe, deposit, monkeypatch
):
    # Given the database fails while the first delivery moves the payment
    apply = webhooks.apply_payment_facts
    failures = iter([OperationalError("the server closed the connection")])

    def apply_once_failing(*args, **kwargs):
        if problem := next(failures, None):
            raise problem
        return apply(*args, **kwargs)

    monkeypatch.setattr(webhooks, "apply_payment_facts", apply_once_failing)
    payload = event_payload(
        "evt_retried", "checkout.session.completed", session_object(fake_stripe, deposit)
    )

    # When Stripe delivers, gets a 503 (the database is unavailable), and delivers again
    first = deliver(payload, http=HttpClient(raise_request_exception=False))
    assert first.status_code == 503
    assert not WebhookEvent.objects.filter(stripe_event_id="evt_retried").exists()
    second = deliver(payload)

    # Then the retry is processed, not mistaken for a duplicate
    payment, appointment = reloaded(deposit)
    assert second.status_code == 200
    assert second.json() == {"received": True, "duplicate": False, "outcome": "processed"}
    assert payment.status == PaymentStatus.PAID
    assert appointment.status == AppointmentStatus.CONFIRMED


def test_a_redelivered_failed_event_is_answered_as_a_duplicate_and_not_reprocessed(
    fake_stripe, deposit
):
    payload = event_payload(
        "evt_bad_amount",
        "checkout.session.completed",
        session_object(fake_stripe, deposit, amount_total=1),
    )

    answers = [deliver(payload).json() for _ in range(3)]

    assert [a["duplicate"] for a in answers] == [False, True, True]
    assert {a["outcome"] for a in answers} == {WebhookOutcome.FAILED}
    assert WebhookEvent.objects.count() == 1
