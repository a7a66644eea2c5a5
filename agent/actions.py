"""The platform's action menu: every command a model may propose, as a typed schema.

A proposal is only ever a request. Knowing a command here does not let an agent run it (that is
its grants, ``agent.models.AgentGrant``), and a granted command still has to pass the policy
gate. Pure: no database, no clock.
"""

from decimal import Decimal
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StringConstraints

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=2000)]
Reference = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64)]
# The largest amount the money columns hold (numeric(10, 2)); more, or a fraction of a cent,
# is refused at STRUCTURE with the reason, never passed on to overflow a write.
MAX_AMOUNT = Decimal("99999999.99")
Amount = Annotated[
    Decimal, Field(gt=0, le=MAX_AMOUNT, max_digits=10, decimal_places=2, allow_inf_nan=False)
]


class Proposal(BaseModel):
    """One proposed command; fields the command does not name are refused, not ignored."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# --- what a booking agent does ----------------------------------------------------------------


class OfferSlots(Proposal):
    """Open slots for a service: from ``day`` (ISO date; today when absent) for a week, or only
    between ``from_time`` and ``to_time`` (local HH:MM) when given."""

    service: Reference
    day: str | None = None
    from_time: str | None = None
    to_time: str | None = None


class ChooseService(Proposal):
    service: Reference


class HoldSlot(Proposal):
    service: Reference
    start: str


class CollectContact(Proposal):
    name: Text | None = None
    email: Text | None = None
    phone: Text | None = None


class RequestConfirmation(Proposal):
    pass


class ConfirmBooking(Proposal):
    """Only ever executed for the client's own Confirm, which names the card it was pressed on
    (the booking as it was shown), so a change made meanwhile is not booked unseen."""

    card: Reference | None = None


class ChooseAppointment(Proposal):
    """Act on one of the verified client's own appointments at this business (a returning
    client's: "move my Friday appointment"); its reference as the conversation lists them."""

    appointment: Reference


class RequestPayment(Proposal):
    appointment: Reference


class CancelAppointment(Proposal):
    appointment: Reference
    reason: Text | None = None


class RescheduleAppointment(Proposal):
    appointment: Reference
    start: str


class Refund(Proposal):
    appointment: Reference
    amount: Amount


class OfferPrice(Proposal):
    """The client's price offer for the conversation's service, as they stated it: ``amount``
    as written ("45", "45.50"), ``currency`` only if they named one ("EUR", "USD"). The
    business's terms answer it (accept, counter or firm); the model never sets a price."""

    # Loose on purpose: what is not money of the business's currency ("free", 0, another
    # currency) is refused by POLICY in words the client reads, not by the schema.
    amount: StrictInt | Annotated[str, StringConstraints(strip_whitespace=True, max_length=40)]
    currency: Annotated[str, StringConstraints(strip_whitespace=True, max_length=8)] | None = None


class EscalateToHuman(Proposal):
    reason: Text


class OfferPerson(Proposal):
    """The client's message asks for nothing this chat can do or answer: tell them what the
    assistant can do here and ask whether they want a member of the team (their "yes" then
    hands the conversation over). Changes no booking and no money; audited like every
    proposal, so a message trying to make the assistant do what it cannot leaves a trace."""

    reason: Text | None = None


class SendMessage(Proposal):
    text: Text


# --- platform commands a booking agent is never granted ---------------------------------------


class ChangePrice(Proposal):
    product_id: Reference
    price: Annotated[Decimal, Field(ge=0, allow_inf_nan=False)]


class IssueStoreCredit(Proposal):
    amount: Amount


class MarkPaid(Proposal):
    appointment: Reference


class DeleteClient(Proposal):
    client: Reference


MENU: dict[str, type[Proposal]] = {
    "offer_slots": OfferSlots,
    "choose_service": ChooseService,
    "hold_slot": HoldSlot,
    "collect_contact": CollectContact,
    "request_confirmation": RequestConfirmation,
    "confirm_booking": ConfirmBooking,
    "request_payment": RequestPayment,
    "choose_appointment": ChooseAppointment,
    "cancel_appointment": CancelAppointment,
    "reschedule_appointment": RescheduleAppointment,
    "refund": Refund,
    "offer_price": OfferPrice,
    "escalate_to_human": EscalateToHuman,
    "offer_person": OfferPerson,
    "send_message": SendMessage,
    "change_price": ChangePrice,
    "issue_store_credit": IssueStoreCredit,
    "mark_paid": MarkPaid,
    "delete_client": DeleteClient,
}

# Money or records no conversation should ever move: not grantable to a booking agent at all
# (a database constraint on AgentGrant holds this too).
NEVER_GRANTED: frozenset[str] = frozenset(
    {"change_price", "issue_store_credit", "mark_paid", "delete_client"}
)

# Granted by the owner's negotiation terms, not by a grant row: an agent may propose these
# exactly while some bookable service of its business negotiates (agent.services).
GRANTED_BY_TERMS: frozenset[str] = frozenset({"offer_price"})

# What a new booking agent may do: the booking flow and a way out to a human. Refunds move
# money and are granted by the owner, deliberately.
DEFAULT_GRANTS: frozenset[str] = frozenset(
    {
        "offer_slots",
        "choose_service",
        "hold_slot",
        "collect_contact",
        "request_confirmation",
        "confirm_booking",
        "request_payment",
        "choose_appointment",
        "cancel_appointment",
        "reschedule_appointment",
        "escalate_to_human",
        "offer_person",
        "send_message",
    }
)
