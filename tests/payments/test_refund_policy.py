"""The refund policy as a table: every rule refuses with its own reason, the first failing rule
answers, and a refund that passes them all is allowed. Plain values: no database, no clock."""

import datetime as dt
from dataclasses import replace
from decimal import Decimal

import pytest

from payments.models import PaymentStatus
from payments.refund_policy import RefundRequest, RefundState, refund_refusal

VISIT_ENDS = dt.datetime(2026, 12, 2, 11, tzinfo=dt.UTC)
WINDOW_ENDS = VISIT_ENDS + dt.timedelta(days=30)
DURING_WINDOW = VISIT_ENDS + dt.timedelta(days=3)

# A paid 50.00 EUR deposit, nothing refunded, a 30-day window, no business maximum.
PAID = RefundState(
    payment_exists=True,
    status=PaymentStatus.PAID,
    paid=Decimal("50.00"),
    refunded=Decimal("0.00"),
    visit_ends_at=VISIT_ENDS,
    refund_window_days=30,
    max_refund=None,
    currency="EUR",
)
NO_PAYMENT = "There is no payment for this appointment."
NOT_POSITIVE = "A refund must be for more than zero."
NEVER_COMPLETED = "This payment was never completed, so there is nothing to refund."
FULLY_REFUNDED = "This payment has already been fully refunded."
WINDOW_PASSED = "The refund window of 30 days after the visit has passed."
PASSES = None


def row(reason, amount="50.00", now=DURING_WINDOW, **state):
    return reason, RefundRequest(Decimal(amount), now), replace(PAID, **state)


TABLE = {
    # rule: the appointment has a payment
    "no payment": row(
        NO_PAYMENT, payment_exists=False, status=None, paid=Decimal("0"), refunded=Decimal("0")
    ),
    # rule: a refund is for more than zero, in whole cents
    "amount zero": row(NOT_POSITIVE, amount="0.00"),
    "amount negative": row(NOT_POSITIVE, amount="-10.00"),
    "amount not a number": row(NOT_POSITIVE, amount="NaN"),
    "amount infinite": row(NOT_POSITIVE, amount="Infinity"),
    "amount in fractions of a cent": row(
        "A refund is given in whole cents; 10.005 is not.", amount="10.005"
    ),
    "amount with trailing zeros is whole cents": row(PASSES, amount="10.0000"),
    # rule: it was paid
    "payment pending": row(NEVER_COMPLETED, status=PaymentStatus.PENDING),
    "payment expired unpaid": row(NEVER_COMPLETED, status=PaymentStatus.EXPIRED),
    "payment failed": row(NEVER_COMPLETED, status=PaymentStatus.FAILED),
    # rule: not already fully refunded
    "already fully refunded": row(
        FULLY_REFUNDED, status=PaymentStatus.REFUNDED, refunded=Decimal("50.00")
    ),
    # rule: within the business's refund window after the visit
    "at the window's very end": row(PASSES, now=WINDOW_ENDS),
    "one second after the window": row(WINDOW_PASSED, now=WINDOW_ENDS + dt.timedelta(seconds=1)),
    "before the visit": row(PASSES, now=VISIT_ENDS - dt.timedelta(days=1)),
    "a window of 0 days ends with the visit": row(
        "The refund window of 0 days after the visit has passed.",
        now=VISIT_ENDS + dt.timedelta(seconds=1),
        refund_window_days=0,
    ),
    # rule: amount <= paid - refunded
    "more than paid": row("50.01 EUR is more than the 50.00 EUR still refundable.", "50.01"),
    "more than left after a partial refund": row(
        "30.01 EUR is more than the 30.00 EUR still refundable.",
        "30.01",
        status=PaymentStatus.PARTIALLY_REFUNDED,
        refunded=Decimal("20.00"),
    ),
    "exactly what is left": row(
        PASSES, "30.00", status=PaymentStatus.PARTIALLY_REFUNDED, refunded=Decimal("20.00")
    ),
    # rule: amount <= the business's maximum refund
    "more than the business maximum": row(
        "40.01 EUR is more than this business's maximum refund of 40.00 EUR.",
        "40.01",
        max_refund=Decimal("40.00"),
    ),
    "exactly the business maximum": row(PASSES, "40.00", max_refund=Decimal("40.00")),
    "a maximum of zero refuses every refund": row(
        "0.01 EUR is more than this business's maximum refund of 0.00 EUR.",
        "0.01",
        max_refund=Decimal("0.00"),
    ),
    # every rule passes
    "all pass, in full": row(PASSES),
    "all pass, in part": row(PASSES, "0.01"),
}


@pytest.mark.parametrize(("reason", "request_", "state"), TABLE.values(), ids=TABLE.keys())
def test_refund_policy_table(reason, request_, state):
    assert refund_refusal(request_, state) == reason


@pytest.mark.parametrize(
    ("request_", "state", "reason"),
    [
        pytest.param(
            RefundRequest(Decimal("0.00"), DURING_WINDOW),
            replace(PAID, status=PaymentStatus.REFUNDED, refunded=Decimal("50.00")),
            FULLY_REFUNDED,
            id="nothing left to refund of a refunded payment: refunded, not 'more than zero'",
        ),
        pytest.param(
            RefundRequest(Decimal("-1"), DURING_WINDOW),
            replace(PAID, status=PaymentStatus.PENDING),
            NEVER_COMPLETED,
            id="state before amount",
        ),
        pytest.param(
            RefundRequest(Decimal("99.00"), WINDOW_ENDS + dt.timedelta(days=1)),
            replace(PAID, max_refund=Decimal("10.00")),
            WINDOW_PASSED,
            id="window before amounts",
        ),
        pytest.param(
            RefundRequest(Decimal("60.00"), DURING_WINDOW),
            replace(PAID, max_refund=Decimal("10.00")),
            "60.00 EUR is more than the 50.00 EUR still refundable.",
            id="what is left before the business maximum",
        ),
    ],
)
def test_the_first_failing_rule_answers(request_, state, reason):
    assert refund_refusal(request_, state) == reason


def test_a_visit_without_an_end_has_no_window_to_pass():
    request_ = RefundRequest(Decimal("10.00"), WINDOW_ENDS + dt.timedelta(days=365))

    assert refund_refusal(request_, replace(PAID, visit_ends_at=None)) is None
