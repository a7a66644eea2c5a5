"""The cancellation and refund terms in plain words, and what cancelling does to this
appointment's deposit. Pure: plain values in, sentences out (in the active language).

The words follow what the core really does, not what a client might hope:
- a client may cancel or move an appointment until it starts (``bookings.lifecycle``);
- cancelling gives no money back by itself (``bookings.services.appointment_cancel`` does not
  touch the payment): a deposit is refunded only when the business refunds it, within its
  refund policy (``payments.refund_policy``: up to the window's days after the visit, at most
  the business's maximum, at most what is left).
How much may be refunded now is decided by that policy, outside this module, and handed in.
"""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.utils.translation import gettext, ngettext

from .wording import Deposit, day_label, money, time_label

PAID = frozenset({"paid", "partially_refunded"})
NEVER_PAID = frozenset({"expired", "failed"})


@dataclass(frozen=True)
class RefundPolicy:
    """The business's terms, read from its settings."""

    business: str
    currency: str
    window_days: int
    max_refund: Decimal | None  # None: no limit beyond what was paid
    asks_deposits: bool  # the business or this appointment's service asks for one


def refund_deadline(*, visit_ends_at: dt.datetime, window_days: int) -> dt.datetime:
    """The last moment the refund policy lets a refund of this visit's deposit go out."""
    return visit_ends_at + dt.timedelta(days=window_days)


def policy_terms(policy: RefundPolicy, deposit: Deposit | None) -> list[str]:
    """The business's terms as they apply to this appointment, one sentence each."""
    sentences = [gettext("You can cancel or move this appointment on this page until it starts.")]
    if deposit is None and not policy.asks_deposits:
        sentences.append(
            gettext("Nothing was paid in advance for it, so cancelling costs nothing.")
        )
        return sentences
    name = policy.business
    sentences.append(
        gettext(
            "Cancelling does not refund a deposit by itself: the deposit stays with "
            "%(business)s unless %(business)s refunds it."
        )
        % {"business": name}
    )
    sentences.append(_refund_rule(policy))
    return sentences


def _refund_rule(policy: RefundPolicy) -> str:
    name = policy.business
    if policy.max_refund is not None and policy.max_refund <= 0:
        return gettext("%(business)s does not refund deposits.") % {"business": name}
    if policy.window_days == 0:
        until = gettext("until the visit ends")
    else:
        until = ngettext(
            "until %(days)d day after the visit",
            "until %(days)d days after the visit",
            policy.window_days,
        ) % {"days": policy.window_days}
    if policy.max_refund is None:
        return gettext("Under its refund policy, %(business)s can refund a deposit %(until)s.") % {
            "business": name,
            "until": until,
        }
    return gettext(
        "Under its refund policy, %(business)s can refund a deposit %(until)s, at most %(max)s."
    ) % {"business": name, "until": until, "max": money(policy.max_refund, policy.currency)}


def cancel_outcome(
    policy: RefundPolicy,
    deposit: Deposit | None,
    *,
    refundable_now: Decimal,
    deadline: dt.datetime,
    time_zone: str,
) -> str:
    """What cancelling does to the money of this appointment, said before the client presses
    Cancel. ``refundable_now``: what the refund policy would let the business refund today
    (0 when nothing); ``deadline``: the end of the refund window."""
    name = policy.business
    if deposit is None or deposit.status in NEVER_PAID:
        return gettext("Nothing was paid in advance, so there is nothing to refund.")
    amount = money(deposit.amount, deposit.currency)
    if deposit.status == "pending":
        return gettext(
            "Your %(amount)s deposit has not been paid, so there is nothing to refund; "
            "do not pay it after cancelling."
        ) % {"amount": amount}
    if deposit.status not in PAID:  # refunded in full
        return gettext("Your %(amount)s deposit has already been refunded in full.") % {
            "amount": amount
        }
    kept = money(deposit.amount - deposit.refunded, deposit.currency)
    if refundable_now <= 0:
        return gettext(
            "Your deposit is not refundable: %(business)s keeps the %(kept)s when you cancel."
        ) % {"business": name, "kept": kept}
    # The window closes at a moment, not at the end of a day: a day alone would promise a
    # refund the policy refuses later that day.
    closes = deadline.astimezone(ZoneInfo(time_zone))
    return gettext(
        "Cancelling does not refund your deposit: the %(kept)s stays with %(business)s. "
        "Under its refund policy, %(business)s can refund up to %(refundable)s of it until "
        "%(time)s on %(day)s; ask %(business)s if you want it back."
    ) % {
        "kept": kept,
        "business": name,
        "refundable": money(refundable_now, deposit.currency),
        "time": time_label(closes),
        "day": day_label(closes),
    }
