"""One business as its owner's dashboard sees it, filled in bulk to any size, and the dashboard
pages the owner opens.

Shared by ``bench/admin_pages.py`` (1,000 clients and 5,000 appointments) and
``tests/bookings/dashboard/test_admin_query_counts.py`` (2 rows, then 12): one world whatever
its size, so the benchmark's figures and the test's guarantee are about the same pages.

``grow`` only adds: called again with a larger ``Scale`` it tops every table up to the new
counts, leaving what is there, so the same pages (the same first rows) are measured before and
after. Rows are written with ``bulk_create``, not through the services: the pages read rows,
and the booking rules (capacity, notice, deposits) are not what is measured here. Appointments
sit every two hours, alternately after and before the moment the world was made, in one seat,
so they never overlap and the seat exclusion constraint holds.

This module imports nothing of ``bench`` (the tests import it as ``bench.dashboard_world``).
"""

import datetime as dt
import math
from dataclasses import dataclass, fields
from decimal import Decimal

FUTURE_STATUSES = ("confirmed", "confirmed", "pending_payment", "cancelled")
PAST_STATUSES = ("attended", "attended", "no_show", "cancelled", "expired")
CONVERSATION_STATES = ("confirmed", "slot_held", "escalated", "greeting", "awaiting_payment")
MESSAGES_PER_CONVERSATION = 4
VISIT = dt.timedelta(minutes=45)
SPACING = dt.timedelta(hours=2)


@dataclass(frozen=True)
class Scale:
    """How many rows each table of the business holds."""

    clients: int
    appointments: int  # each with two reminders and two history events
    services: int
    payments: int  # deposits of the first appointments; at most one per appointment
    refunds: int  # at most one per payment
    conversations: int  # each with four messages; at most one per appointment
    audit_entries: int
    guard_rewrites: int
    busy_blocks: int
    knowledge_sources: int

    def __post_init__(self) -> None:
        if self.payments > self.appointments or self.conversations > self.appointments:
            raise ValueError("payments and conversations need an appointment each")
        if self.refunds > self.payments:
            raise ValueError("refunds need a payment each")
        if self.clients < 1 or self.services < 1:
            raise ValueError("appointments need a client and a service")

    @classmethod
    def of_a_salon(cls, *, appointments: int, clients: int) -> "Scale":
        """A salon's proportions: half the visits with a deposit, one in five of those partly
        refunded, four conversations for every ten visits, three audit entries per
        conversation."""
        conversations = math.ceil(appointments * 0.4)
        return cls(
            clients=clients,
            appointments=appointments,
            services=max(3, min(12, appointments // 400)),
            payments=appointments // 2,
            refunds=appointments // 10,
            conversations=conversations,
            audit_entries=conversations * 3,
            guard_rewrites=math.ceil(conversations / 2),
            busy_blocks=math.ceil(appointments / 10),
            knowledge_sources=max(2, min(20, appointments // 250)),
        )

    @classmethod
    def rows(cls, count: int) -> "Scale":
        """``count`` rows in every table."""
        return cls(**{field.name: count for field in fields(cls)})


@dataclass(frozen=True)
class World:
    business_id: int
    owner_id: int
    anchor: dt.datetime  # appointments sit around this instant


@dataclass(frozen=True)
class Page:
    name: str
    url: str


def dashboard_world(*, slug: str, owner_username: str, password: str) -> World:
    """A Lisbon salon open 09:00–19:00 every day with a connected calendar, and its owner."""
    from django.contrib.auth import get_user_model

    from bookings.models import Business, CalendarFeed, Membership, OpeningHours, Role

    # Business.objects.create, not bulk_create: a new business gets its assistant's default
    # grants from the post-save receiver, as every real one does.
    business = Business.objects.create(
        slug=slug,
        name=slug.replace("-", " ").title(),
        time_zone="Europe/Lisbon",
        country="PT",
        currency="EUR",
        capacity=2,
    )
    OpeningHours.objects.bulk_create(
        OpeningHours(business=business, weekday=day, opens_at=dt.time(9), closes_at=dt.time(19))
        for day in range(7)
    )
    CalendarFeed.objects.create(business=business, url="https://calendar.example.com/salon.ics")
    owner = get_user_model().objects.create_user(
        username=owner_username,
        email=f"{owner_username}@example.com",
        password=password,
        is_staff=True,
    )
    Membership.objects.create(user=owner, business=business, role=Role.OWNER)
    anchor = dt.datetime.now(dt.UTC).replace(minute=0, second=0, microsecond=0)
    return World(business_id=business.pk, owner_id=owner.pk, anchor=anchor)


def grow(world: World, scale: Scale) -> None:
    """Add rows until every table of the business holds what ``scale`` says."""
    from agent.models import AuditEntry, GuardRewrite
    from bookings.models import Appointment, BusyBlock, Client, Service
    from knowledge.models import KnowledgeSource
    from payments.models import Refund

    business = world.business_id
    have = {
        "services": Service.objects.filter(business_id=business).count(),
        "clients": Client.objects.filter(business_id=business).count(),
        "appointments": Appointment.objects.filter(business_id=business).count(),
        "refunds": Refund.objects.filter(business_id=business).count(),
        "audit_entries": AuditEntry.objects.filter(business_id=business).count(),
        "guard_rewrites": GuardRewrite.objects.filter(business_id=business).count(),
        "busy_blocks": BusyBlock.objects.filter(business_id=business).count(),
        "knowledge_sources": KnowledgeSource.objects.filter(business_id=business).count(),
    }
    _services(world, range(have["services"], scale.services))
    _clients(world, range(have["clients"], scale.clients))
    _appointments(world, range(have["appointments"], scale.appointments))
    _payments_and_refunds(world, scale, refunds_before=have["refunds"])
    _conversations(world, scale.conversations)
    _audit_entries(world, range(have["audit_entries"], scale.audit_entries))
    _guard_rewrites(world, range(have["guard_rewrites"], scale.guard_rewrites))
    _busy_blocks(world, range(have["busy_blocks"], scale.busy_blocks))
    _knowledge_sources(world, range(have["knowledge_sources"], scale.knowledge_sources))


def _services(world: World, new: range) -> None:
    from bookings.models import Service

    Service.objects.bulk_create(
        Service(
            business_id=world.business_id,
            name=f"Service {n}",
            duration_minutes=45,
            list_price=Decimal("40.00") + n,
            price_floor=Decimal("30.00"),
            deposit_amount=Decimal("10.00") if n % 2 else None,
        )
        for n in new
    )


def _clients(world: World, new: range) -> None:
    from bookings.models import Client

    Client.objects.bulk_create(
        (
            Client(
                business_id=world.business_id,
                name=f"Client {n}",
                email=f"client{n}@example.com",
                phone=f"+3519100{n:05d}" if n % 3 == 0 else "",
            )
            for n in new
        ),
        batch_size=2000,
    )


def appointment_start(world: World, n: int) -> dt.datetime:
    """Appointment ``n``'s start: even ones after the anchor, odd ones before it."""
    step = n // 2 + 1
    return world.anchor + SPACING * step if n % 2 == 0 else world.anchor - SPACING * step


def _appointments(world: World, new: range) -> None:
    from bookings.actors import ActorKind
    from bookings.models import Appointment, AppointmentEvent, Client, Service
    from reminders.models import Reminder, ReminderKind, ReminderStatus

    if not new:
        return
    business = world.business_id
    services = list(Service.objects.filter(business_id=business).order_by("pk"))
    clients = list(Client.objects.filter(business_id=business).order_by("pk").values_list("pk"))
    appointments = []
    for n in new:
        start = appointment_start(world, n)
        future = n % 2 == 0
        statuses = FUTURE_STATUSES if future else PAST_STATUSES
        service = services[n % len(services)]
        appointments.append(
            Appointment(
                business_id=business,
                service=service,
                client_id=clients[n % len(clients)][0],
                starts_at=start,
                ends_at=start + VISIT,
                occupied_from=start,
                occupied_until=start + VISIT,
                seat=1,
                status=statuses[(n // 2) % len(statuses)],
                price=service.list_price - (5 if n % 7 == 0 else 0),
                list_price=service.list_price,
            )
        )
    created = Appointment.objects.bulk_create(appointments, batch_size=2000)
    reminders, events = [], []
    for appointment in created:
        past = appointment.starts_at < world.anchor
        reminders += [
            Reminder(
                business_id=business,
                appointment=appointment,
                kind=ReminderKind.CONFIRMATION,
                due_at=appointment.starts_at - dt.timedelta(days=3),
                status=ReminderStatus.SENT,
                attempts=1,
                sent_at=appointment.starts_at - dt.timedelta(days=3),
            ),
            Reminder(
                business_id=business,
                appointment=appointment,
                kind=ReminderKind.BEFORE_24H,
                due_at=appointment.starts_at - dt.timedelta(days=1),
                status=ReminderStatus.SENT if past else ReminderStatus.PENDING,
            ),
        ]
        events += [
            AppointmentEvent(
                business_id=business,
                appointment=appointment,
                kind="created",
                actor_kind=ActorKind.CLIENT,
                occurred_at=appointment.starts_at - dt.timedelta(days=3),
            ),
            AppointmentEvent(
                business_id=business,
                appointment=appointment,
                kind=appointment.status if past else "note",
                actor_kind=ActorKind.OWNER,
                actor_user_id=world.owner_id,
                occurred_at=min(appointment.starts_at, world.anchor),
                data={"note": "Prefers the window seat."},
            ),
        ]
    Reminder.objects.bulk_create(reminders, batch_size=2000)
    AppointmentEvent.objects.bulk_create(events, batch_size=2000)


def _payments_and_refunds(world: World, scale: Scale, *, refunds_before: int) -> None:
    """Deposits for the first ``scale.payments`` appointments; the new refunds go to the new
    deposits, whose refunded amount says so."""
    from bookings.actors import ActorKind
    from bookings.models import Appointment
    from payments.models import Payment, PaymentStatus, Refund

    business = world.business_id
    unpaid = (
        Appointment.objects.filter(business_id=business, payment__isnull=True)
        .order_by("pk")
        .values_list("pk", "starts_at")
    )
    existing = Payment.objects.filter(business_id=business).count()
    wanted = max(0, scale.payments - existing)
    new_refunds = max(0, scale.refunds - refunds_before)
    if new_refunds > wanted:
        raise ValueError("grow adds refunds only to the deposits it adds")
    refunded = Decimal("5.00")
    payments = Payment.objects.bulk_create(
        (
            Payment(
                business_id=business,
                appointment_id=appointment_id,
                amount=Decimal("10.00"),
                currency="EUR",
                status=PaymentStatus.PARTIALLY_REFUNDED if n < new_refunds else PaymentStatus.PAID,
                paid_at=starts_at - dt.timedelta(days=3),
                amount_refunded=refunded if n < new_refunds else Decimal(0),
                checkout_session_id=f"cs_{business}_{existing + n}",
                payment_intent_id=f"pi_{business}_{existing + n}",
                expires_at=starts_at - dt.timedelta(days=2),
            )
            for n, (appointment_id, starts_at) in enumerate(unpaid[:wanted])
        ),
        batch_size=2000,
    )
    Refund.objects.bulk_create(
        (
            Refund(
                business_id=business,
                payment=payment,
                amount=refunded,
                stripe_refund_id=f"re_{payment.checkout_session_id}",
                idempotency_key=f"refund-{payment.checkout_session_id}",
                reason="refunded by the owner in the dashboard",
                actor_kind=ActorKind.OWNER,
                actor_user_id=world.owner_id,
            )
            for payment in payments[:new_refunds]
        ),
        batch_size=2000,
    )


def _conversations(world: World, wanted: int) -> None:
    """Conversations for the first appointments without one, each with its messages."""
    import uuid

    from agent.models import Conversation, Message
    from bookings.models import Appointment

    business = world.business_id
    existing = Conversation.objects.filter(business_id=business).count()
    free = (
        Appointment.objects.filter(business_id=business, conversation__isnull=True)
        .select_related("client", "service")
        .order_by("pk")[: max(0, wanted - existing)]
    )
    conversations = []
    for n, appointment in enumerate(free, start=existing):
        state = CONVERSATION_STATES[n % len(CONVERSATION_STATES)]
        conversations.append(
            Conversation(
                business_id=business,
                token_hash=uuid.uuid4().hex + uuid.uuid4().hex,
                state=state,
                service=appointment.service,
                name=appointment.client.name,
                email=appointment.client.email,
                appointment=appointment if state == "confirmed" else None,
                escalation_reason="asked for a person" if state == "escalated" else "",
                turns=MESSAGES_PER_CONVERSATION // 2,
                last_message_at=appointment.starts_at - dt.timedelta(days=3),
            )
        )
    created = Conversation.objects.bulk_create(conversations, batch_size=2000)
    Message.objects.bulk_create(
        (
            Message(
                conversation=conversation,
                role="client" if turn % 2 == 0 else "assistant",
                text=f"Message {turn} of {conversation.name}",
            )
            for conversation in created
            for turn in range(MESSAGES_PER_CONVERSATION)
        ),
        batch_size=2000,
    )


def _conversation_ids(world: World) -> list[str]:
    from agent.models import Conversation

    ids = Conversation.objects.filter(business_id=world.business_id).values_list("public_id")
    return [str(public_id) for (public_id,) in ids.order_by("pk")] or [""]


def _audit_entries(world: World, new: range) -> None:
    from agent.models import AuditEntry, AuditResult, AuditStage

    conversations = _conversation_ids(world)
    entries = []
    for n in new:
        blocked = n % 3 == 2
        entries.append(
            AuditEntry(
                business_id=world.business_id,
                conversation=conversations[n % len(conversations)],
                proposal={"action": "refund", "amount": "150.00"} if blocked else {},
                action="refund" if blocked else "choose_service",
                result=AuditResult.BLOCK if blocked else AuditResult.EXECUTE,
                stage=AuditStage.POLICY if blocked else "",
                reason="only 12.00 is still refundable" if blocked else "chosen",
                money_contained=Decimal("138.00") if blocked else Decimal(0),
            )
        )
    AuditEntry.objects.bulk_create(entries, batch_size=2000)


def _guard_rewrites(world: World, new: range) -> None:
    from agent.models import GuardRewrite

    conversations = _conversation_ids(world)
    GuardRewrite.objects.bulk_create(
        (
            GuardRewrite(
                business_id=world.business_id,
                conversation=conversations[n % len(conversations)],
                guard="dates",
                reason="named a time not offered",
                before="See you Sunday at 3!",
                after="See you at the time you chose.",
            )
            for n in new
        ),
        batch_size=2000,
    )


def _busy_blocks(world: World, new: range) -> None:
    from bookings.models import BusyBlock

    # On the hour between two appointments' visits (they sit every two hours).
    BusyBlock.objects.bulk_create(
        (
            BusyBlock(
                business_id=world.business_id,
                starts_at=appointment_start(world, n * 10) + dt.timedelta(hours=1),
                ends_at=appointment_start(world, n * 10) + dt.timedelta(hours=1, minutes=50),
                summary=f"Supplier visit {n}",
            )
            for n in new
        ),
        batch_size=2000,
    )


def _knowledge_sources(world: World, new: range) -> None:
    from knowledge.models import KnowledgeSource, SourceKind, SourceStatus

    # Each as long as a fifteen-page price list read from the business's site.
    KnowledgeSource.objects.bulk_create(
        KnowledgeSource(
            business_id=world.business_id,
            kind=SourceKind.URL,
            title=f"Price list {n}",
            url=f"https://salon.example.com/prices/{n}",
            text=(f"Page {n}: a cut and blow-dry is 40 euros, a colour 65. " * 750).strip(),
            status=SourceStatus.READY,
            fetched_at=world.anchor,
        )
        for n in new
    )


# --- the pages ----------------------------------------------------------------------------------

# (app_label, model_name) of every table the owner browses, in the dashboard's order.
BROWSED = (
    ("bookings", "business"),
    ("bookings", "service"),
    ("bookings", "client"),
    ("bookings", "appointment"),
    ("bookings", "appointmentevent"),
    ("bookings", "busyblock"),
    ("bookings", "calendarfeed"),
    ("payments", "payment"),
    ("payments", "refund"),
    ("agent", "conversation"),
    ("agent", "auditentry"),
    ("agent", "agentgrant"),
    ("agent", "guardrewrite"),
    ("knowledge", "knowledgesource"),
)


# Tables whose number of rows does not grow with the business: itself, its one calendar, the
# assistant's grants (one per action it may take).
FIXED_SIZE = frozenset({"business", "calendarfeed", "agentgrant"})


def owner_page_names() -> list[str]:
    """The names ``owner_pages`` gives its pages, known without a database."""
    names = ["home"]
    for _app_label, model_name in BROWSED:
        names += [f"{model_name} list", f"{model_name} change"]
        if model_name == "appointment":
            names.append("appointment add")
    return names


def owner_pages(world: World) -> list[Page]:
    """Home, each browsed table's list and the change page of its first row, and the
    appointment add form. Reminders have no page of their own: they are rows on the
    appointment's page."""
    from django.apps import apps
    from django.urls import reverse

    pages = [Page("home", reverse("admin:index"))]
    for app_label, model_name in BROWSED:
        model = apps.get_model(app_label, model_name)
        prefix = f"admin:{app_label}_{model_name}"
        pages.append(Page(f"{model_name} list", reverse(f"{prefix}_changelist")))
        rows = model._default_manager.filter(**{model.business_path: world.business_id})
        first = rows.order_by("pk").values_list("pk", flat=True).first()
        if first is not None:
            pages.append(Page(f"{model_name} change", reverse(f"{prefix}_change", args=[first])))
        if model_name == "appointment":
            pages.append(Page("appointment add", reverse(f"{prefix}_add")))
    return pages


def page_statements(http, url: str):
    """(SQL statements, response) of one GET of ``url``, after two untimed ones: caches warm,
    the session's first-visit writes done, so only what the page itself reads is counted."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(2):
        http.get(url)
    with CaptureQueriesContext(connection) as captured:
        response = http.get(url)
    return len(captured), response


def pages_being_built(world: World) -> list[Page]:
    """Dashboard pages that may not exist yet in this checkout: measured where they answer."""
    return [
        Page("calendar", "/admin/bookings/appointment/calendar/"),
        Page("hours grid", f"/admin/bookings/business/{world.business_id}/hours/"),
        Page("analytics", "/admin/analytics/"),
    ]
