"""`manage.py replay_webhooks`: stored events that failed are processed again once what they
were missing is known; the command exits 1 while some still fail."""

from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command

from payments.models import Payment, PaymentStatus, WebhookOutcome
from tests.payments.test_webhooks import (  # noqa: F401 - the `deposit` fixture
    awaiting_deposit,
    charge_object,
    deliver_event,
    paid_events,
    reloaded,
    session_object,
    stored,
)


def replay(*event_ids: str) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    try:
        call_command("replay_webhooks", *event_ids, stdout=out, stderr=err)
    except SystemExit as exit_:
        return int(exit_.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


@pytest.fixture
def refund_before_we_knew_the_intent(fake_stripe, deposit) -> Payment:
    """A refund event that arrived before Stripe had told us which payment intent the deposit
    was (the charge names only its intent), so it failed."""
    intent = deposit.payment_intent_id
    Payment.objects.filter(pk=deposit.pk).update(payment_intent_id=None)
    deliver_event(
        "evt_early_refund",
        "charge.refunded",
        charge_object(deposit, amount_refunded=500, payment_intent=intent),
    )
    assert stored("evt_early_refund").outcome == WebhookOutcome.FAILED
    assert stored("evt_early_refund").error == f"no payment of ours has payment_intent_id {intent}"
    deposit.payment_intent_id = intent
    return deposit


def test_a_failed_event_is_applied_when_replayed_after_the_missing_id_is_known(
    fake_stripe, refund_before_we_knew_the_intent
):
    # Given the completed session has since told us the intent
    payment = refund_before_we_knew_the_intent
    deliver_event(
        "evt_completed", "checkout.session.completed", session_object(fake_stripe, payment)
    )
    assert reloaded(payment)[0].status == PaymentStatus.PAID

    # When the failed events are replayed
    code, out, _ = replay()

    # Then the refund is applied, and the command succeeds
    payment, _ = reloaded(payment)
    assert code == 0
    assert "evt_early_refund charge.refunded: processed" in out
    assert stored("evt_early_refund").outcome == WebhookOutcome.PROCESSED
    assert payment.status == PaymentStatus.PARTIALLY_REFUNDED
    assert payment.amount_refunded == Decimal("5.00")


def test_the_command_exits_1_and_says_why_while_an_event_still_fails(
    fake_stripe, refund_before_we_knew_the_intent
):
    code, out, err = replay()

    assert code == 1
    assert "evt_early_refund charge.refunded: failed" in out
    assert "1 event(s) still failing" in err
    assert reloaded(refund_before_we_knew_the_intent)[0].status == PaymentStatus.PENDING


def test_replaying_a_processed_event_by_id_moves_nothing_twice(fake_stripe, deposit):
    deliver_event(
        "evt_completed", "checkout.session.completed", session_object(fake_stripe, deposit)
    )

    code, out, _ = replay("evt_completed")

    payment, _ = reloaded(deposit)
    assert code == 0
    assert "evt_completed checkout.session.completed: processed" in out
    assert payment.status == PaymentStatus.PAID
    assert paid_events(payment) == 1


def test_with_no_failed_events_the_command_has_nothing_to_do(deposit):
    assert replay() == (0, "", "")
