"""What a signed Stripe webhook body holds, read into plain values, and which bodies are events.

Pure: no Django, no database, no ``stripe`` (``payments.stripe_api`` checks the signature, then
hands the text here). Two refusals are decided here, and they differ in what is kept:

- ``NotAnEvent``: nothing an event could be stored under — the body is not JSON text the
  database can hold, not a JSON object, or has no usable ``id``. The webhook answers 400 and
  stores nothing; retrying the same body cannot change that.
- ``MalformedEvent``: an event (it has an id) that we act on, whose type, livemode, created
  time or data object has a shape Stripe never sends. It is stored with outcome *failed* and
  this reason, answered 200 (nothing is lost, and ``manage.py replay_webhooks`` can run it
  again), and no payment is touched.

Values are read as Stripe documents them and no looser: an amount is a whole number of minor
units (not a string, a float or a boolean), an id is text, ``livemode`` is true or false. A
looser reading would let a malformed event match a payment by accident.
"""

import datetime as dt
import json
import math
from dataclasses import dataclass
from typing import Any

SESSION_EVENTS = frozenset(
    {
        "checkout.session.completed",
        "checkout.session.async_payment_succeeded",
        "checkout.session.async_payment_failed",
        "checkout.session.expired",
    }
)
INTENT_SUCCEEDED = "payment_intent.succeeded"
CHARGE_REFUNDED = "charge.refunded"
HANDLED = SESSION_EVENTS | {INTENT_SUCCEEDED, CHARGE_REFUNDED}

# The widths of the columns an event's id and type, and a payment's ids, are stored in.
MAX_ID_LENGTH = 255
MAX_TYPE_LENGTH = 100
# Stripe's amounts have at most twelve digits; a larger one is not an amount it sends.
MAX_MINOR_UNITS = 999_999_999_999
# Stripe's events nest a handful of levels; the limit keeps reading them bounded.
MAX_NESTING = 64
SHOWN_CHARACTERS = 60
# PostgreSQL's JSON and text columns cannot hold NUL, nor half of a surrogate pair.
UNSTORABLE = "\ufffd"
MISSING = object()  # a field the event does not have, told apart from one that is null


class NotAnEvent(Exception):
    """A signed body with nothing an event could be stored under; the message says why."""


class MalformedEvent(Exception):
    """An event whose field has a shape Stripe never sends; the message names the field."""


@dataclass(frozen=True)
class EventEnvelope:
    """What a delivery is stored under: its id, and the type and mode it claims."""

    id: str
    type: str  # "" when the body's type is not text that fits the column
    livemode: bool
    payload: dict[str, Any]  # the whole body, as JSON the database can hold


@dataclass(frozen=True)
class StripeObject:
    """The fields of ``data.object`` that a payment is found and checked by."""

    kind: str | None  # its "object": checkout.session, payment_intent, charge
    id: str | None
    payment_intent: str | None  # a session's or a charge's intent
    amount: int | None  # amount_total, amount_received or amount, by the event's type
    currency: str | None
    payment_status: str | None
    amount_refunded: int | None  # a charge's cumulative refunds
    reference: str | None  # metadata.ordina_payment: our payment's primary key, in digits


@dataclass(frozen=True)
class HandledEvent:
    type: str
    livemode: bool
    created: dt.datetime
    object: StripeObject


# --- the envelope: is it an event at all? --------------------------------------------------


def read_envelope(text: str) -> EventEnvelope:
    """The event in a signed body's ``text``; raises ``NotAnEvent`` when there is none."""
    try:
        body = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except RecursionError:
        raise NotAnEvent(f"the body is nested deeper than {MAX_NESTING} levels") from None
    except ValueError as error:
        raise NotAnEvent(f"the body is not JSON ({error})") from None
    if not isinstance(body, dict):
        raise NotAnEvent(f"the body is JSON {_kind_of(body)}, not an object")
    event_id = body.get("id", MISSING)
    if not _is_storable_text(event_id, MAX_ID_LENGTH):
        raise NotAnEvent(
            f"id is {_shown(event_id)}, not an event id (text of 1 to {MAX_ID_LENGTH} characters)"
        )
    payload = _storable(body, depth=0)
    kind = payload.get("type")
    return EventEnvelope(
        id=event_id,
        type=kind if isinstance(kind, str) and len(kind) <= MAX_TYPE_LENGTH else "",
        livemode=payload.get("livemode") is True,
        payload=payload,
    )


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(literal: str) -> float:
    number = float(literal)
    if not math.isfinite(number):
        raise ValueError(f"{literal[:SHOWN_CHARACTERS]} is too large for a number")
    return number


def _is_storable_text(value: Any, max_length: int) -> bool:
    return (
        isinstance(value, str) and 0 < len(value) <= max_length and _storable_text(value) == value
    )


def _storable(value: Any, *, depth: int) -> Any:
    """``value`` with text the database cannot hold replaced by U+FFFD, checked for depth.

    Such text is replaced rather than refused: it can only be in a field we do not use or make
    an id, a currency or a status that matches nothing, so the event is still kept.
    """
    if depth > MAX_NESTING:
        raise NotAnEvent(f"the body is nested deeper than {MAX_NESTING} levels")
    if isinstance(value, str):
        return _storable_text(value)
    if isinstance(value, list):
        return [_storable(item, depth=depth + 1) for item in value]
    if isinstance(value, dict):
        return {
            _storable_text(key): _storable(item, depth=depth + 1) for key, item in value.items()
        }
    return value


def _storable_text(text: str) -> str:
    if text.isascii():
        return text.replace("\x00", UNSTORABLE)
    return "".join(
        UNSTORABLE if char == "\x00" or "\ud800" <= char <= "\udfff" else char for char in text
    )


# --- the events we act on: are their fields what Stripe sends? ------------------------------


def read_handled_event(payload: dict[str, Any]) -> HandledEvent | None:
    """The stored event ``payload`` as the values a payment is checked against, or None for a
    type we do not act on. Raises ``MalformedEvent`` naming the first field that is wrong."""
    kind = payload.get("type", MISSING)
    if not isinstance(kind, str) or not 0 < len(kind) <= MAX_TYPE_LENGTH:
        raise _malformed("type", kind, f"an event type (text of 1 to {MAX_TYPE_LENGTH} characters)")
    if kind not in HANDLED:
        return None
    livemode = payload.get("livemode", MISSING)
    if not isinstance(livemode, bool):
        raise _malformed("livemode", livemode, "true or false")
    data = payload.get("data", MISSING)
    if not isinstance(data, dict):
        raise _malformed("data", data, "an object")
    obj = data.get("object", MISSING)
    if not isinstance(obj, dict):
        raise _malformed("data.object", obj, "an object")
    return HandledEvent(
        type=kind,
        livemode=livemode,
        created=_created(payload.get("created", MISSING)),
        object=_stripe_object(kind, obj),
    )


def _created(value: Any) -> dt.datetime:
    expected = "a time (whole seconds since 1970)"
    if not _is_whole_number(value):
        raise _malformed("created", value, expected)
    try:
        return dt.datetime.fromtimestamp(value, dt.UTC)
    except (OverflowError, OSError, ValueError):
        raise _malformed("created", value, expected) from None


def _stripe_object(kind: str, obj: dict[str, Any]) -> StripeObject:
    amount_field = (
        "amount_total"
        if kind in SESSION_EVENTS
        else "amount_received"
        if kind == INTENT_SUCCEEDED
        else "amount"
    )
    return StripeObject(
        kind=_text(obj, "object"),
        id=_identifier(obj, "id"),
        payment_intent=_identifier(obj, "payment_intent"),
        amount=_minor_units(obj, amount_field),
        currency=_text(obj, "currency"),
        payment_status=_text(obj, "payment_status"),
        amount_refunded=_minor_units(obj, "amount_refunded") if kind == CHARGE_REFUNDED else None,
        reference=_reference(obj),
    )


def _text(obj: dict[str, Any], name: str) -> str | None:
    value = obj.get(name)
    if value is None or isinstance(value, str):
        return value
    raise _malformed(f"data.object.{name}", value, "text")


def _identifier(obj: dict[str, Any], name: str) -> str | None:
    value = obj.get(name)
    if value is None or (isinstance(value, str) and len(value) <= MAX_ID_LENGTH):
        return value
    raise _malformed(
        f"data.object.{name}", value, f"an id (text of at most {MAX_ID_LENGTH} characters)"
    )


def _minor_units(obj: dict[str, Any], name: str) -> int | None:
    value = obj.get(name)
    if value is None:
        return None
    if _is_whole_number(value) and 0 <= value <= MAX_MINOR_UNITS:
        return value
    raise _malformed(
        f"data.object.{name}",
        value,
        f"an amount (a whole number of minor units, 0 to {MAX_MINOR_UNITS:,})",
    )


def _reference(obj: dict[str, Any]) -> str | None:
    metadata = obj.get("metadata")
    if metadata is None:
        return None
    if not isinstance(metadata, dict):
        raise _malformed("data.object.metadata", metadata, "an object")
    reference = metadata.get("ordina_payment")
    if reference is None:
        return None
    if not isinstance(reference, str):
        raise _malformed("data.object.metadata.ordina_payment", reference, "text")
    # Only our own digits name a payment (a primary key: 18 digits always fit in a bigint);
    # anything else is someone else's metadata, and the payment is found by the object's id.
    if reference.isascii() and reference.isdigit() and len(reference) <= 18:
        return reference
    return None


def _is_whole_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _malformed(field: str, value: Any, expected: str) -> MalformedEvent:
    return MalformedEvent(f"malformed event: {field} is {_shown(value)}, not {expected}")


def _shown(value: Any) -> str:
    if value is MISSING:
        return "missing"
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= SHOWN_CHARACTERS else f"{text[: SHOWN_CHARACTERS - 1]}…"


def _kind_of(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "text"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    return "a number"
