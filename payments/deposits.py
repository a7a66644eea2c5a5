"""How much deposit a booking asks for, decided on plain values."""

from decimal import ROUND_HALF_UP, Decimal

from bookings.choices import DepositRule

CENT = Decimal("0.01")


def deposit_due(
    *,
    price: Decimal,
    rule: str,
    fixed_amount: Decimal | None,
    percent: int | None,
    service_override: Decimal | None,
) -> Decimal:
    """The deposit for an appointment at ``price``: the service's own deposit when it has one
    (0 means none), else the business's rule; never more than the price."""
    if service_override is not None:
        due = service_override
    elif rule == DepositRule.FIXED and fixed_amount is not None:
        due = fixed_amount
    elif rule == DepositRule.PERCENT and percent is not None:
        due = (price * percent / 100).quantize(CENT, rounding=ROUND_HALF_UP)
    else:
        due = Decimal("0")
    return min(max(due, Decimal("0")), price)


def to_minor_units(amount: Decimal) -> int:
    """Stripe's integer amount for a two-decimal currency (see docs/decisions/0002)."""
    return int((amount * 100).quantize(Decimal("1"), rounding=ROUND_HALF_UP))


def from_minor_units(minor: int) -> Decimal:
    return (Decimal(minor) / 100).quantize(CENT)
