"""Hand-built analytics worlds: conversations walked through their stages at chosen times (the
database records each move as the row changes, as in production), appointments booked through
each channel, audit entries, reminders. Every figure the tests expect is counted by hand from
what is written here."""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal

import time_machine

from agent.models import AuditEntry, Conversation
from bookings.actors import Actor, ActorKind
from bookings.models import AppointmentEvent, AppointmentEventKind, Business, Service
from reminders.models import Reminder, ReminderStatus
from tests.factories import AppointmentFactory, ClientFactory, UserFactory

UTC = dt.UTC


def at(day: int, hour: int = 10, minute: int = 0, month: int = 11) -> dt.datetime:
    """An instant of 2026 (Lisbon is on UTC in November)."""
    return dt.datetime(2026, month, day, hour, minute, tzinfo=UTC)


def walk(
    business: Business,
    started: dt.datetime,
    moves: list[tuple[str, int]],
    *,
    service: Service | None = None,
) -> Conversation:
    """A conversation started at ``started`` that moves to each stage ``minutes`` after it; the
    service is chosen with the first move."""
    with time_machine.travel(started, tick=False):
        conversation = Conversation.objects.create(business=business, token_hash=uuid.uuid4().hex)
    for stage, minutes in moves:
        with time_machine.travel(started + dt.timedelta(minutes=minutes), tick=False):
            conversation.service = service
            conversation.state = stage
            conversation.save()
    return conversation


def booked(
    business: Business,
    service: Service,
    *,
    created: dt.datetime,
    starts: dt.datetime,
    by: Actor,
    status: str = "confirmed",
    price: str = "60.00",
    list_price: str = "60.00",
    conversation: Conversation | None = None,
):
    with time_machine.travel(created, tick=False):
        appointment = AppointmentFactory(
            business=business,
            service=service,
            client=ClientFactory(business=business),
            starts_at=starts,
            status=status,
            price=Decimal(price),
            list_price=Decimal(list_price),
        )
        AppointmentEvent.objects.create(
            business=business,
            appointment=appointment,
            kind=AppointmentEventKind.CREATED,
            actor=by,
        )
    if conversation is not None:
        Conversation.objects.filter(pk=conversation.pk).update(appointment=appointment)
    return appointment


def audited(
    business: Business,
    when: dt.datetime,
    action: str,
    *,
    result: str = "EXECUTE",
    stage: str = "",
    reason: str = "approved",
    moved: str = "0",
    contained: str = "0",
) -> None:
    with time_machine.travel(when, tick=False):
        AuditEntry.objects.create(
            business=business,
            conversation="c",
            proposal={"action": action},
            action=action,
            result=result,
            stage=stage,
            reason=reason,
            money_moved=Decimal(moved),
            money_contained=Decimal(contained),
        )


def reminded(
    appointment, sent: dt.datetime | None, kind: str, status: str = ReminderStatus.SENT
) -> None:
    Reminder.objects.create(
        business=appointment.business,
        appointment=appointment,
        kind=kind,
        due_at=sent or at(20),
        status=status,
        sent_at=sent,
    )


TO_CONFIRMED = [
    ("service_chosen", 1),
    ("slot_offered", 2),
    ("slot_held", 3),
    ("details_collected", 4),
]


def salon_month(business: Business, haircut: Service, colour: Service) -> None:
    """November 2026 at one salon. The figures it must give are in tests/analytics/test_figures."""
    person = Actor.of_user(UserFactory(), "owner")
    client = Actor(ActorKind.CLIENT)
    # Conversations: seven started in November, one in October.
    first = walk(business, at(2), [*TO_CONFIRMED, ("confirmed", 10)], service=haircut)
    second = walk(
        business,
        at(3),
        [*TO_CONFIRMED, ("awaiting_payment", 5), ("confirmed", 30)],
        service=haircut,
    )
    walk(business, at(4), [("details_collected", 5), ("escalated", 6)], service=haircut)
    walk(business, at(5), [("service_chosen", 1), ("expired", 60)], service=colour)
    walk(business, at(6), [])
    walk(business, at(10), [*TO_CONFIRMED, ("confirmed", 50)], service=haircut)
    walk(business, at(11), [*TO_CONFIRMED, ("confirmed", 70)], service=haircut)
    walk(business, at(30, month=10), [*TO_CONFIRMED, ("confirmed", 5)], service=haircut)

    # Bookings made in November: two in chat (one later cancelled), one on the booking page
    # below its list price, one in the dashboard; one released unpaid, one made in October.
    booked(business, haircut, created=at(2, 11), starts=at(20), by=client, conversation=first)
    booked(
        business,
        haircut,
        created=at(3, 11),
        starts=at(21),
        by=client,
        status="cancelled",
        price="45.00",
        conversation=second,
    )
    page = booked(
        business, haircut, created=at(4), starts=at(9), by=client, status="attended", price="50"
    )
    dashboard = booked(
        business,
        colour,
        created=at(5),
        starts=at(10),
        by=person,
        status="no_show",
        price="80",
        list_price="80",
    )
    booked(business, haircut, created=at(6), starts=at(22), by=client, status="expired")
    booked(
        business,
        haircut,
        created=at(20, month=10),
        starts=at(2, 15),
        by=client,
        status="attended",
    )

    # The audit log: four price offers, a refund blocked and one made, a capability block.
    offer = "offer_price"
    audited(business, at(7), offer, reason="approved: accept at 55.00 (offered 55.00)")
    audited(
        business, at(7), offer, reason="approved: counter at 57.00 (offered 52.00)", contained="5"
    )
    audited(
        business,
        at(8),
        offer,
        reason="approved: firm at 50.00, the floor (offered 47.00)",
        contained="3",
    )
    audited(business, at(8), offer, result="BLOCK", stage="POLICY", reason="no negotiation")
    audited(
        business, at(12), "refund", result="BLOCK", stage="POLICY", reason="over", contained="150"
    )
    audited(business, at(12), "refund", moved="12")
    audited(business, at(13), "hold_slot")
    audited(business, at(13), "delete_client", result="BLOCK", stage="CAPABILITY", reason="no")
    audited(business, at(31, month=10), "hold_slot", result="BLOCK", stage="POLICY", reason="x")

    # Reminders: two sent in the week of 16 November, one failed, one sent in December.
    reminded(page, at(17), "before_24h")
    reminded(dashboard, at(18), "before_24h")
    reminded(dashboard, None, "before_2h", status=ReminderStatus.FAILED)
    reminded(page, at(1, month=12), "post_visit")


def other_salon_month(business: Business, service: Service) -> None:
    """Another business's November: something in every figure, so a query that forgot the
    business would count it."""
    person = Actor.of_user(UserFactory(), "owner")
    chat = walk(business, at(9), [*TO_CONFIRMED, ("confirmed", 1)], service=service)
    in_chat = booked(
        business,
        service,
        created=at(9, 11),
        starts=at(9, 12),
        by=Actor(ActorKind.CLIENT),
        conversation=chat,
        status="no_show",
    )
    booked(
        business, service, created=at(9), starts=at(16), by=person, price="40", status="attended"
    )
    booked(business, service, created=at(10), starts=at(17), by=Actor(ActorKind.CLIENT))
    audited(business, at(9), "offer_price", reason="approved: accept at 40.00 (offered 40.00)")
    audited(business, at(9), "offer_price", result="BLOCK", stage="POLICY", reason="no")
    audited(
        business, at(9), "refund", result="BLOCK", stage="STRUCTURE", reason="bad", contained="99"
    )
    audited(business, at(9), "refund", moved="7")
    audited(business, at(9), "cancel", result="BLOCK", stage="CAPABILITY", reason="no")
    reminded(in_chat, at(17), "before_24h")
