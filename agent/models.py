"""The assistant's tables: what each business's agent may propose (its grants), the references
clients and the model use for appointments, and the append-only audit log of every proposal."""

import uuid
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import F, Q

from agent.actions import MENU, NEVER_GRANTED
from agent.conversation.states import State
from bookings.models import Appointment, Business, Client, Service
from bookings.models.base import TimeStampedModel, money_field

STATE_CHOICES = [(state.value, state.value.replace("_", " ")) for state in State]
ACTION_CHOICES = [(name, name.replace("_", " ")) for name in MENU]


class AgentGrant(TimeStampedModel):
    """One command this business's agent may propose. No row, no capability."""

    business_path = "business"

    business = models.ForeignKey(Business, on_delete=models.CASCADE, related_name="agent_grants")
    action = models.CharField(max_length=40, choices=ACTION_CHOICES)

    class Meta:
        ordering = ["business", "action"]
        constraints = [
            models.UniqueConstraint(
                fields=["business", "action"],
                name="agent_grant_unique_action",
                violation_error_message="This action is already granted.",
            ),
            models.CheckConstraint(
                condition=~Q(action__in=sorted(NEVER_GRANTED)),
                name="agent_grant_never_dangerous",
                violation_error_message="A booking agent is never granted this action.",
            ),
        ]

    def __str__(self) -> str:
        return self.action


class AppointmentReference(models.Model):
    """A human reference for an appointment ("A-1001"), as clients and the model name it."""

    business = models.ForeignKey(Business, on_delete=models.CASCADE, related_name="+")
    appointment = models.OneToOneField(
        Appointment, on_delete=models.CASCADE, related_name="reference"
    )
    reference = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["business", "reference"], name="appointment_reference_unique"
            ),
        ]

    def __str__(self) -> str:
        return self.reference


class AuditResult(models.TextChoices):
    EXECUTE = "EXECUTE", "Executed"
    BLOCK = "BLOCK", "Blocked"


class AuditStage(models.TextChoices):
    STRUCTURE = "STRUCTURE", "Structure"
    CAPABILITY = "CAPABILITY", "Capability"
    POLICY = "POLICY", "Policy"


class AuditEntry(models.Model):
    """Every proposal the agent made, what the gates said and what moved. Append-only: the
    model refuses updates and deletes, and a database trigger refuses them for any writer."""

    business_path = "business"
    append_only = True

    business = models.ForeignKey(Business, on_delete=models.PROTECT, related_name="+")
    conversation = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    proposal = models.JSONField(encoder=DjangoJSONEncoder, help_text="As the model proposed it.")
    action = models.CharField(max_length=64, blank=True, help_text="Blank for free text.")
    result = models.CharField(max_length=10, choices=AuditResult.choices)
    stage = models.CharField(max_length=10, choices=AuditStage.choices, blank=True)
    reason = models.TextField()
    money_moved = money_field("money moved", default=Decimal("0"))
    money_contained = money_field("money contained", default=Decimal("0"))
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name_plural = "audit entries"
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["business", "created_at"], name="audit_by_business")]
        constraints = [
            models.CheckConstraint(
                condition=Q(money_moved__gte=0, money_contained__gte=0),
                name="audit_money_not_negative",
            ),
            models.CheckConstraint(
                # An answered price offer contains what the core did not give up: the gap
                # between the offer and the price it named (agent.conversation.bargaining).
                condition=Q(result=AuditResult.EXECUTE, stage="", money_contained=0)
                | Q(result=AuditResult.EXECUTE, stage="", action="offer_price")
                | Q(result=AuditResult.BLOCK, money_moved=0),
                name="audit_result_consistent",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.action or '(free text)'}: {self.result}"

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ValidationError("The audit log is append-only; add a new entry instead.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValidationError("The audit log is append-only; entries are never deleted.")


# --- conversations ------------------------------------------------------------------------------


class Conversation(TimeStampedModel):
    """One client's chat with a business's assistant. Every piece of booking state lives in
    these columns, read fresh and written back by each turn under a row lock: nothing is kept
    in a process between messages, so a restart or a week's silence loses nothing.

    The client holds a random token (returned once, at the start); only its SHA-256 is stored.
    """

    business_path = "business"

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    business = models.ForeignKey(Business, on_delete=models.CASCADE, related_name="conversations")
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    state = models.CharField(max_length=20, choices=STATE_CHOICES, default=State.GREETING)
    service = models.ForeignKey(
        Service, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    offered = models.JSONField(
        default=list, blank=True, help_text="Slot starts the assistant offered (UTC, ISO 8601)."
    )
    held_start = models.DateTimeField(null=True, blank=True)
    held_until = models.DateTimeField(null=True, blank=True)
    name = models.CharField(max_length=120, blank=True)
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=32, blank=True, help_text="E.164")
    appointment = models.OneToOneField(
        Appointment,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="conversation",
    )
    # The reply to the client's last Confirm (of a booking or of an effect card) and the
    # conversation-scoped Idempotency-Key it answered: the same request again gets it back.
    confirm_reply = models.ForeignKey(
        "Message", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    confirm_key = models.CharField(max_length=100, blank=True)
    # What the client asked, in their own words, to be done to their booking or with money in
    # this conversation ("cancel", "move", "refund"): the assistant may prepare only those.
    asked = models.JSONField(default=list, blank=True)
    # The cancel, move or refund card shown to the client, waiting for their press.
    pending_effect = models.JSONField(null=True, blank=True)
    # A held time whose hold ran out, kept until the next reply has told the client.
    lapsed_start = models.DateTimeField(null=True, blank=True)
    escalation_reason = models.TextField(blank=True)
    # When the business's owners were emailed about the current escalation: claimed by the alert
    # task under the row lock, so a retried or duplicated task sends nothing twice; cleared on
    # hand-back, so the next escalation alerts again.
    escalation_alerted_at = models.DateTimeField(null=True, blank=True)
    # The turn whose reply offered the client a person (``offer_person``): the next message
    # may take it up with a plain "yes"; any later one finds the offer gone.
    person_offered_turn = models.PositiveIntegerField(null=True, blank=True)
    # A price negotiation (agent.conversation.bargaining): for which service, the counters the
    # core has given, its current ask and the price agreed. Choosing another service resets
    # it; a price reached under last-minute terms is for ``negotiation_slot`` only.
    negotiation_service = models.ForeignKey(
        Service, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    negotiation_rounds = models.PositiveSmallIntegerField(default=0)
    negotiation_ask = money_field("current ask", null=True, blank=True)
    agreed_price = money_field("agreed price", null=True, blank=True)
    negotiation_slot = models.DateTimeField(null=True, blank=True)
    # The business's client this conversation proved to be (a one-time code sent to the email
    # on file, agent.verification): only then may it be told of their bookings.
    verified_client = models.ForeignKey(
        Client, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    verified_at = models.DateTimeField(null=True, blank=True)
    # The verified client's appointment this conversation acts on (cancel, move, refund, "is it
    # paid?"), chosen in chat; empty: it acts on its own booking (``appointment``), if any.
    # Unlike ``appointment`` it says nothing of what this conversation booked: the funnel and
    # the stage never read it.
    subject = models.ForeignKey(
        Appointment, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The one appointment this conversation was opened for from its manage link: the link's
    # token proves that appointment, not its client (anyone who books with an address gets a
    # link), so the chat may act on it alone and is told nothing of the client's others.
    proven_appointment = models.ForeignKey(
        Appointment, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The language the assistant writes in: the business's when the chat starts, switched to
    # the client's when they clearly write in another supported language (settings.LANGUAGES).
    language = models.CharField(max_length=8, default="en")
    turns = models.PositiveIntegerField(default=0)
    # Loop breaker: consecutive turns in which every proposal was blocked. Reset by a turn
    # that executes something; at its limit a human takes over. (A model that fails is retried
    # within the turn and hands over at once: nothing to count across turns.)
    blocked_turns = models.PositiveIntegerField(default=0)
    # While a turn's reply is being narrated (outside the transaction that executed it), the
    # conversation is taken: a second message waits for it to finish or the lease to lapse.
    reply_lease_until = models.DateTimeField(null=True, blank=True)
    last_message_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["business", "state"], name="conversation_by_state")]
        constraints = [
            models.CheckConstraint(
                condition=Q(held_start__isnull=True, held_until__isnull=True)
                | Q(held_start__isnull=False, held_until__isnull=False),
                name="conversation_hold_whole",
                violation_error_message="A held slot has both a start and an expiry.",
            ),
            models.CheckConstraint(
                condition=(Q(negotiation_ask__isnull=True) | Q(negotiation_ask__gt=0))
                & (Q(agreed_price__isnull=True) | Q(agreed_price__gt=0)),
                name="conversation_negotiated_prices_positive",
                violation_error_message="A negotiated price is more than 0.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name or 'Client'} · {self.get_state_display()}"

    @property
    def acted_on(self) -> Appointment | None:
        """The appointment a cancel, move, refund or payment of this conversation is about:
        the one it chose, while that is still its verified client's here (or the one its
        manage link proved); else its own."""
        chosen = self.subject
        if chosen is None or chosen.business_id != self.business_id:
            return self.appointment
        if self.verified_client_id is not None and chosen.client_id == self.verified_client_id:
            return chosen
        if chosen.pk == self.proven_appointment_id:
            return chosen
        return self.appointment

    @property
    def holder(self) -> str:
        """The name this conversation's slot holds go by in the booking core."""
        return f"conversation:{self.public_id}"


class MessageRole(models.TextChoices):
    CLIENT = "client", "Client"
    ASSISTANT = "assistant", "Assistant"
    STAFF = "staff", "Staff"  # a person of the business, answering in the dashboard


class Message(models.Model):
    """One message of a conversation, as the client typed it or as the guards let it out."""

    business_path = "conversation__business"

    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="messages"
    )
    role = models.CharField(max_length=10, choices=MessageRole.choices)
    text = models.TextField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="Who wrote a staff reply.",
    )
    # What the widget shows beside an assistant's text: slots to pick, the booking to confirm,
    # where to pay. Built by the core, never by the model.
    choices = models.JSONField(encoder=DjangoJSONEncoder, default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["conversation", "id"], name="message_by_conversation")]

    def __str__(self) -> str:
        return f"{self.role}: {self.text[:60]}"


class GuardRewrite(models.Model):
    """What a reply guard changed in a draft before it reached the client. Append-only, like
    the audit log it belongs to."""

    business_path = "business"
    append_only = True

    business = models.ForeignKey(Business, on_delete=models.PROTECT, related_name="+")
    conversation = models.CharField(max_length=64, db_index=True)
    guard = models.CharField(max_length=40)
    reason = models.TextField()
    before = models.TextField()
    after = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.guard}: {self.reason}"

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ValidationError("Guard rewrites are append-only; add a new entry instead.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValidationError("Guard rewrites are append-only; entries are never deleted.")


class ConversationStageEvent(models.Model):
    """One move of a conversation's stage, as it happened: the funnel's raw material (the
    analytics app counts it; nothing here decides anything). Append-only, like the audit log.

    Written by the database itself, in the same statement as the conversation row's change
    (agent/migrations/0011): an insert records the conversation's start (``previous_stage``
    blank) and every update that changes ``state`` records the move, whichever code or SQL
    made it — no writer of the stage can forget to record it. Rows derived for conversations
    older than that (agent/migrations/0012) are marked ``backfilled``.
    """

    business_path = "business"
    append_only = True

    conversation = models.ForeignKey(
        Conversation, on_delete=models.PROTECT, related_name="stage_events"
    )
    business = models.ForeignKey(Business, on_delete=models.PROTECT, related_name="+")
    # The service being booked at the time. No database constraint: a service may be deleted
    # (a conversation lets it go), and history names what was asked about all the same.
    service = models.ForeignKey(
        Service,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        null=True,
        blank=True,
        related_name="+",
    )
    stage = models.CharField(max_length=20, choices=STATE_CHOICES)
    previous_stage = models.CharField(
        max_length=20, choices=STATE_CHOICES, blank=True, help_text="Blank: the start."
    )
    occurred_at = models.DateTimeField()
    backfilled = models.BooleanField(
        default=False, help_text="Derived later from what the conversation kept, not recorded."
    )

    class Meta:
        ordering = ["occurred_at", "id"]
        indexes = [
            models.Index(fields=["business", "occurred_at"], name="stage_event_by_business"),
            models.Index(fields=["conversation", "occurred_at"], name="stage_event_by_conv"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~Q(stage=F("previous_stage")),
                name="stage_event_is_a_move",
                violation_error_message="A stage event moves to another stage.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.previous_stage or 'start'} → {self.stage}"

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ValidationError("Stage events are append-only; add a new event instead.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValidationError("Stage events are append-only; events are never deleted.")


class ConversationReach(models.Model):
    """How far one conversation got, kept up to date by the database from its stage events
    (agent/migrations/0014): a trigger on every event inserted raises ``furthest`` and sets
    the start and the first confirmation — so the funnel of a period reads one short row per
    conversation instead of grouping every event again. Derived, never written by the
    application: the events stay the record; this is their running summary."""

    business_path = "business"

    conversation = models.OneToOneField(
        Conversation, on_delete=models.CASCADE, primary_key=True, related_name="reach"
    )
    business = models.ForeignKey(Business, on_delete=models.PROTECT, related_name="+")
    started_at = models.DateTimeField(null=True, help_text="Empty: its start was never recorded.")
    # The rank in the funnel's steps (agent.conversation.stage_backfill.STEPS) of the furthest
    # step reached; -1 when only stages outside the steps were (escalated before a greeting).
    furthest = models.SmallIntegerField()
    confirmed_at = models.DateTimeField(null=True, help_text="Its first confirmation.")

    class Meta:
        # Only columns that never change once set are indexed: a move then rewrites the row in
        # its own page (a "HOT" update) without touching the index.
        indexes = [models.Index(fields=["business", "started_at"], name="reach_by_start")]

    def __str__(self) -> str:
        return f"conversation {self.conversation_id}: step {self.furthest}"


class ConversationServiceAsked(models.Model):
    """A service a conversation was about at some step (one row per pair, however many steps),
    kept by the same trigger as its reach, with the conversation's business and start copied
    so a period's demand per service is read from one index."""

    business_path = "business"

    reach = models.ForeignKey(
        ConversationReach,
        on_delete=models.CASCADE,
        db_column="conversation_id",
        related_name="services_asked",
    )
    # As on the events: no database constraint, a deleted service is still counted as asked.
    service = models.ForeignKey(
        Service, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    business = models.ForeignKey(Business, on_delete=models.PROTECT, related_name="+")
    started_at = models.DateTimeField(null=True, help_text="The conversation's start.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["reach", "service"], name="service_asked_once"),
        ]
        indexes = [
            models.Index(
                fields=["business", "started_at", "service"], name="service_asked_by_start"
            ),
        ]

    def __str__(self) -> str:
        return f"conversation {self.reach_id} asked about service {self.service_id}"


class ClientVerification(models.Model):
    """A one-time code a conversation asked for, to prove it is one of the business's clients
    (agent.verification). Only the code's digest is kept. A row is written even when no client
    has the address given — no code is sent then, and no code matches — so the answer, the
    limits and the record are the same whether the address is on file or not."""

    business_path = "business"

    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="verifications"
    )
    business = models.ForeignKey(Business, on_delete=models.CASCADE, related_name="+")
    client = models.ForeignKey(
        Client,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        help_text="Empty: no client of the business has that address (no code was sent).",
    )
    email = models.EmailField(help_text="The address the conversation gave.")
    digest = models.CharField(max_length=64, editable=False)
    salt = models.CharField(max_length=32, editable=False)
    expires_at = models.DateTimeField()
    attempts = models.PositiveSmallIntegerField(default=0)
    verified_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["conversation", "created_at"], name="verification_by_conv"),
        ]

    def __str__(self) -> str:
        return f"code for {self.email}"


class BusinessStamp(models.Model):
    """A version stamp of what a turn reads of a business and what rarely changes: its services,
    opening hours, agent grants and knowledge sources (agent.stable_reads caches them in the
    process, keyed by this stamp). Database triggers on those tables (migration 0020) give the
    business a new stamp on every insert, update or delete of one of its rows, whoever writes
    it (the admin, a service, a bulk ``QuerySet.update``, the knowledge refresher, raw SQL), so
    no writer can forget. Stamps come from a sequence (PostgreSQL) or are random (SQLite):
    never reused, even after a rollback, so a stamp names one state of those rows.

    No foreign key: a trigger may stamp a business in the statement that deletes it."""

    business_id = models.BigIntegerField(primary_key=True)
    version = models.BigIntegerField()

    def __str__(self) -> str:
        return f"business {self.business_id} · {self.version}"
