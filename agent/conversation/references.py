"""How appointments are named in chat, and which of them a conversation may name."""

from __future__ import annotations

from agent.models import AppointmentReference, Conversation
from bookings.models import Appointment


def reference_of(appointment: Appointment | None) -> str | None:
    """The reference an appointment goes by in chat ("A-3F9C2B1D0E7A4C55"): 64 bits of its
    random public id, so no two of a business's appointments share one."""
    return None if appointment is None else f"A-{appointment.public_id.hex[:16].upper()}"


def client_appointments(conversation: Conversation) -> dict[str, Appointment]:
    """The verified client's appointments at the conversation's business, by reference — none
    before the client proved who they are; only the one its manage link proved, for a chat
    opened from it. Newest first, at most ``SHOWN``."""
    client, proven = conversation.verified_client_id, conversation.proven_appointment_id
    if client is None and proven is None:
        return {}  # asked several times a turn: no queryset is built for nothing
    here = Appointment.objects.filter(business_id=conversation.business_id)
    if client is not None:
        mine = here.filter(client_id=client)
    else:
        assert proven is not None
        mine = here.filter(pk=proven)
    found = mine.select_related("service", "payment").order_by("-starts_at")[:SHOWN]
    return {reference: each for each in found if (reference := reference_of(each))}


# A client's last appointments a conversation can name: enough for anyone's recent visits,
# and a bound on what one turn reads.
SHOWN = 20


def appointment_take_up(conversation: Conversation, appointment: Appointment) -> None:
    """The conversation acts on ``appointment`` (one of its verified client's) from now on;
    named by its reference, as a refund looks it up."""
    reference = reference_of(appointment)
    assert reference is not None
    AppointmentReference.objects.get_or_create(
        appointment=appointment,
        defaults={"business_id": appointment.business_id, "reference": reference},
    )
    conversation.subject = appointment
    conversation.pending_effect = None  # a card shown for another appointment is void
