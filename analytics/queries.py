"""The analytics page's figures, each aggregated by the database in one query (GROUP BY, COUNT
with FILTER, a median from ordered rows): the number of queries never depends on how many
conversations or appointments there are, and no row is looped over here (only the few groups
of a grouped query are added up).

Every query is narrowed to ``Scope.business_ids`` — the businesses the caller may read, decided
by the view — and to the period's instants. Nothing here writes.

What the figures mean:
- the funnel: conversations started in the period, and how many of them reached each step
  (ever, by now) — a conversation that jumped several steps in one message reached each;
- bookings made: appointments created in the period, except those released unpaid (never a
  booking); their channel is the chat when a conversation links them, else who created them
  (the client through the booking page or the API; a person in the dashboard);
- negotiation and containment: the audit log's entries of the period;
- weeks: visits (by their start) marked attended or no-show, and reminders sent.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, fields
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.db import connection
from django.db.models import (
    Aggregate,
    BooleanField,
    Count,
    DecimalField,
    DurationField,
    ExpressionWrapper,
    F,
    FilteredRelation,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce, TruncWeek

from agent.containment import BLOCK, EXECUTE
from agent.conversation.stage_backfill import STEPS
from agent.gates import Stage
from agent.models import (
    AuditEntry,
    Conversation,
    ConversationReach,
    ConversationServiceAsked,
)
from bookings.actors import PEOPLE, ActorKind
from bookings.models import (
    Appointment,
    AppointmentEvent,
    AppointmentEventKind,
    AppointmentStatus,
    Service,
)
from bookings.negotiation import Kind
from reminders.models import Reminder, ReminderStatus

# Appointments a client is (or was) booked for: a price agreed for them was given.
BOOKED = (
    AppointmentStatus.PENDING_PAYMENT,
    AppointmentStatus.CONFIRMED,
    AppointmentStatus.ATTENDED,
    AppointmentStatus.NO_SHOW,
)
MARKED = (AppointmentStatus.ATTENDED, AppointmentStatus.NO_SHOW)
ZERO = Decimal("0")
MONEY = DecimalField(max_digits=12, decimal_places=2)


@dataclass(frozen=True)
class Scope:
    business_ids: tuple[int, ...]
    start: dt.datetime
    end: dt.datetime  # excluded
    zone: ZoneInfo


# --- the funnel -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Funnel:
    reached: tuple[int, ...]  # per step of STEPS: conversations that reached it (or beyond)
    median_to_confirmed: dt.timedelta | None  # from the start to the first confirmation


def _reached(scope: Scope) -> QuerySet:
    """One row per conversation started in the period: how far it got and when it was first
    confirmed — kept by the database from the stage events (agent/migrations/0014)."""
    return ConversationReach.objects.filter(
        business_id__in=scope.business_ids,
        started_at__gte=scope.start,
        started_at__lt=scope.end,
    ).annotate(took=F("confirmed_at") - F("started_at"))


class Median(Aggregate):
    """PostgreSQL's median: the middle value, or the mean of the two middle ones."""

    function = "PERCENTILE_CONT"
    template = "%(function)s(0.5) WITHIN GROUP (ORDER BY %(expressions)s)"


def funnel(scope: Scope) -> Funnel:
    """One query on PostgreSQL — the counts per step and the median time to a confirmed
    booking, over the same rows; two elsewhere (the median from the ordered times)."""
    per_conversation = _reached(scope)
    counts: dict[str, Aggregate] = {
        f"step_{rank}": Count("pk", filter=Q(furthest__gte=rank)) for rank in range(len(STEPS))
    }
    # SQLite has no PERCENTILE_CONT: there the median is asked for separately.
    on_postgresql = connection.vendor == "postgresql"
    if on_postgresql:
        counts["median"] = Median("took", output_field=DurationField())
    found = per_conversation.aggregate(**counts)
    reached = tuple(found[f"step_{rank}"] for rank in range(len(STEPS)))
    if on_postgresql:
        median = found["median"]
    else:
        median = _median_to_confirmed(per_conversation, reached[-1])
    return Funnel(reached, median)


def _median_to_confirmed(per_conversation: QuerySet, confirmed: int) -> dt.timedelta | None:
    """The middle of the ordered times to confirmation (the mean of the two middle ones for an
    even count): the database orders them and returns only those."""
    if confirmed == 0:
        return None
    took = (
        per_conversation.filter(took__isnull=False).order_by("took").values_list("took", flat=True)
    )
    middle = list(took[(confirmed - 1) // 2 : confirmed // 2 + 1])
    return sum(middle, dt.timedelta()) / len(middle)


# --- services ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ServiceDemand:
    """One of the business's services (every one, so one never asked about shows as such)."""

    name: str
    asked: int  # conversations started in the period that chose it
    booked: int  # bookings made for it in the period, through any channel


def services(scope: Scope) -> list[ServiceDemand]:
    """Two grouped queries: the services with their bookings made (joined and counted per
    service), and the conversations that asked about each (the pairs the database keeps,
    grouped by service) — neither counted again per service."""
    # The period's condition in the join itself, so only the bookings made are joined.
    made = FilteredRelation(
        "appointments",
        condition=Q(
            appointments__created_at__gte=scope.start,
            appointments__created_at__lt=scope.end,
        )
        & ~Q(appointments__status=AppointmentStatus.EXPIRED),
    )
    booked = (
        Service.objects.filter(business_id__in=scope.business_ids)
        .annotate(made=made)
        .annotate(booked=Count("made"))
        .values_list("pk", "name", "booked")
    )
    asked = dict(
        ConversationServiceAsked.objects.filter(
            business_id__in=scope.business_ids,
            started_at__gte=scope.start,
            started_at__lt=scope.end,
        )
        .order_by()
        .values("service_id")
        .annotate(conversations=Count("pk"))
        .values_list("service_id", "conversations")
    )
    found = [ServiceDemand(name, asked.get(pk, 0), count) for pk, name, count in booked]
    return sorted(found, key=lambda row: (-row.asked, -row.booked, row.name))


# --- bookings by channel ----------------------------------------------------------------------


@dataclass(frozen=True)
class Channels:
    chat: int
    booking_page: int  # the pick-a-time page, the widget's form or the booking API
    dashboard: int
    total: int

    @property
    def other(self) -> int:
        return self.total - self.chat - self.booking_page - self.dashboard


def _made(scope: Scope) -> QuerySet:
    return Appointment.objects.filter(
        business_id__in=scope.business_ids,
        created_at__gte=scope.start,
        created_at__lt=scope.end,
    ).exclude(status=AppointmentStatus.EXPIRED)


# --- negotiation ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Negotiation:
    offers: int  # price offers the assistant proposed to answer
    accepted: int
    countered: int
    held_firm: int
    refused: int  # blocked by a gate (e.g. no negotiation for that service)
    discount_refused: Decimal  # what the core's answers kept above the offers
    discounted_bookings: int  # bookings made below their list price
    discount_given: Decimal  # list price − agreed price, summed over those


def _answered(kind: Kind) -> Q:
    # The audit entry's reason starts with the core's answer (agent.conversation.execute).
    return Q(result=EXECUTE, reason__startswith=f"approved: {kind.value} ")


# --- containment ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Containment:
    proposals: int
    executed: int
    blocked_structure: int
    blocked_capability: int
    blocked_policy: int
    money_moved: Decimal
    money_contained: Decimal

    @property
    def blocked(self) -> int:
        return self.blocked_structure + self.blocked_capability + self.blocked_policy


# --- the period's activity ---------------------------------------------------------------------


@dataclass(frozen=True)
class Activity:
    channels: Channels
    negotiation: Negotiation
    containment: Containment


def _blocked_at(stage: Stage) -> Count:
    return Count("pk", filter=Q(result=BLOCK, stage=stage.value))


def _bookings_made(scope: Scope) -> dict:
    """The period's bookings by channel, with their discounts: grouped in the database by
    whether a conversation links the booking and who made its "created" history row (a few
    groups), then added up here. Both are looked up per booking by index — a join made the
    planner walk every conversation that links a booking, and the whole history — and each
    once, in the grouping (as filters of one aggregate they were looked up once per filter)."""
    discounted = Q(status__in=BOOKED, list_price__gt=F("price"))
    groups = (
        _made(scope)
        .annotate(
            linking=Subquery(
                Conversation.objects.filter(appointment=OuterRef("pk")).values("pk")[:1]
            ),
            linked=ExpressionWrapper(Q(linking__isnull=False), output_field=BooleanField()),
            creator=Subquery(
                AppointmentEvent.objects.filter(
                    appointment=OuterRef("pk"), kind=AppointmentEventKind.CREATED
                )
                .order_by()
                .values("actor_kind")[:1]
            ),
        )
        .order_by()
        .values_list("linked", "creator")
        .annotate(
            total=Count("pk"),
            discounted_bookings=Count("pk", filter=discounted),
            discount_given=Coalesce(
                Sum(F("list_price") - F("price"), filter=discounted),
                Value(ZERO),
                output_field=MONEY,
            ),
        )
    )
    made: dict[str, int | Decimal] = dict.fromkeys(
        ("chat", "booking_page", "dashboard", "total", "discounted_bookings"), 0
    )
    made["discount_given"] = ZERO
    for linked, creator, total, discounted_bookings, discount_given in groups:
        channel = _channel(linked=linked, creator=creator)
        if channel:
            made[channel] += total
        made["total"] += total
        made["discounted_bookings"] += discounted_bookings
        made["discount_given"] += discount_given
    return made


def _channel(*, linked: bool, creator: str | None) -> str | None:
    """Where a booking was made: the chat when a conversation links it, else who created it
    (None: neither a client nor a person — another channel)."""
    if linked:
        return "chat"
    if creator == ActorKind.CLIENT:
        return "booking_page"
    if creator in PEOPLE:
        return "dashboard"
    return None


def activity(scope: Scope) -> Activity:
    """Two queries, one pass each: the bookings made in the period (their channels and their
    discounts) and the audit log's entries of the period (its price offers and containment)."""
    made = _bookings_made(scope)
    offer = Q(action="offer_price")
    logged = AuditEntry.objects.filter(
        business_id__in=scope.business_ids,
        created_at__gte=scope.start,
        created_at__lt=scope.end,
    ).aggregate(
        offers=Count("pk", filter=offer),
        accepted=Count("pk", filter=offer & _answered(Kind.ACCEPT)),
        countered=Count("pk", filter=offer & _answered(Kind.COUNTER)),
        held_firm=Count("pk", filter=offer & _answered(Kind.FIRM)),
        refused=Count("pk", filter=offer & Q(result=BLOCK)),
        discount_refused=Coalesce(
            Sum("money_contained", filter=offer & Q(result=EXECUTE)),
            Value(ZERO),
            output_field=MONEY,
        ),
        proposals=Count("pk"),
        executed=Count("pk", filter=Q(result=EXECUTE)),
        blocked_structure=_blocked_at(Stage.STRUCTURE),
        blocked_capability=_blocked_at(Stage.CAPABILITY),
        blocked_policy=_blocked_at(Stage.POLICY),
        money_moved=Coalesce(Sum("money_moved"), Value(ZERO), output_field=MONEY),
        money_contained=Coalesce(Sum("money_contained"), Value(ZERO), output_field=MONEY),
    )
    found = made | logged  # no name in both
    return Activity(
        channels=Channels(**_fields_of(Channels, found)),
        negotiation=Negotiation(**_fields_of(Negotiation, found)),
        containment=Containment(**_fields_of(Containment, found)),
    )


def _fields_of(kind: type, found: dict) -> dict:
    return {field.name: found[field.name] for field in fields(kind)}


# --- week by week -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Week:
    starts: dt.date  # its Monday, in the scope's zone
    visits_marked: int  # visits marked attended or no-show
    no_shows: int
    reminders_sent: int

    @property
    def no_show_rate(self) -> Decimal | None:
        """Percent of the marked visits; None when none was marked."""
        if not self.visits_marked:
            return None
        return (Decimal(self.no_shows * 100) / self.visits_marked).quantize(Decimal("0.1"))


def weeks(scope: Scope, week_starts: list[dt.date]) -> list[Week]:
    """Two queries, grouped by week in the database; every week of the period is listed, an
    empty one with zeros."""
    visits = (
        Appointment.objects.filter(
            business_id__in=scope.business_ids,
            starts_at__gte=scope.start,
            starts_at__lt=scope.end,
            status__in=MARKED,
        )
        .annotate(week=TruncWeek("starts_at", tzinfo=scope.zone))
        .values("week")
        .annotate(marked=Count("pk"), no_shows=Count("pk", filter=Q(status="no_show")))
        .order_by("week")
    )
    sent = (
        Reminder.objects.filter(
            business_id__in=scope.business_ids,
            status=ReminderStatus.SENT,
            sent_at__gte=scope.start,
            sent_at__lt=scope.end,
        )
        .annotate(week=TruncWeek("sent_at", tzinfo=scope.zone))
        .values("week")
        .annotate(sent=Count("pk"))
        .order_by("week")
    )
    by_visits = {row["week"].date(): (row["marked"], row["no_shows"]) for row in visits}
    by_sent = {row["week"].date(): row["sent"] for row in sent}
    return [
        Week(monday, *by_visits.get(monday, (0, 0)), by_sent.get(monday, 0))
        for monday in week_starts
    ]
