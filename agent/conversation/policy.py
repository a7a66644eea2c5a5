"""The POLICY gate inside a conversation: each command judged against the conversation's facts.

Pure: the shell reads the facts (``ConversationFacts``) from the database in the same
transaction that will execute the command, and this module decides. What only the booking core
can decide — whether a time is open right now, whether a refund is allowed under the payment's
row lock — is decided there, at execution; its refusal is recorded as a POLICY block too.

Rules worth knowing:
- A model never confirms a booking. ``confirm_booking`` passes only when the client pressed
  Confirm (``actor == "client"``), with a held slot and every required detail.
- A conversation acts only on its own appointment: cancelling, moving, paying for or refunding
  any other reference is blocked, whoever's it is, so a model cannot reach another client.
- Times in commands are ISO 8601. One without an offset is read as the business's wall time.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from agent.actions import (
    CancelAppointment,
    ChooseService,
    CollectContact,
    ConfirmBooking,
    HoldSlot,
    OfferSlots,
    Refund,
    RequestConfirmation,
    RequestPayment,
    RescheduleAppointment,
)
from agent.gates import APPROVED, GateVerdict, Stage, Structured, blocked
from bookings.availability import wall_to_instant
from bookings.models.clients import normalize_phone

# What a booking made in chat needs: a name to book under and an email the confirmation and
# reminders go to (there is no SMS channel); a phone is welcome, never required.
REQUIRED_FIELDS = ("name", "email")
NAME_MAX = 120
EMAIL_MAX = 254  # what the conversation (and the client record) can hold
CHANGEABLE = frozenset({"confirmed", "pending_payment"})
HH_MM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")


@dataclass(frozen=True)
class ConversationFacts:
    now: dt.datetime
    time_zone: str
    country: str
    horizon_days: int
    services: Mapping[str, int]  # each active service by str(id) and by lowercased name
    service_id: int | None = None  # the conversation's chosen service
    holds_slot: bool = False  # a held time (its hold may have lapsed: the core decides)
    missing: tuple[str, ...] = REQUIRED_FIELDS
    appointment: str | None = None  # the reference of the conversation's appointment
    appointment_status: str | None = None
    card: str = ""  # the fingerprint of the booking as the client was last shown it


def missing_fields(name: str, email: str) -> tuple[str, ...]:
    have = {"name": bool(name.strip()), "email": bool(email.strip())}
    return tuple(field for field in REQUIRED_FIELDS if not have[field])


def service_id_for(reference: str, facts: ConversationFacts) -> int | None:
    return facts.services.get(reference.strip().lower())


def parse_instant(text: str, time_zone: str) -> dt.datetime | None:
    """An ISO 8601 date-time; without an offset, the business's wall time on that day."""
    try:
        moment = dt.datetime.fromisoformat(text.strip())
        if moment.tzinfo is None:
            return wall_to_instant(moment.date(), moment.time(), ZoneInfo(time_zone))
        return moment.astimezone(dt.UTC)
    except (ValueError, OverflowError):  # not a date, or one at the edge of the calendar
        return None


def parse_day(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        return None


def conversation_policy(
    structured: Structured, facts: ConversationFacts, *, actor: str = "model"
) -> GateVerdict:
    """APPROVED, or the POLICY block with the rule it breaks."""
    proposal = structured.proposal
    match proposal:
        case ChooseService(service=reference):
            return _service_known(reference, facts)
        case OfferSlots():
            return _offer(proposal, facts)
        case HoldSlot():
            return _hold(proposal, facts)
        case CollectContact():
            return _contact(proposal, facts)
        case RequestConfirmation():
            return _ready_to_confirm(facts)
        case ConfirmBooking(card=card):
            if actor != "client":
                return blocked(
                    Stage.POLICY, "only the client's Confirm confirms a booking, never the model"
                )
            if (verdict := _ready_to_confirm(facts)) is not APPROVED:
                return verdict
            if card != facts.card:
                return blocked(
                    Stage.POLICY, "the booking changed since it was shown; confirm the new one"
                )
            return APPROVED
        case RequestPayment(appointment=reference):
            if (refusal := _own(reference, facts)) is not None:
                return refusal
            if facts.appointment_status != "pending_payment":
                return blocked(Stage.POLICY, f"appointment {reference} awaits no payment")
            return APPROVED
        case CancelAppointment(appointment=reference):
            if (refusal := _own(reference, facts)) is not None:
                return refusal
            if facts.appointment_status not in CHANGEABLE:
                return blocked(Stage.POLICY, f"appointment {reference} can no longer be cancelled")
            return APPROVED
        case RescheduleAppointment(appointment=reference, start=start):
            if (refusal := _own(reference, facts)) is not None:
                return refusal
            if facts.appointment_status != "confirmed":
                return blocked(Stage.POLICY, f"appointment {reference} cannot be moved")
            return _bookable_start(start, facts)
        case Refund(appointment=reference):
            # The refund policy itself is judged by the shell against the payment's state.
            return _own(reference, facts) or APPROVED
    if structured.action in ("escalate_to_human", "send_message"):
        return APPROVED
    return blocked(Stage.POLICY, f"{structured.action} is not something a conversation does")


def _service_known(reference: str, facts: ConversationFacts) -> GateVerdict:
    if service_id_for(reference, facts) is None:
        return blocked(Stage.POLICY, f"no bookable service {reference!r} at this business")
    return APPROVED


def _offer(proposal: OfferSlots, facts: ConversationFacts) -> GateVerdict:
    if (verdict := _service_known(proposal.service, facts)) is not APPROVED:
        return verdict
    for field, value in (("from_time", proposal.from_time), ("to_time", proposal.to_time)):
        if value is not None and not HH_MM.match(value):
            return blocked(Stage.POLICY, f"{field} {value!r} is not a time like 09:30")
    if proposal.day is None:
        return APPROVED
    day = parse_day(proposal.day)
    if day is None:
        return blocked(Stage.POLICY, f"day {proposal.day!r} is not a date like 2026-12-02")
    today = facts.now.astimezone(ZoneInfo(facts.time_zone)).date()
    if day < today:
        return blocked(Stage.POLICY, f"{day.isoformat()} has passed")
    if day > today + dt.timedelta(days=facts.horizon_days):
        return blocked(Stage.POLICY, f"{day.isoformat()} is beyond the booking horizon")
    return APPROVED


def _hold(proposal: HoldSlot, facts: ConversationFacts) -> GateVerdict:
    if (verdict := _service_known(proposal.service, facts)) is not APPROVED:
        return verdict
    if facts.appointment_status in CHANGEABLE:
        return blocked(Stage.POLICY, "this conversation already has a booking")
    return _bookable_start(proposal.start, facts)


def _bookable_start(start: str, facts: ConversationFacts) -> GateVerdict:
    moment = parse_instant(start, facts.time_zone)
    if moment is None:
        return blocked(Stage.POLICY, f"start {start!r} is not a date and time")
    if moment <= facts.now:
        return blocked(Stage.POLICY, f"start {start} has passed")
    if moment > facts.now + dt.timedelta(days=facts.horizon_days + 1):
        return blocked(Stage.POLICY, f"start {start} is beyond the booking horizon")
    return APPROVED


def _contact(proposal: CollectContact, facts: ConversationFacts) -> GateVerdict:
    if not (proposal.name or proposal.email or proposal.phone):
        return blocked(Stage.POLICY, "collect_contact with nothing to collect")
    if proposal.name is not None and (
        len(proposal.name) > NAME_MAX or not any(ch.isalpha() for ch in proposal.name)
    ):
        return blocked(Stage.POLICY, f"{proposal.name!r} is not a name")
    if proposal.email is not None:
        if len(proposal.email) > EMAIL_MAX:
            return blocked(Stage.POLICY, f"an email address has at most {EMAIL_MAX} characters")
        try:
            validate_email(proposal.email)
        except ValidationError:
            return blocked(Stage.POLICY, f"{proposal.email!r} is not an email address")
    if proposal.phone is not None and phone_e164(proposal.phone, facts.country) is None:
        return blocked(Stage.POLICY, f"{proposal.phone!r} is not a phone number")
    return APPROVED


def phone_e164(text: str, country: str) -> str | None:
    """E.164, or None when ``text`` is not a valid number (read in ``country`` unless +…)."""
    try:
        return normalize_phone(text, country)
    except ValidationError:
        return None


def _ready_to_confirm(facts: ConversationFacts) -> GateVerdict:
    if facts.appointment_status in CHANGEABLE:
        return blocked(Stage.POLICY, "this conversation's booking is already made")
    if not facts.holds_slot or facts.service_id is None:
        return blocked(Stage.POLICY, "no slot is held")
    if facts.missing:
        return blocked(Stage.POLICY, f"required details missing: {', '.join(facts.missing)}")
    return APPROVED


def _own(reference: str, facts: ConversationFacts) -> GateVerdict | None:
    if facts.appointment is None or reference != facts.appointment:
        return blocked(Stage.POLICY, f"appointment {reference} is not this conversation's")
    return None
