"""The audit log in plain words: one sentence per entry, as an owner reads it ("The assistant
tried to refund €150.00 — refused: only €12.00 is still refundable").

Pure: it reads an entry's recorded facts (the proposal as the model made it, the result, the
gate that blocked and its reason, the money moved) and the business's currency and zone, and
touches no database. The gate's name and its reason in the system's own terms stay on the
entry for operators; the sentence never shows them. A reason only operators can act on (a
malformed command, a command the business never granted) is summed up, never quoted.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from ordina.money import money_text

EXECUTE = "EXECUTE"


class Recorded(Protocol):
    """What an audit entry recorded (an ``AuditEntry`` row has these)."""

    @property
    def action(self) -> str: ...
    @property
    def proposal(self) -> Any: ...
    @property
    def result(self) -> str: ...
    @property
    def stage(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def money_moved(self) -> Decimal: ...


@dataclass(frozen=True)
class Wording:
    """How to write one entry's facts: money in ``currency``, times in ``time_zone``, a
    service by its name (``service_names``: a reference as the model may write it, lowercased
    — the service's id or name — to the name)."""

    currency: str
    time_zone: str
    service_names: Mapping[str, str]

    def money(self, amount: Any) -> str:
        value = _decimal(amount)
        return money_text(value, self.currency) if value is not None else "an unreadable amount"

    def money_of(self, amount: str, currency: str) -> str:
        """An amount a reason wrote as "12.00 EUR", as the business writes money."""
        value = _decimal(amount)
        return money_text(value, currency) if value is not None else f"{amount} {currency}"

    def when(self, text: Any) -> str:
        moment = _instant(text, self.time_zone)
        return _short_label(moment, self.time_zone) if moment else "an unreadable time"

    def service(self, reference: Any) -> str:
        if not isinstance(reference, str) or not reference.strip():
            return "a service"
        return self.service_names.get(reference.strip().lower(), reference.strip())


def audit_sentence(entry: Recorded, wording: Wording) -> str:
    """The entry as one sentence, ending without a full stop (the page lists them)."""
    fields = entry.proposal if isinstance(entry.proposal, dict) else {}
    phrases = PHRASES.get(entry.action)
    if phrases is None:
        # Free text, or a command the menu does not know: only STRUCTURE ever records these.
        what = "wrote text instead of a command" if not entry.action else "proposed an unknown"
        if entry.action:
            what += " command"
        return f"The assistant {what} — refused: {_why(entry, wording)}"
    if entry.action == "confirm_booking":
        return _confirm_sentence(entry, wording)
    if entry.result == EXECUTE:
        return phrases.done(fields, entry, wording)
    return f"The assistant tried to {phrases.tried(fields, wording)} — {_refused(entry, wording)}"


def _refused(entry: Recorded, wording: Wording) -> str:
    # Executed by no gate's fault: the outside system (Stripe) did not answer.
    if not entry.stage:
        return "not done: the payment provider could not be reached"
    return f"refused: {_why(entry, wording)}"


def _why(entry: Recorded, wording: Wording) -> str:
    if entry.stage == "STRUCTURE":
        if entry.reason.startswith("more than"):
            return "too many commands in one turn"
        if not entry.action:
            return "only commands are carried out"
        return "it was not a well-formed command"
    if entry.stage == "CAPABILITY":
        return "the business has not allowed the assistant to do that"
    return plain_reason(entry.reason, wording)


def _confirm_sentence(entry: Recorded, wording: Wording) -> str:
    """Only the client's press of Confirm books (the model's own confirm is always refused)."""
    if entry.result == EXECUTE:
        return "The client confirmed the booking"
    if "never the model" in entry.reason:
        return (
            "The assistant tried to confirm the booking itself — refused: only the client's "
            "Confirm books"
        )
    return f"The client's Confirm was {_refused(entry, wording)}"


# --- the reasons POLICY records, in plain words -------------------------------------------------

ISO_MOMENT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?")
ISO_DAY = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
AMOUNT = re.compile(r"(\d+(?:\.\d+)?) ([A-Z]{3})\b")
STILL_REFUNDABLE = re.compile(r"^.+ is more than the (?P<left>.+) still refundable$")
OFFER_ANSWER = re.compile(
    r"^approved: (?P<kind>accept|counter|firm) at (?P<price>[\d.]+)(?P<floor>, the floor)? "
    r"\(offered (?P<offer>[^)]+)\)$"
)
ANSWERS = {"counter": "countered at", "firm": "held firm at"}


def plain_reason(reason: str, wording: Wording) -> str:
    """A POLICY reason as an owner reads it: commands and fields named in words, amounts in the
    business's currency, times in its zone. What a client or model wrote inside it (a name, an
    address) is kept as written."""
    text = reason.strip().rstrip(".")
    if text == "collect_contact with nothing to collect":
        return "there was nothing to note"
    text = IDENTIFIER.sub(lambda found: IDENTIFIER_WORDS[found.group()], text)
    text = ISO_MOMENT.sub(lambda found: wording.when(found.group()), text)
    text = ISO_DAY.sub(lambda found: _day_label(found.group()), text)
    text = AMOUNT.sub(lambda found: wording.money_of(found.group(1), found.group(2)), text)
    if refundable := STILL_REFUNDABLE.match(text):
        text = f"only {refundable['left']} is still refundable"
    # "The refund window…" reads on after "refused:"; an acronym or a quoted name keeps its case.
    if text[:1].isupper() and not text[1:2].isupper():
        text = text[:1].lower() + text[1:]
    return text


# --- each command, done and tried -------------------------------------------------------------

Fields = dict[str, Any]


@dataclass(frozen=True)
class Phrases:
    done: Callable[[Fields, Recorded, Wording], str]
    tried: Callable[[Fields, Wording], str]


def _offer_window(fields: Fields) -> str:
    parts = []
    if day := fields.get("day"):
        parts.append(f"from {_day_label(str(day))}")
    if fields.get("from_time") or fields.get("to_time"):
        parts.append(f"{fields.get('from_time') or 'opening'}–{fields.get('to_time') or 'closing'}")
    return f" ({', '.join(parts)})" if parts else ""


def _details(fields: Fields) -> str:
    given = [name for name in ("name", "email", "phone") if fields.get(name)]
    words = {"name": "name", "email": "email address", "phone": "phone number"}
    named = [words[name] for name in given] or ["details"]
    return " and ".join(named)


def _price_answer(fields: Fields, entry: Recorded, wording: Wording) -> str:
    answer = OFFER_ANSWER.match(entry.reason)
    if answer is None:
        return f"The assistant answered the client's offer of {_offered(fields, wording)}"
    offered = wording.money(answer["offer"])
    price = wording.money(answer["price"])
    floor = " (the floor)" if answer["floor"] else ""
    if answer["kind"] == "accept":
        return f"The assistant accepted the client's offer of {offered}{floor}"
    answered = ANSWERS[answer["kind"]]
    return f"The assistant answered the client's offer of {offered}: {answered} {price}{floor}"


def _offered(fields: Fields, wording: Wording) -> str:
    amount = fields.get("amount")
    return wording.money(amount) if _decimal(amount) is not None else f"“{amount}”"


def _refund_done(fields: Fields, entry: Recorded, wording: Wording) -> str:
    reference = fields.get("appointment", "?")
    if entry.money_moved > 0:
        moved = wording.money(entry.money_moved)
        return f"The client's refund of {moved} for appointment {reference} went out"
    return (
        f"The assistant prepared a refund of {wording.money(fields.get('amount'))} for "
        f"appointment {reference}, for the client to confirm"
    )


def _person_offered(fields: Fields) -> str:
    """An offer of a person is what follows a message the assistant could not act on: the
    owner reading the log looks at that conversation (an attempt to make the assistant do what
    it cannot shows here)."""
    reason = fields.get("reason")
    why = f": {reason}" if isinstance(reason, str) and reason.strip() else ""
    return f"The assistant offered the client a member of your team{why}"


def _moved_to(fields: Fields, wording: Wording) -> str:
    return f"appointment {fields.get('appointment', '?')} to {wording.when(fields.get('start'))}"


PHRASES: dict[str, Phrases] = {
    "offer_slots": Phrases(
        lambda f, e, w: (
            f"The assistant offered times for {w.service(f.get('service'))}{_offer_window(f)}"
        ),
        lambda f, w: f"offer times for {w.service(f.get('service'))}{_offer_window(f)}",
    ),
    "choose_service": Phrases(
        lambda f, e, w: f"The assistant noted the client wants {w.service(f.get('service'))}",
        lambda f, w: f"choose {w.service(f.get('service'))}",
    ),
    "hold_slot": Phrases(
        lambda f, e, w: (
            f"The assistant held {w.when(f.get('start'))} for {w.service(f.get('service'))}"
        ),
        lambda f, w: f"hold {w.when(f.get('start'))} for {w.service(f.get('service'))}",
    ),
    "collect_contact": Phrases(
        lambda f, e, w: f"The assistant noted the client's {_details(f)}",
        lambda f, w: f"note the client's {_details(f)}",
    ),
    "request_confirmation": Phrases(
        lambda f, e, w: "The assistant asked the client to confirm the booking",
        lambda f, w: "ask the client to confirm the booking",
    ),
    "confirm_booking": Phrases(  # worded by _confirm_sentence
        lambda f, e, w: "The client confirmed the booking",
        lambda f, w: "confirm the booking",
    ),
    "request_payment": Phrases(
        lambda f, e, w: (
            f"The assistant sent the deposit link for appointment {f.get('appointment', '?')}"
        ),
        lambda f, w: f"ask for the deposit of appointment {f.get('appointment', '?')}",
    ),
    "choose_appointment": Phrases(
        lambda f, e, w: (
            f"The assistant turned to the returning client's appointment "
            f"{f.get('appointment', '?')}"
        ),
        lambda f, w: f"turn to appointment {f.get('appointment', '?')}",
    ),
    "cancel_appointment": Phrases(
        lambda f, e, w: f"Cancelling appointment {f.get('appointment', '?')} was allowed",
        lambda f, w: f"cancel appointment {f.get('appointment', '?')}",
    ),
    "reschedule_appointment": Phrases(
        lambda f, e, w: f"Moving {_moved_to(f, w)} was allowed",
        lambda f, w: f"move {_moved_to(f, w)}",
    ),
    "refund": Phrases(
        _refund_done,
        lambda f, w: f"refund {w.money(f.get('amount'))}",
    ),
    "offer_price": Phrases(
        _price_answer,
        lambda f, w: f"answer the client's offer of {_offered(f, w)}",
    ),
    "escalate_to_human": Phrases(
        lambda f, e, w: (
            f"The assistant handed the conversation to your team: {f.get('reason', '')}".rstrip(
                ": "
            )
        ),
        lambda f, w: "hand the conversation to your team",
    ),
    "offer_person": Phrases(
        lambda f, e, w: _person_offered(f),
        lambda f, w: "offer the client a member of your team",
    ),
    "send_message": Phrases(
        lambda f, e, w: "The assistant sent the client a message",
        lambda f, w: "send the client a message",
    ),
    "change_price": Phrases(
        lambda f, e, w: f"The assistant changed a price to {w.money(f.get('price'))}",
        lambda f, w: f"change a price to {w.money(f.get('price'))}",
    ),
    "issue_store_credit": Phrases(
        lambda f, e, w: f"The assistant issued {w.money(f.get('amount'))} of store credit",
        lambda f, w: f"issue {w.money(f.get('amount'))} of store credit",
    ),
    "mark_paid": Phrases(
        lambda f, e, w: f"The assistant marked appointment {f.get('appointment', '?')} as paid",
        lambda f, w: f"mark appointment {f.get('appointment', '?')} as paid",
    ),
    "delete_client": Phrases(
        lambda f, e, w: f"The assistant deleted client {f.get('client', '?')}",
        lambda f, w: f"delete client {f.get('client', '?')}",
    ),
}

# The system's names a POLICY reason may contain, in words: the menu's commands (a batch
# replay's "offer_slots is judged inside a conversation") and the time-window fields. "refund"
# is a word already.
IDENTIFIER_WORDS: dict[str, str] = {
    "offer_slots": "offering times",
    "choose_service": "choosing a service",
    "hold_slot": "holding a time",
    "collect_contact": "noting contact details",
    "request_confirmation": "asking to confirm",
    "confirm_booking": "confirming a booking",
    "request_payment": "asking for the deposit",
    "choose_appointment": "choosing a returning client's appointment",
    "cancel_appointment": "cancelling",
    "reschedule_appointment": "moving a booking",
    "offer_price": "a price offer",
    "escalate_to_human": "handing over to the team",
    "offer_person": "offering a person",
    "send_message": "sending a message",
    "change_price": "changing a price",
    "issue_store_credit": "issuing store credit",
    "mark_paid": "marking as paid",
    "delete_client": "deleting a client",
    "from_time": "from time",
    "to_time": "to time",
}
IDENTIFIER = re.compile(r"\b(" + "|".join(sorted(IDENTIFIER_WORDS, key=len, reverse=True)) + r")\b")


# --- values as recorded: whatever a model wrote, never an exception ---------------------------


def _decimal(value: Any) -> Decimal | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        amount = Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        return None
    return amount if amount.is_finite() else None


def _instant(text: Any, time_zone: str) -> dt.datetime | None:
    if not isinstance(text, str):
        return None
    try:
        moment = dt.datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    # Without an offset, a time is the business's wall time (as the policy gate reads it).
    return moment if moment.tzinfo else moment.replace(tzinfo=ZoneInfo(time_zone))


def _short_label(moment: dt.datetime, time_zone: str) -> str:
    """ "Tue 3 Dec 10:00", in the business's zone."""
    local = moment.astimezone(ZoneInfo(time_zone))
    return f"{local:%a} {local.day} {local:%b} {local:%H:%M}"


def _day_label(text: str) -> str:
    try:
        day = dt.date.fromisoformat(text.strip())
    except ValueError:
        return text
    return f"{day:%a} {day.day} {day:%b}"
