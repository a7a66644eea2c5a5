"""Whether a refund may go out, decided on plain values against the current state. Each rule
refuses with its own reason; the first failing rule answers. Used by the owners' dashboard and
by the assistant's gated ``refund`` action alike.

A refusal is a ``RefundRefusal``: the rule's sentence (English, the catalogue's message id)
and its figures. ``refund_refusal`` gives it in English — what the audit log, the owners'
dashboard and the admin keep, whatever language a client wrote in —, and the assistant tells
the client ``RefundRefusal.told()``, the same sentence in the active language (a chat's turn
sets it to the conversation's). The rules themselves never depend on a language.
"""

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from babel.numbers import get_decimal_symbol
from django.utils.translation import gettext, gettext_noop

from ordina.locales import babel_locale
from payments.choices import PaymentStatus

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


@dataclass(frozen=True)
class RefundRefusal:
    """The rule a refund breaks: its sentence, with ``%(name)s`` for each of its figures."""

    message: str  # English: the audit's words, and the catalogue's message id
    figures: Mapping[str, object] = field(default_factory=dict)

    def in_english(self) -> str:
        """The audit's words: the same whatever language is active."""
        return self.message % {name: str(value) for name, value in self.figures.items()}

    def told(self) -> str:
        """The client's words: the sentence and its amounts in the active language."""
        return gettext(self.message) % {
            name: _written(value) for name, value in self.figures.items()
        }


def refund_refusal(request: RefundRequest, state: RefundState) -> str | None:
    """Why this refund may not go out, in English, or None when every rule passes."""
    refusal = refund_rule_broken(request, state)
    return refusal.in_english() if refusal else None


def refund_rule_broken(request: RefundRequest, state: RefundState) -> RefundRefusal | None:
    """The first rule this refund breaks, or None when every rule passes."""
    # The payment's state first: a request against a refunded payment is refused for that,
    # whatever amount it names ("refund what is left" of it asks for zero).
    if not state.payment_exists:
        return RefundRefusal(gettext_noop("There is no payment for this appointment."))
    if state.status not in REFUNDABLE:
        if state.status == PaymentStatus.REFUNDED:
            return RefundRefusal(gettext_noop("This payment has already been fully refunded."))
        return RefundRefusal(
            gettext_noop("This payment was never completed, so there is nothing to refund.")
        )
    amount = request.amount
    if not amount.is_finite() or amount <= 0:
        return RefundRefusal(gettext_noop("A refund must be for more than zero."))
    if _decimal_places(amount) > 2:
        return RefundRefusal(
            gettext_noop("A refund is given in whole cents; %(amount)s is not."),
            {"amount": amount},
        )
    if state.visit_ends_at is not None and request.now > state.visit_ends_at + dt.timedelta(
        days=state.refund_window_days
    ):
        return RefundRefusal(
            gettext_noop("The refund window of %(days)s days after the visit has passed."),
            {"days": state.refund_window_days},
        )
    left = state.paid - state.refunded
    if amount > left:
        return RefundRefusal(
            gettext_noop(
                "%(amount)s %(currency)s is more than the %(left)s %(currency)s still refundable."
            ),
            {"amount": amount, "left": left, "currency": state.currency},
        )
    if state.max_refund is not None and amount > state.max_refund:
        return RefundRefusal(
            gettext_noop(
                "%(amount)s %(currency)s is more than this business's maximum refund of "
                "%(maximum)s %(currency)s."
            ),
            {"amount": amount, "maximum": state.max_refund, "currency": state.currency},
        )
    return None


def _decimal_places(amount: Decimal) -> int:
    # From the digits, not by rounding: quantizing a huge amount would overflow the context.
    exponent = amount.normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def _written(value: object) -> str:
    """A figure as the active language writes it: an amount with its decimal comma in Spanish
    ("40,01"), every digit as given (a refusal of "12.345" must show what was asked)."""
    if not isinstance(value, Decimal):
        return str(value)
    return str(value).replace(".", get_decimal_symbol(babel_locale()))
