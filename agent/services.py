"""The shell's imperative side: read the current state, run a proposal through the gates,
execute what passed through the core's services, and write the audit entry.

Money moves only in ``_execute``, and only through ``payments.services.refund_issue``, which
checks the refund policy again under the payment's row lock — so a repeated proposal is judged
against the state the first one left behind.
"""

import datetime as dt
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import F, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext

from agent import stable_reads
from agent.actions import DEFAULT_GRANTS, GRANTED_BY_TERMS, Refund
from agent.containment import (
    BLOCK,
    EXECUTE,
    Outcome,
    as_recorded,
    proposal_label,
    refund_asked,
)
from agent.gates import (
    APPROVED,
    GateVerdict,
    RefundFacts,
    Stage,
    Structured,
    blocked,
    capability_gate,
    policy_gate,
    structure_gate,
)
from agent.models import AgentGrant, AppointmentReference, AuditEntry
from bookings.actors import Actor
from bookings.models import Appointment, AppointmentStatus, Business
from bookings.selectors import negotiation_enabled
from payments import stripe_api
from payments.models import Payment
from payments.services import RefundRefused, refund_issue
from payments.services.refunds import refund_state


def granted_actions(*, business: Business) -> frozenset[str]:
    """What the business's agent may propose: its grant rows, and ``offer_price`` exactly
    while the business negotiates — the owner's negotiation switch is its one control, so the
    capability can never disagree with the terms (a row for it is neither needed nor enough)."""
    granted = stable_reads.stored_grants(business, GRANTED_BY_TERMS)
    if stable_reads.read_stamp(business) is not None:
        # Read with the conversation's row: the services kept in the process answer it.
        negotiates = stable_reads.negotiates(business)
    else:
        negotiates = negotiation_enabled(business)
    return granted | GRANTED_BY_TERMS if negotiates else granted


def grants_set(*, business: Business, actions: frozenset[str] = DEFAULT_GRANTS) -> None:
    """Grant exactly ``actions`` to the business's agent (the defaults unless told); what the
    negotiation terms grant is not stored."""
    actions = actions - GRANTED_BY_TERMS
    with transaction.atomic():
        AgentGrant.objects.filter(business=business).exclude(action__in=actions).delete()
        AgentGrant.objects.bulk_create(
            [AgentGrant(business=business, action=action) for action in sorted(actions)],
            ignore_conflicts=True,
        )


# Appointments a client is (or was) booked for: the price agreed for them was given.
BOOKED = (
    AppointmentStatus.PENDING_PAYMENT,
    AppointmentStatus.CONFIRMED,
    AppointmentStatus.ATTENDED,
    AppointmentStatus.NO_SHOW,
)


def discount_given(*, businesses: QuerySet[Any, Any]) -> Decimal:
    """List price − agreed price, summed over the booked appointments of ``businesses`` (ids)
    that were booked below their list price; one query."""
    total = Appointment.objects.filter(
        business__in=businesses, status__in=BOOKED, list_price__gt=F("price")
    ).aggregate(given=Sum(F("list_price") - F("price")))["given"]
    return total or Decimal("0")


def appointment_by_reference(*, business: Business, reference: str) -> Appointment | None:
    found = (
        AppointmentReference.objects.filter(business=business, reference=reference)
        .select_related("appointment__business")
        .first()
    )
    return found.appointment if found else None


def refund_facts(*, business: Business, proposal: Refund, now: dt.datetime) -> RefundFacts:
    appointment = appointment_by_reference(business=business, reference=proposal.appointment)
    if appointment is None:
        return RefundFacts(state=None, now=now)
    payment = Payment.objects.filter(appointment=appointment).first()
    return RefundFacts(state=refund_state(appointment, payment), now=now)


def proposal_judge(
    *, business: Business, raw: Any, now: dt.datetime | None = None
) -> tuple[GateVerdict, Structured | None]:
    """The gates' verdict on ``raw`` against the current database; changes nothing."""
    now = now or timezone.now()
    structured = structure_gate(raw)
    if isinstance(structured, GateVerdict):
        return structured, None
    verdict = capability_gate(structured.action, granted_actions(business=business))
    if not verdict.passed:
        return verdict, structured
    facts = None
    if isinstance(structured.proposal, Refund):
        facts = refund_facts(business=business, proposal=structured.proposal, now=now)
    return policy_gate(structured, facts), structured


def proposal_run(
    *,
    business: Business,
    raw: Any,
    execute: bool = True,
    conversation: str | None = None,
    now: dt.datetime | None = None,
) -> Outcome:
    """Judge ``raw``; unless ``execute`` is False, carry out what passed and audit it. A dry
    run writes nothing at all, the audit log included."""
    now = now or timezone.now()
    verdict, structured = proposal_judge(business=business, raw=raw, now=now)
    moved = Decimal("0")
    if verdict.passed and structured is not None and execute:
        verdict, moved = _execute(business, structured, now)
    outcome = Outcome(
        action=proposal_label(raw),
        result=EXECUTE if verdict.passed else BLOCK,
        stage=verdict.stage.value if verdict.stage else "",
        reason=verdict.reason,
        money_moved=moved,
        money_contained=Decimal("0") if verdict.passed else refund_asked(raw),
    )
    if execute:
        audit_record(business=business, conversation=conversation, raw=raw, outcome=outcome)
    return outcome


def audit_record(
    *, business: Business, conversation: str | None, raw: Any, outcome: Outcome
) -> AuditEntry:
    entry = audit_entry(business=business, conversation=conversation, raw=raw, outcome=outcome)
    entry.save()
    return entry


def audit_entry(
    *, business: Business, conversation: str | None, raw: Any, outcome: Outcome
) -> AuditEntry:
    """The audit entry of one judged proposal, not yet saved (a turn saves its entries
    together)."""
    return AuditEntry(
        business=business,
        conversation=conversation,
        proposal=as_recorded(raw),
        action=outcome.action if isinstance(raw, dict) else "",
        result=outcome.result,
        stage=outcome.stage,
        reason=outcome.reason,
        money_moved=outcome.money_moved,
        money_contained=outcome.money_contained,
    )


def _execute(
    business: Business, structured: Structured, now: dt.datetime
) -> tuple[GateVerdict, Decimal]:
    proposal = structured.proposal
    if isinstance(proposal, Refund):
        return refund_execute(business=business, proposal=proposal, now=now)
    # escalate_to_human and send_message: the audit entry is their record; a human picks the
    # escalation up from the log, and the conversation (not a batch) delivers messages.
    return APPROVED, Decimal("0")


def refund_execute(
    *, business: Business, proposal: Refund, now: dt.datetime, actor: Actor | None = None
) -> tuple[GateVerdict, Decimal]:
    """Issue a refund the gates passed; the payments service judges it again under the
    payment's row lock, so a refusal there is still a POLICY block. ``actor``: whose hand it
    is (the client pressing a refund card in chat; the assistant in a batch replay)."""
    nothing = Decimal("0")
    appointment = appointment_by_reference(business=business, reference=proposal.appointment)
    if appointment is None:
        return blocked(Stage.POLICY, f"appointment {proposal.appointment} does not exist"), nothing
    try:
        refund = refund_issue(
            appointment=appointment,
            amount=proposal.amount,
            actor=actor or Actor.assistant(),
            reason="proposed by the assistant",
            now=now,
        )
    except RefundRefused as refusal:
        # The state moved between the gate and the lock (another refund won the race).
        return blocked(Stage.POLICY, refusal.reason, refusal.reason), nothing
    except stripe_api.StripeUnavailable as outage:
        unavailable = gettext("Refunds are unavailable at the moment; please try again shortly.")
        return GateVerdict(False, None, f"not executed: {outage}", unavailable), nothing
    return APPROVED, refund.amount
