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
    # The payment's state first: a request against a refunded payment is refused for that,
    # whatever amount it names ("refund what is left" of it asks for zero).
    if not state.payment_exists:
        return "There is no payment for this appointment."
    if state.status not in REFUNDABLE:
        if state.status == PaymentStatus.REFUNDED:
            return "This payment has already been fully refunded."
        return "This payment was never completed, so there is nothing to refund."
    if not request.amount.is_finite() or request.amount <= 0:
        return "A refund must be for more than zero."
    if _decimal_places(request.amount) > 2:
        return f"A refund is given in whole cents; {request.amount} is not."
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


def _decimal_places(amount: Decimal) -> int:
    # From the digits, not by rounding: quantizing a huge amount would overflow the context.
    exponent = amount.normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0
