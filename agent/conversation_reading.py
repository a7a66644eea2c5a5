"""How a conversation reads in the dashboard: its stage in plain words ("Holding Tue 3 Dec
10:00 until 10:12", "With your team: the client asks about an allergy") and what the
assistant showed beside its replies (slots, the booking to confirm, where to pay) as text.

Pure: plain values in, words out, times in the business's zone. What a client or model wrote
is returned as it is; the page escapes it.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation
from typing import Any
from zoneinfo import ZoneInfo

from ordina.money import money_text

# Each stage as an owner says it (agent.conversation.states.State values).
STAGE_LABELS: dict[str, str] = {
    "greeting": "Just started",
    "service_chosen": "Choosing a service",
    "slot_offered": "Choosing a time",
    "slot_held": "Holding a time",
    "details_collected": "Waiting for the client's Confirm",
    "awaiting_payment": "Waiting for the deposit",
    "confirmed": "Booked",
    "escalated": "With your team",
    "cancelled": "Cancelled",
    "expired": "Went quiet",
}


def stage_label(state: str) -> str:
    """The stage in a few words, for a list."""
    return STAGE_LABELS.get(state, state.replace("_", " ").capitalize())


def stage_words(
    state: str,
    *,
    time_zone: str,
    service: str = "",
    held_start: dt.datetime | None = None,
    held_until: dt.datetime | None = None,
    escalation_reason: str = "",
) -> str:
    """The stage as the conversation's page heads it, with what it stands on."""
    if state == "escalated":
        reason = escalation_reason.strip().rstrip(".")
        return f"With your team: {reason}" if reason else "With your team"
    if state == "service_chosen" and service:
        return f"Choosing a time for {service}"
    if state in ("slot_held", "details_collected") and held_start and held_until:
        holding = (
            f"Holding {short_label(held_start, time_zone)} until {clock(held_until, time_zone)}"
        )
        if state == "details_collected":
            return f"{holding}, waiting for the client's Confirm"
        return holding
    return stage_label(state)


def short_label(moment: dt.datetime, time_zone: str) -> str:
    """ "Tue 3 Dec 10:00", in the business's zone."""
    local = moment.astimezone(ZoneInfo(time_zone))
    return f"{local:%a} {local.day} {local:%b} {local:%H:%M}"


def clock(moment: dt.datetime, time_zone: str) -> str:
    return f"{moment.astimezone(ZoneInfo(time_zone)):%H:%M}"


def choices_text(choices: Any, *, currency: str) -> list[str]:
    """What the widget showed beside an assistant's reply, one line per card, as the client
    read it. Unknown or malformed parts are left out, never guessed."""
    if not isinstance(choices, dict):
        return []
    lines = []
    services = [s for s in choices.get("services") or [] if isinstance(s, dict)]
    if services:
        offered = ", ".join(_service_line(s, currency) for s in services)
        lines.append(f"Services offered: {offered}")
    slots = [s.get("label") for s in choices.get("slots") or [] if isinstance(s, dict)]
    if slots := [label for label in slots if isinstance(label, str)]:
        lines.append(f"Times offered: {'; '.join(slots)}")
    if isinstance(confirm := choices.get("confirm"), dict):
        price = _money(confirm.get("price"), confirm.get("currency") or currency)
        lines.append(
            f"Booking to confirm: {confirm.get('service', '')}, {confirm.get('label', '')}"
            + (f", {price}" if price else "")
        )
    if isinstance(effect := choices.get("effect"), dict) and effect.get("label"):
        lines.append(f"Card to press ({effect.get('button', '')}): {effect['label']}")
    if isinstance(payment := choices.get("payment"), dict):
        amount = _money(payment.get("amount"), payment.get("currency") or currency)
        lines.append(f"Deposit link sent{f' for {amount}' if amount else ''}")
    if isinstance(booked := choices.get("booked"), dict):
        reference = f" ({booked['reference']})" if booked.get("reference") else ""
        lines.append(f"Booked: {booked.get('service', '')}, {booked.get('label', '')}{reference}")
    return lines


def _service_line(service: dict[str, Any], currency: str) -> str:
    price = _money(service.get("price"), currency)
    return f"{service.get('name', '')}{f' ({price})' if price else ''}"


def _money(amount: Any, currency: Any) -> str:
    if amount is None or not isinstance(currency, str) or len(currency) != 3:
        return ""
    try:
        value = Decimal(str(amount))
    except (InvalidOperation, ValueError):
        return ""
    return money_text(value, currency) if value.is_finite() else ""
