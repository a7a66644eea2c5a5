"""Whether a refund may go out, decided on plain values against the current state. Each rule
refuses with its own reason; the first failing rule answers. Used by the owners' dashboard and
by the assistant's gated ``refund`` action alike."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from payments.models import PaymentStatus

REFUNDABLE = frozenset({PaymentStatus.PAID, PaymentStatus.PARTIALLY_REFUNDED})


@dataclass(frozen=True)
class RefundRequest:
    amount: Decimal
    now: dt.datetime


@dataclass(frozen=True)
class RefundState:
    """What the policy needs to know, read fresh from the database."""

    payment_exists: bool
    status: str | None
    paid: Decimal
    refunded: Decimal
    visit_ends_at: dt.datetime | None
    refund_window_days: int
    max_refund: Decimal | None
    currency: str


def refund_refusal(request: RefundRequest, state: RefundState) -> str | None:
    """Why this refund may not go out, or None when every rule passes."""
    if not state.payment_exists:
        return "There is no payment for this appointment."
    if request.amount <= 0:
        return "A refund must be for more than zero."
    if state.status not in REFUNDABLE:
        if state.status == PaymentStatus.REFUNDED:
            return "This payment has already been fully refunded."
        return "This payment was never completed, so there is nothing to refund."
    if state.visit_ends_at is not None and request.now > state.visit_ends_at + dt.timedelta(
        days=state.refund_window_days
    ):
        return f"The refund window of {state.refund_window_days} days after the visit has passed."
    left = state.paid - state.refunded
    if request.amount > left:
        return (
            f"{request.amount} {state.currency} is more than the {left} {state.currency} "
            "still refundable."
        )
    if state.max_refund is not None and request.amount > state.max_refund:
        return (
            f"{request.amount} {state.currency} is more than this business's maximum refund of "
            f"{state.max_refund} {state.currency}."
        )
    return None
