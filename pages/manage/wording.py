"""How the appointment page writes the core's facts for a client: times in the business's zone
and language, statuses and payments in words, money as the language writes it ("€25.00").
Pure: plain values in, text out, in whatever language is active (the view activates the
business's); it reads no database and no clock.
"""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.utils import dateformat
from django.utils.translation import gettext, pgettext

from ordina.money import money_text

CENT = Decimal("0.01")


def money(amount: Decimal, currency: str) -> str:
    """ "€25.00" in English: the amount to the cent, as the active language writes money."""
    return money_text(amount.quantize(CENT), currency)


def day_label(day: dt.date | dt.datetime) -> str:
    """ "Wednesday 2 December 2026", in the active language ("miércoles, 2 de diciembre de
    2026"): the order and the little words are the language's, so the format is translated."""
    return dateformat.format(
        day, pgettext("date format of a day on a page (Django date filter)", "l j F Y")
    )


def time_label(moment: dt.datetime) -> str:
    return dateformat.format(moment, "H:i")


def when_label(starts_at: dt.datetime, ends_at: dt.datetime, time_zone: str) -> str:
    """ "Wednesday 2 December 2026, 10:00–11:00 (Europe/Lisbon)": the visit's wall times in the
    business's zone, named so a client elsewhere is not misled. A visit that runs past
    midnight names both days."""
    zone = ZoneInfo(time_zone)
    start, end = starts_at.astimezone(zone), ends_at.astimezone(zone)
    if start.date() == end.date():
        return gettext("%(day)s, %(start)s–%(end)s (%(zone)s)") % {
            "day": day_label(start),
            "start": time_label(start),
            "end": time_label(end),
            "zone": time_zone,
        }
    return gettext("%(start_day)s, %(start)s – %(end_day)s, %(end)s (%(zone)s)") % {
        "start_day": day_label(start),
        "start": time_label(start),
        "end_day": day_label(end),
        "end": time_label(end),
        "zone": time_zone,
    }


def status_words(status: str) -> str:
    """The appointment's status as the client reads it. An unknown status is shown as it is
    rather than dressed up as a known one."""
    words = {
        "pending_payment": pgettext("appointment status", "Awaiting deposit"),
        "confirmed": pgettext("appointment status", "Confirmed"),
        "cancelled": pgettext("appointment status", "Cancelled"),
        "expired": pgettext("appointment status", "Released: the deposit was not paid in time"),
        "attended": pgettext("appointment status", "Attended"),
        "no_show": pgettext("appointment status", "Missed (no-show)"),
    }
    return words.get(status, status)


@dataclass(frozen=True)
class Deposit:
    """The appointment's deposit as payments recorded it."""

    amount: Decimal
    currency: str
    status: str  # payments.models.PaymentStatus
    refunded: Decimal
    expires_at: dt.datetime  # unpaid by then, the appointment is released


def payment_words(deposit: Deposit | None, *, time_zone: str) -> str:
    """The payment in one sentence: none asked, paid, refunded, pending (and until when)."""
    if deposit is None:
        return gettext("No deposit: nothing was paid in advance.")
    amount = money(deposit.amount, deposit.currency)
    match deposit.status:
        case "pending":
            due = deposit.expires_at.astimezone(ZoneInfo(time_zone))
            return gettext("Deposit of %(amount)s not paid yet: due by %(time)s on %(day)s.") % {
                "amount": amount,
                "time": time_label(due),
                "day": day_label(due),
            }
        case "paid":
            return gettext("Deposit of %(amount)s paid.") % {"amount": amount}
        case "partially_refunded":
            return gettext("Deposit of %(amount)s paid; %(refunded)s of it refunded.") % {
                "amount": amount,
                "refunded": money(deposit.refunded, deposit.currency),
            }
        case "refunded":
            return gettext("Deposit of %(amount)s paid and refunded in full.") % {"amount": amount}
        case "expired":
            return gettext("Deposit of %(amount)s not paid in time.") % {"amount": amount}
        case "failed":
            return gettext("The payment of the %(amount)s deposit failed.") % {"amount": amount}
    return gettext("Deposit of %(amount)s.") % {"amount": amount}


def why_unchangeable(status: str) -> str:
    """Why the page offers no cancel or move, in the client's words: the core's own reasons
    (``bookings.lifecycle.change_refusal``) — cancelled, past changing, or begun."""
    match status:
        case "cancelled":
            return gettext("This appointment is cancelled.")
        case "attended":
            return gettext(
                "This appointment has taken place, so it can no longer be moved or cancelled."
            )
        case "no_show":
            return gettext(
                "This appointment was missed, so it can no longer be moved or cancelled."
            )
        case "pending_payment" | "confirmed":
            return gettext(
                "This appointment has started, so it can no longer be moved or cancelled."
            )
        case "expired":
            return gettext(
                "This appointment was released because its deposit was not paid in time."
            )
    return gettext("This appointment can no longer be moved or cancelled.")


def slot_labels(starts: list[dt.datetime], time_zone: str) -> list[str]:
    """Each start's wall time ("10:00"). On the night the clocks go back an hour is lived
    twice: a time that would read the same as another also names its UTC offset."""
    zone = ZoneInfo(time_zone)
    plain = [time_label(start.astimezone(zone)) for start in starts]
    return [
        label
        if plain.count(label) == 1
        else f"{label} (UTC{start.astimezone(zone).isoformat()[-6:]})"
        for label, start in zip(plain, starts, strict=True)
    ]
