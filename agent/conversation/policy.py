"""The POLICY gate inside a conversation: each command judged against the conversation's facts.

Pure: the shell reads the facts (``ConversationFacts``) from the database in the same
transaction that will execute the command, and this module decides. What only the booking core
can decide — whether a time is open right now, whether a refund is allowed under the payment's
row lock — is decided there, at execution; its refusal is recorded as a POLICY block too.

Rules worth knowing:
- A model never confirms a booking. ``confirm_booking`` passes only when the client pressed
  Confirm (``actor == "client"``), with a held slot and every required detail.
- A model alone never cancels, moves or refunds. Proposed by the model, each passes only when
  the client asked for that in this conversation (``asked``, read from the client's own words),
  and even then it only prepares a card naming exactly what will happen; the effect runs when
  the client presses its button (``actor == "client"`` with that card).
- Contact details are stored only if the client typed them: a name, email or phone that is in
  none of the client's messages (compared after normalising case, accents, spaces and phone
  punctuation) is refused, so a model cannot invent or plant them.
- A conversation acts only on its own appointment: cancelling, moving, paying for or refunding
  any other reference is blocked, whoever's it is, so a model cannot reach another client. Its
  own is the one it booked, or — once the client proved who they are with a one-time code
  (agent.verification) — the one of that client's appointments here it chose
  (``choose_appointment``, judged against that client's references only).
- A price offer (``offer_price``) is answered only for the conversation's chosen service, when
  its terms negotiate and it is not booked yet, and only for money of the business's currency
  (``bookings.negotiation.offer_amount``: another currency is refused, never converted).
- Times in commands are ISO 8601. One without an offset is read as the business's wall time.
- Every refusal carries plain words for the client (``said``), with days and times in the
  business's zone; ``reason`` is for the audit log.

Languages: ``reason`` is always English — the audit log is the owner's, read in the dashboard,
and must not change with the language a client happened to write in (nor break what reads it).
``said`` is written in the active language, which a turn sets to the conversation's (the
English is the catalogue's message id), so the same rule reads "No time is being held for you
yet" to one client and "Todavía no le estoy guardando ninguna hora" to another. Pure but for
that active language, as ``agent.conversation.wording`` is.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from zoneinfo import ZoneInfo

import phonenumbers
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext, pgettext

from agent.actions import (
    CancelAppointment,
    ChooseAppointment,
    ChooseService,
    CollectContact,
    ConfirmBooking,
    HoldSlot,
    OfferPrice,
    OfferSlots,
    Refund,
    RequestConfirmation,
    RequestPayment,
    RescheduleAppointment,
)
from agent.conversation.wording import day_label, local_label, spoken_list
from agent.gates import APPROVED, GateVerdict, Stage, Structured, blocked
from agent.message_ids import gettext_noop
from bookings.availability import wall_to_instant
from bookings.negotiation import OfferRefused, offer_amount
from bookings.phones import normalize_phone

# What a booking made in chat needs: a name to book under and an email the confirmation and
# reminders go to (there is no SMS channel); a phone is welcome, never required.
REQUIRED_FIELDS = ("name", "email")
NAME_MAX = 120
EMAIL_MAX = 254  # what the conversation (and the client record) can hold
CHANGEABLE = frozenset({"confirmed", "pending_payment"})
HH_MM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
# The effects on an existing appointment or on money, and the client's request each needs.
EFFECT_REQUESTS = {
    "cancel_appointment": "cancel",
    "reschedule_appointment": "move",
    "refund": "refund",
}


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
    # What the client asked for in this conversation, in their own words: cancel, move, refund.
    asked: frozenset[str] = frozenset()
    effect_card: str = ""  # the fingerprint of the effect card waiting for the client's press
    client_said: str = ""  # the client's recent messages (contact details must be among them)
    currency: str = ""  # the business's (ISO 4217): offers are money of it
    negotiable: bool = False  # the chosen service's terms answer price offers
    # The appointment the conversation acts on when it is not its own booking: one of the
    # verified client's (agent.verification), chosen in chat; with its status.
    subject: str | None = None
    subject_status: str | None = None
    verified: bool = False  # the client proved who they are with a one-time code
    client_appointments: frozenset[str] = frozenset()  # the verified client's, here

    @property
    def acted_on(self) -> str | None:
        """The reference a cancel, move, refund or payment may name."""
        return self.subject or self.appointment

    @property
    def acted_on_status(self) -> str | None:
        return self.subject_status if self.subject else self.appointment_status


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
                    Stage.POLICY,
                    "only the client's Confirm confirms a booking, never the model",
                    gettext("Nothing is booked until you press Confirm on the booking shown."),
                )
            if (verdict := _ready_to_confirm(facts)) is not APPROVED:
                return verdict
            if card != facts.card:
                return blocked(
                    Stage.POLICY,
                    "the booking changed since it was shown; confirm the new one",
                    gettext(
                        "The booking changed since it was shown: please check it and confirm "
                        "the new one."
                    ),
                )
            return APPROVED
        case RequestPayment(appointment=reference):
            if (refusal := _own(reference, facts)) is not None:
                return refusal
            if facts.acted_on_status != "pending_payment":
                return blocked(
                    Stage.POLICY,
                    f"appointment {reference} awaits no payment",
                    gettext("Your booking has no deposit to pay."),
                )
            return APPROVED
        case CancelAppointment(appointment=reference):
            if refusal := _own(reference, facts) or _effect_allowed(structured, facts, actor):
                return refusal
            if facts.acted_on_status not in CHANGEABLE:
                return blocked(
                    Stage.POLICY,
                    f"appointment {reference} can no longer be cancelled",
                    gettext("Your appointment can no longer be cancelled here."),
                )
            return APPROVED
        case RescheduleAppointment(appointment=reference, start=start):
            if refusal := _own(reference, facts) or _effect_allowed(structured, facts, actor):
                return refusal
            if facts.acted_on_status != "confirmed":
                return blocked(
                    Stage.POLICY,
                    f"appointment {reference} cannot be moved",
                    gettext("Your appointment can't be moved here."),
                )
            return _bookable_start(start, facts)
        case Refund(appointment=reference):
            # The refund policy itself is judged by the shell against the payment's state.
            return _own(reference, facts) or _effect_allowed(structured, facts, actor) or APPROVED
        case OfferPrice():
            return _price_offer(proposal, facts)
        case ChooseAppointment(appointment=reference):
            return _choosable(reference, facts)
    # None of these changes a booking or moves money.
    if structured.action in ("escalate_to_human", "offer_person", "send_message"):
        return APPROVED
    return blocked(
        Stage.POLICY,
        f"{structured.action} is not something a conversation does",
        gettext("I can't do that here."),
    )


def _effect_allowed(
    structured: Structured, facts: ConversationFacts, actor: str
) -> GateVerdict | None:
    """A cancel, move or refund: proposed by the model, only after the client asked for it in
    this conversation (it then prepares the card); run by the client, only from that card."""
    if actor == "client":
        # The client pressed the button of the card this effect was shown on.
        return None
    wanted = EFFECT_REQUESTS[structured.action]
    if wanted not in facts.asked:
        return blocked(
            Stage.POLICY,
            f"the client has not asked for this ({wanted}) in this conversation",
            _only_if_asked(wanted),
        )
    return None


def _only_if_asked(wanted: str) -> str:
    """What the client is told of an effect the model proposed before they asked for it."""
    told = {
        "cancel": gettext(
            "I'll only do that if you ask me to — just say if you'd like to cancel it."
        ),
        "move": gettext("I'll only do that if you ask me to — just say if you'd like to move it."),
        "refund": gettext("I'll only do that if you ask me to — just say if you'd like a refund."),
    }
    return told[wanted]


def _detail(field: str) -> str:
    """A contact detail as the client is asked for it ("your email address")."""
    names = {
        "name": pgettext("a contact detail the client is asked for", "name"),
        "email": pgettext("a contact detail the client is asked for", "email address"),
        "phone": pgettext("a contact detail the client is asked for", "phone"),
    }
    return names[field]


def _price_offer(proposal: OfferPrice, facts: ConversationFacts) -> GateVerdict:
    if facts.appointment_status in CHANGEABLE:
        return blocked(
            Stage.POLICY,
            "this conversation's booking is already made at its price",
            gettext("Your booking is already made, at the price shown when you confirmed it."),
        )
    if facts.service_id is None:
        return blocked(
            Stage.POLICY,
            "an offer with no service chosen",
            gettext("Which service is your offer for? Tell me, and I'll answer it."),
        )
    if not facts.negotiable:
        return blocked(
            Stage.POLICY,
            "the chosen service's terms do not negotiate",
            gettext("I'm afraid the price of this service isn't negotiable."),
        )
    try:
        offer_amount(proposal.amount, currency=proposal.currency, business_currency=facts.currency)
    except OfferRefused as refusal:
        told = _offer_refusal_told(refusal.reason, facts.currency)
        return blocked(Stage.POLICY, f"offer refused: {refusal.reason}", told)
    return APPROVED


# The booking core's refusals of an offer (bookings.negotiation), in its English: marked here so
# the client reads them in their language. One the catalogue does not know is told as it is.
OFFER_IN_ANOTHER_CURRENCY = gettext_noop("Prices here are in %(currency)s; offer an amount in it.")
OFFER_REFUSALS = (
    gettext_noop("An offer is an amount of money, such as 45 or 45.50."),
    gettext_noop("That amount is not a price anyone could pay for a visit."),
    gettext_noop("An offer must be more than 0."),
    gettext_noop("An offer is in whole cents, such as 45.50."),
)


def _offer_refusal_told(reason: str, currency: str) -> str:
    if reason == OFFER_IN_ANOTHER_CURRENCY % {"currency": currency}:
        return gettext(OFFER_IN_ANOTHER_CURRENCY) % {"currency": currency}
    return gettext(reason) if reason in OFFER_REFUSALS else reason


def _service_known(reference: str, facts: ConversationFacts) -> GateVerdict:
    if service_id_for(reference, facts) is None:
        return blocked(
            Stage.POLICY,
            f"no bookable service {reference!r} at this business",
            gettext("We don't offer that service."),
        )
    return APPROVED


def _offer(proposal: OfferSlots, facts: ConversationFacts) -> GateVerdict:
    if (verdict := _service_known(proposal.service, facts)) is not APPROVED:
        return verdict
    for field, value in (("from_time", proposal.from_time), ("to_time", proposal.to_time)):
        if value is not None and not HH_MM.match(value):
            return blocked(
                Stage.POLICY,
                f"{field} {value!r} is not a time like 09:30",
                gettext("I couldn't read that time of day."),
            )
    if proposal.day is None:
        return APPROVED
    day = parse_day(proposal.day)
    if day is None:
        return blocked(
            Stage.POLICY,
            f"day {proposal.day!r} is not a date like 2026-12-02",
            gettext("I couldn't read that date."),
        )
    today = facts.now.astimezone(ZoneInfo(facts.time_zone)).date()
    if day < today:
        return blocked(
            Stage.POLICY,
            f"{day.isoformat()} has passed",
            gettext("%(day)s has already passed.") % {"day": day_label(day)},
        )
    last = today + dt.timedelta(days=facts.horizon_days)
    if day > last:
        return blocked(
            Stage.POLICY, f"{day.isoformat()} is beyond the booking horizon", _too_far(last)
        )
    return APPROVED


def _too_far(last: dt.date) -> str:
    return gettext("We take bookings up to %(day)s, so that day is too far ahead.") % {
        "day": day_label(last)
    }


def _hold(proposal: HoldSlot, facts: ConversationFacts) -> GateVerdict:
    if (verdict := _service_known(proposal.service, facts)) is not APPROVED:
        return verdict
    if facts.appointment_status in CHANGEABLE:
        return blocked(
            Stage.POLICY,
            "this conversation already has a booking",
            gettext("You already have a booking in this chat."),
        )
    return _bookable_start(proposal.start, facts)


def _bookable_start(start: str, facts: ConversationFacts) -> GateVerdict:
    moment = parse_instant(start, facts.time_zone)
    if moment is None:
        return blocked(
            Stage.POLICY,
            f"start {start!r} is not a date and time",
            gettext("I couldn't read that date and time."),
        )
    if moment <= facts.now:
        return blocked(
            Stage.POLICY,
            f"start {start} has passed",
            gettext("%(when)s has already passed.")
            % {"when": local_label(moment, facts.time_zone)},
        )
    zone = ZoneInfo(facts.time_zone)
    last = facts.now.astimezone(zone).date() + dt.timedelta(days=facts.horizon_days)
    if moment > facts.now + dt.timedelta(days=facts.horizon_days + 1):
        return blocked(Stage.POLICY, f"start {start} is beyond the booking horizon", _too_far(last))
    return APPROVED


def _contact(proposal: CollectContact, facts: ConversationFacts) -> GateVerdict:
    if not (proposal.name or proposal.email or proposal.phone):
        return blocked(Stage.POLICY, "collect_contact with nothing to collect")
    if proposal.name is not None and (
        len(proposal.name) > NAME_MAX or not any(ch.isalpha() for ch in proposal.name)
    ):
        return blocked(
            Stage.POLICY,
            f"{proposal.name!r} is not a name",
            gettext("That doesn't look like a name — could you write the name to book under?"),
        )
    if proposal.email is not None and (refusal := _email_refusal(proposal.email)):
        return refusal
    if proposal.phone is not None and (refusal := _phone_refusal(proposal.phone, facts.country)):
        return refusal
    for field, value in (
        ("name", proposal.name),
        ("email", proposal.email),
        ("phone", proposal.phone),
    ):
        if value is not None and not typed_by_client(field, value, facts.client_said):
            return blocked(
                Stage.POLICY,
                f"the client did not write this {field}",
                gettext(
                    "I can only use contact details you type yourself — could you write your "
                    "%(detail)s here?"
                )
                % {"detail": _detail(field)},
            )
    return APPROVED


def _email_refusal(email: str) -> GateVerdict | None:
    if len(email) > EMAIL_MAX:
        return blocked(
            Stage.POLICY,
            f"an email address has at most {EMAIL_MAX} characters",
            gettext("That email address is too long to use."),
        )
    try:
        validate_email(email)
    except ValidationError:
        return blocked(
            Stage.POLICY,
            f"{email!r} is not an email address",
            f"{email_problem(email)} " + gettext("An email address looks like name@example.com."),
        )
    return None


def email_problem(text: str) -> str:
    """What is wrong with an email address that does not validate, in plain words."""
    if "@" not in text:
        return gettext("That email address has no @.")
    local, _, domain = text.rpartition("@")
    if not local:
        return gettext("That email address has nothing before the @.")
    if "." not in domain:
        return gettext("That email address looks incomplete: it needs a domain like example.com.")
    return gettext("That email address doesn't look right.")


def _phone_refusal(phone: str, country: str) -> GateVerdict | None:
    if phone_e164(phone, country) is not None:
        return None
    return blocked(
        Stage.POLICY,
        f"{phone!r} is not a phone number",
        f"{phone_problem(phone, country)} "
        + gettext("Please write it with its area code, or with + and the country code."),
    )


def phone_problem(text: str, country: str) -> str:
    """What is wrong with a phone number that does not parse, in plain words."""
    try:
        number = phonenumbers.parse(text, country)
    except phonenumbers.NumberParseException:
        return gettext("That doesn't look like a phone number.")
    reason = phonenumbers.is_possible_number_with_reason(number)
    if reason == phonenumbers.ValidationResult.TOO_SHORT:
        return gettext("That phone number is too short.")
    if reason == phonenumbers.ValidationResult.TOO_LONG:
        return gettext("That phone number is too long.")
    return gettext("That phone number doesn't look right.")


def typed_by_client(field: str, value: str, said: str) -> bool:
    """Whether the client wrote ``value`` (a name, email or phone) in ``said``."""
    if field == "phone":
        digits = re.sub(r"\D", "", value).lstrip("0")
        return len(digits) >= 4 and _national_digits(digits, said)
    if field == "email":
        return value.strip().lower() in said.lower()
    # Whole words: "Ana" is not typed by a client who wrote "banana".
    return f" {_plain(value)} " in f" {_plain(said)} "


def _national_digits(digits: str, said: str) -> bool:
    """The number's digits appear in what the client wrote, ignoring spaces, dashes, dots,
    brackets, a leading + or 00, and the country code the model may have added."""
    written = re.sub(r"\D", "", said)
    return any(digits[cut:] in written for cut in range(0, 4) if len(digits) - cut >= 6)


def _plain(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    letters = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(re.sub(r"[^\w@.+-]", " ", letters).split())


def phone_e164(text: str, country: str) -> str | None:
    """E.164, or None when ``text`` is not a valid number (read in ``country`` unless +…)."""
    try:
        return normalize_phone(text, country)
    except ValidationError:
        return None


def _ready_to_confirm(facts: ConversationFacts) -> GateVerdict:
    if facts.appointment_status in CHANGEABLE:
        return blocked(
            Stage.POLICY,
            "this conversation's booking is already made",
            gettext("Your booking is already made."),
        )
    if not facts.holds_slot or facts.service_id is None:
        return blocked(
            Stage.POLICY,
            "no slot is held",
            gettext("No time is being held for you yet: choose a time first."),
        )
    if facts.missing:
        details = spoken_list([_detail(field) for field in facts.missing])
        return blocked(
            Stage.POLICY,
            f"required details missing: {', '.join(facts.missing)}",
            gettext("Before I can book it, I still need your %(details)s.") % {"details": details},
        )
    return APPROVED


def _choosable(reference: str, facts: ConversationFacts) -> GateVerdict:
    if not facts.verified:
        return blocked(
            Stage.POLICY,
            "the client has not proved who they are: no appointment of theirs can be chosen",
            gettext(
                "To look at a booking you made before, first confirm your email address with the "
                "code I can send you."
            ),
        )
    if reference not in facts.client_appointments:
        return blocked(
            Stage.POLICY,
            f"appointment {reference} is not one of the verified client's here",
            gettext("That isn't one of your bookings here."),
        )
    return APPROVED


def _own(reference: str, facts: ConversationFacts) -> GateVerdict | None:
    if facts.acted_on is None or reference != facts.acted_on:
        return blocked(
            Stage.POLICY,
            f"appointment {reference} is not this conversation's",
            gettext("I can only help here with the booking made in this chat."),
        )
    return None
