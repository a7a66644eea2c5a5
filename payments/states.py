"""A payment's status, decided from facts that only grow. Applying facts is a join (paid
stays paid, refunded amounts take the maximum cumulative figure), so the same deliveries in
any order, duplicates included, end in the same state, and "paid" never overwrites
"refunded"."""

import datetime as dt
from dataclasses import dataclass, replace
from decimal import Decimal

from payments.choices import PaymentStatus


@dataclass(frozen=True)
class PaymentFacts:
    amount: Decimal
    paid_at: dt.datetime | None = None
    amount_refunded: Decimal = Decimal("0")
    expired_at: dt.datetime | None = None
    failed_at: dt.datetime | None = None

    def joined(
        self,
        *,
        paid_at: dt.datetime | None = None,
        amount_refunded: Decimal | None = None,
        expired_at: dt.datetime | None = None,
        failed_at: dt.datetime | None = None,
    ) -> "PaymentFacts":
        """These facts with new ones added; nothing already known is taken back. (A refund
        event also reports the payment as paid, so a refund that arrives first is complete.)"""
        refunded = max(self.amount_refunded, min(amount_refunded or Decimal("0"), self.amount))
        return replace(
            self,
            paid_at=_earliest(self.paid_at, paid_at),
            amount_refunded=refunded,
            expired_at=_earliest(self.expired_at, expired_at),
            failed_at=_earliest(self.failed_at, failed_at),
        )


def _earliest(*moments: dt.datetime | None) -> dt.datetime | None:
    known = [moment for moment in moments if moment is not None]
    return min(known) if known else None


def status_of(facts: PaymentFacts) -> PaymentStatus:
    if facts.amount_refunded >= facts.amount > 0:
        return PaymentStatus.REFUNDED
    if facts.amount_refunded > 0:
        return PaymentStatus.PARTIALLY_REFUNDED
    if facts.paid_at is not None:
        return PaymentStatus.PAID
    if facts.failed_at is not None:
        return PaymentStatus.FAILED
    if facts.expired_at is not None:
        return PaymentStatus.EXPIRED
    return PaymentStatus.PENDING
