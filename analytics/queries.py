"""The analytics page's figures, each aggregated by the database in one query (GROUP BY, COUNT
with FILTER, a median from ordered rows): the number of queries never depends on how many
conversations or appointments there are, and no row is looped over here.

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
    Case,
    Count,
    DecimalField,
    DurationField,
    F,
    FilteredRelation,
    IntegerField,
    Max,
    Min,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce, TruncWeek

from agent.containment import BLOCK, EXECUTE
from agent.conversation.stage_backfill import STEPS
from agent.conversation.states import State
from agent.gates import Stage
from agent.models import AuditEntry, ConversationStageEvent
from bookings.actors import PEOPLE, ActorKind
from bookings.models import (
    Appointment,
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


# A stage's place in the funnel; escalated, cancelled and expired add no step.
STEP_RANK = Case(
    *(When(stage=stage.value, then=Value(rank)) for rank, stage in enumerate(STEPS)),
    default=Value(-1),
    output_field=IntegerField(),
)


def _started(scope: Scope) -> QuerySet:
    """The ids of the conversations started in the period."""
    return ConversationStageEvent.objects.filter(
        business_id__in=scope.business_ids,
        previous_stage="",
        occurred_at__gte=scope.start,
        occurred_at__lt=scope.end,
    ).values("conversation_id")


def _cohort_events(scope: Scope) -> QuerySet:
    """Every event of the conversations started in the period. None of them can be older than
    the period's start, so the index on (business, occurred_at) narrows them before the
    conversations are matched — rather than a scan of the whole table."""
    return ConversationStageEvent.objects.filter(
        business_id__in=scope.business_ids,
        occurred_at__gte=scope.start,
        conversation_id__in=_started(scope),
    )


def _per_conversation(scope: Scope) -> QuerySet:
    """One row per conversation started in the period: its start, its furthest step and how
    long it took to be confirmed (None: never). The events from the period's start on are
    grouped by conversation and only the groups holding a start in the period are kept — one
    pass over the events, where matching them to a list of started ones took two."""
    started = Min("occurred_at", filter=Q(previous_stage=""))
    return (
        ConversationStageEvent.objects.filter(
            business_id__in=scope.business_ids, occurred_at__gte=scope.start
        )
        .values("conversation_id")
        .order_by()
        .annotate(
            started=started,
            furthest=Max(STEP_RANK),
            took=Min("occurred_at", filter=Q(stage=State.CONFIRMED)) - started,
        )
        .filter(started__lt=scope.end)
    )


class Median(Aggregate):
    """PostgreSQL's median: the middle value, or the mean of the two middle ones."""

    function = "PERCENTILE_CONT"
    template = "%(function)s(0.5) WITHIN GROUP (ORDER BY %(expressions)s)"


def funnel(scope: Scope) -> Funnel:
    """One query on PostgreSQL — the counts per step and the median time to a confirmed
    booking, over the same rows; two elsewhere (the median from the ordered times)."""
    per_conversation = _per_conversation(scope)
    counts: dict[str, Aggregate] = {
        f"step_{rank}": Count("conversation_id", filter=Q(furthest__gte=rank))
        for rank in range(len(STEPS))
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
    service), and the conversations that asked about each (one pass over the cohort's events,
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
        _cohort_events(scope)
        .filter(service_id__isnull=False)
        .order_by()
        .values("service_id")
        .annotate(conversations=Count("conversation_id", distinct=True))
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


def activity(scope: Scope) -> Activity:
    """Two queries, one pass each: the bookings made in the period (their channels and their
    discounts) and the audit log's entries of the period (its price offers and containment)."""
    # Joined, not asked per appointment: the conversation that links it (at most one), and its
    # one "created" history row.
    in_chat = Q(conversation__isnull=False)
    discounted = Q(status__in=BOOKED, list_price__gt=F("price"))
    made = (
        _made(scope)
        .annotate(
            created=FilteredRelation(
                "events", condition=Q(events__kind=AppointmentEventKind.CREATED)
            )
        )
        .aggregate(
            chat=Count("pk", filter=in_chat),
            booking_page=Count("pk", filter=~in_chat & Q(created__actor_kind=ActorKind.CLIENT)),
            dashboard=Count("pk", filter=~in_chat & Q(created__actor_kind__in=sorted(PEOPLE))),
            total=Count("pk"),
            discounted_bookings=Count("pk", filter=discounted),
            discount_given=Coalesce(
                Sum(F("list_price") - F("price"), filter=discounted),
                Value(ZERO),
                output_field=MONEY,
            ),
        )
    )
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
