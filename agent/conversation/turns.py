"""One turn of a conversation, in order (docs/architecture.md, "A conversation's turn").

1. Lock the conversation row and read it fresh; bring its stage up to date with the facts
   (a lapsed hold, a deposit paid or released since the last message, a month of silence).
2. Read the message deterministically; fetch the knowledge base unless the turn is routine.
3. The model proposes (bounded attempts; a model that keeps failing hands over to a human).
4. Each proposal passes STRUCTURE → CAPABILITY → POLICY; 5. what passed executes through the
   core, in this transaction; every proposal and verdict is audited. The new stage is computed
   from the columns and checked against the allowed moves; the transaction commits, releasing
   the core's locks before any slow narration.
6. The model narrates the facts (the offline narrator stands in when it cannot); the reply
   guards check the draft against the turn's ledger; 7. the guarded reply and each rewrite are
   stored. While the reply is written the row carries a short lease, so a second message of the
   same conversation is refused (409) instead of interleaving.
8. Loop breakers: consecutive turns of only blocked proposals, or a model failing every
   attempt, hand the conversation to a human — never an endless loop.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext

from agent.actions import Refund
from agent.containment import BLOCK, EXECUTE, Outcome, proposal_label, refund_asked
from agent.conversation import facts, telling
from agent.conversation.claims import TurnInProgress, claimed_elsewhere, conversation_claim
from agent.conversation.execute import Executed, execute
from agent.conversation.language import client_languages, language_after, starting_language
from agent.conversation.policy import ConversationFacts, conversation_policy, service_id_for
from agent.conversation.refusals import plain_refusal
from agent.conversation.row_read import conversation_locked_by_hash, save_changed
from agent.conversation.states import TERMINAL, State, transition
from agent.escalation_alerts import escalation_alert_after_commit
from agent.gates import (
    GateVerdict,
    Stage,
    Structured,
    blocked,
    capability_gate,
    refund_policy_gate,
    structure_gate,
)
from agent.guards import GuardedReply, guard_reply
from agent.guards.ledger import Rewrite
from agent.llm.base import LanguageModel, ModelUnavailable, Narration, Proposed, StepOutcome
from agent.models import AuditEntry, Conversation, GuardRewrite, Message, MessageRole
from agent.offline.model import OfflineModel
from agent.services import audit_entry, granted_actions, refund_facts
from bookings.models import Business
from bookings.row_inserts import insert_rows
from payments.models import PaymentStatus

MAX_PROPOSALS = 4  # per turn; more is refused at STRUCTURE, not silently dropped
MODEL_ATTEMPTS = 3  # calls per turn before the model counts as failed
BLOCKED_TURNS_LIMIT = 3  # consecutive turns of only blocked proposals before a human takes over
REPLY_CHARACTERS = 2000  # a model's own reply beyond this is cut: a chat answer, not a document

Step = tuple[StepOutcome, Executed]


class ConversationNotFound(Exception):
    pass


def reply_lease(now: dt.datetime) -> dt.datetime:
    """Until when a turn's reply may take to write: every narration attempt at the model's
    timeout, and a margin. Past it, a crashed turn no longer blocks the conversation."""
    narration = MODEL_ATTEMPTS * settings.ORDINA_MODEL_TIMEOUT
    return now + dt.timedelta(seconds=narration + 30)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class FromClient:
    """What the client's request brings besides the conversation: the message just typed (with
    the earlier ones, the only source of contact details) and the network address it came from
    (the holds one address may keep are bounded)."""

    text: str = ""
    address: str | None = None


@dataclass
class TurnResult:
    conversation: Conversation
    reply: Message
    outcomes: list[Outcome] = field(default_factory=list)
    executed: list[Executed] = field(default_factory=list)


# --- starting and finding ----------------------------------------------------------------------


def conversation_start(
    *, business: Business, now: dt.datetime | None = None
) -> tuple[Conversation, str, Message]:
    """A new conversation, its token (shown once; only its hash is kept) and the greeting."""
    now = now or timezone.now()
    token = secrets.token_urlsafe(32)  # 256 bits
    with transaction.atomic():
        conversation = Conversation.objects.create(
            business=business,
            token_hash=token_hash(token),
            last_message_at=now,
            language=starting_language(business.language),
        )
        context = facts.quiet_context(conversation, now)
        with translation.override(context.language):
            narration = facts.narration_of(conversation, context, [], payment=None)
            hello = gettext("Hello! I'm the booking assistant of %(business)s.")
            text = f"{hello % {'business': business.name}} {narration.next_step}"
            greeting = reply_store(conversation, text, narration, [])
    return conversation, token, greeting


def conversation_for_token(token: str) -> Conversation:
    found = (
        Conversation.objects.select_related("business", "service", "appointment")
        .filter(token_hash=token_hash(token))
        .first()
    )
    if found is None:
        raise ConversationNotFound()
    return found


def locked_conversation(
    token: str, now: dt.datetime, *, holding_lease: bool = False
) -> Conversation:
    """The conversation row, locked for this transaction and brought up to date. Refused
    while another request writes its reply, unless this request is that one
    (``holding_lease``)."""
    related = ("business", "service", "appointment", "subject")
    hashed = token_hash(token)
    by_token = Conversation.objects.filter(token_hash=hashed)
    # Almost always nobody else has the row: lock and read it with its related rows (and the
    # business's read stamp) in one hand-written query. SKIP LOCKED returns nothing rather
    # than wait, so what it returns was read whole.
    conversation = conversation_locked_by_hash(hashed)
    if conversation is None:
        # Taken (or no such token): wait for the lock, then read in a second query — a lock
        # that waited sees the row as the other transaction left it, but rows joined in the
        # same query would be from before (an appointment just booked would read as none).
        locked = by_token.select_for_update().values_list("pk", flat=True).first()
        if locked is None:
            raise ConversationNotFound()
        conversation = Conversation.objects.select_related(*related).get(pk=locked)
    lease = conversation.reply_lease_until
    # A lease whose request died (its claim gone with its connection) holds nobody back.
    live = lease is not None and lease > now
    if live and not holding_lease and claimed_elsewhere(conversation.token_hash):
        raise TurnInProgress()
    facts.restage(conversation, now)
    return conversation


# --- a turn ------------------------------------------------------------------------------------


def turn_take(
    *,
    token: str,
    text: str,
    model: LanguageModel | None = None,
    now: dt.datetime | None = None,
    address: str | None = None,
    locked: Conversation | None = None,
) -> TurnResult:
    """Answer the client's ``text`` in the conversation ``token`` names; ``address`` is the
    client's network address, where the request has one. ``locked``: the conversation as
    ``locked_conversation(token, now)`` returned it in the caller's open transaction, which
    the turn then is part of (a model that narrates in process only)."""
    if model is None:
        from agent.llm.registry import language_model  # read per turn: settings may change

        model = language_model()
    now = now or timezone.now()
    # ``_turn`` speaks the conversation's language once it has read it; the caller's language
    # is back when the turn is over.
    with translation.override(translation.get_language()):
        if model.narrates_in_process:
            # The offline model answers in microseconds: its turn is one transaction, its row
            # lock all the serialising it needs.
            return _turn(token, FromClient(text, address), model, now, locked)
        if locked is not None:
            raise ValueError("a remote model's turn commits before it narrates: it locks itself")
        # A remote model narrates after the commit (ADR 0005): the claim tells a live turn
        # from a dead one's leftover lease.
        with conversation_claim(token_hash(token)):
            return _turn(token, FromClient(text, address), model, now)


def _turn(
    token: str,
    client: FromClient,
    model: LanguageModel,
    now: dt.datetime,
    locked: Conversation | None = None,
) -> TurnResult:
    in_process = model.narrates_in_process
    text = client.text
    # Locked already: the caller's transaction is the turn's (no savepoint: nothing in it
    # before the lock needs keeping apart).
    with transaction.atomic(savepoint=locked is None):
        conversation = locked if locked is not None else locked_conversation(token, now)
        asked = Message(conversation=conversation, role=MessageRole.CLIENT, text=text)
        if not in_process:
            asked.save()  # kept even if the narration never comes back
        conversation.turns += 1
        conversation.last_message_at = now
        conversation.language = language_after(conversation.language, text, client_languages())
        if State(conversation.state) in TERMINAL:
            # A human has it, or it is over: the model is not asked.
            quiet = facts.quiet_context(conversation, now)
            translation.activate(quiet.language)  # turn_take restores the caller's
            narration = facts.narration_of(conversation, quiet, [], payment=None)
            save_changed(conversation)
            reply = reply_store(conversation, narration.next_step, narration, [], asked)
            return TurnResult(conversation, reply)
        context = facts.turn_context(
            conversation,
            text,
            now,
            history=model.reads_history,
            menu=model.reads_menu,
            current_stored=not in_process,
        )
        # From here on the turn speaks the conversation's language: its refusals, next step and
        # narration (turn_take restores the caller's).
        translation.activate(context.language)
        # What the client asks to be done to their booking is read from their own words,
        # before the model's proposals are judged against it.
        facts.note_requests(conversation, context.reading)
        proposed = _attempt(lambda: model.propose(context))
        steps: list[Step] = []
        if proposed is None:
            _escalate(conversation, f"the model gave no usable answer in {MODEL_ATTEMPTS} tries")
            proposed = Proposed()
        else:
            granted = frozenset(context.actions)
            if proposed.proposals and not granted:  # the model was not shown its menu
                granted = granted_actions(business=conversation.business)
            steps = _run_proposals(conversation, proposed, granted, now, client)
            _count_blocked_turns(conversation, steps)
        facts.restage(conversation, now)
        if conversation.state == State.ESCALATED:
            # The turn began outside the terminal stages, so this escalation is new: the
            # owners hear of it once the turn is committed (agent.escalation_alerts).
            escalation_alert_after_commit(conversation_id=conversation.pk)
        payment = facts.payment_of(conversation)
        narration = facts.narration_of(
            conversation, context, steps, payment=payment, reply=proposed.reply[:REPLY_CHARACTERS]
        )
        if in_process:
            guarded = narrated(conversation, narration, model, payment)
            save_changed(conversation)
            reply = reply_store(conversation, guarded.text, narration, guarded.rewrites, asked)
            return TurnResult(conversation, reply, _outcomes(steps), [d for _o, d in steps])
        # Counted from the commit, not from the turn's start: proposing took its own time.
        lease = reply_lease(max(now, timezone.now()))
        conversation.reply_lease_until = lease
        save_changed(conversation)
    # Outside the transaction: the core's locks are released before a slow narration.
    reply = narrate_and_store(conversation, narration, model=model, payment=payment, lease=lease)
    return TurnResult(conversation, reply, _outcomes(steps), [done for _o, done in steps])


def narrate_and_store(
    conversation: Conversation,
    narration: Narration,
    *,
    model: LanguageModel,
    payment: Any,
    lease: dt.datetime | None = None,
    confirm_key: str | None = None,
) -> Message:
    """Narrate, guard, store, and free the conversation from ``lease`` (only if the lease is
    still this turn's); with ``confirm_key`` the reply is kept as the answer to a repeat of
    that Confirm."""
    guarded = narrated(conversation, narration, model, payment)
    with transaction.atomic():
        reply = reply_store(conversation, guarded.text, narration, guarded.rewrites)
        if confirm_key is not None:
            Conversation.objects.filter(pk=conversation.pk).update(
                confirm_reply=reply, confirm_key=confirm_key
            )
            conversation.confirm_reply, conversation.confirm_key = reply, confirm_key
        if lease is not None:
            Conversation.objects.filter(pk=conversation.pk, reply_lease_until=lease).update(
                reply_lease_until=None
            )
        conversation.reply_lease_until = None
        return reply


def narrated(
    conversation: Conversation, narration: Narration, model: LanguageModel, payment: Any
) -> GuardedReply:
    """The model's draft (the offline narrator standing in when it fails), guarded; written and
    read in the turn's language."""
    with translation.override(narration.turn.language):
        return _guarded_draft(conversation, narration, model, payment)


def _guarded_draft(
    conversation: Conversation, narration: Narration, model: LanguageModel, payment: Any
) -> GuardedReply:
    draft = None
    if conversation.state != State.ESCALATED or narration.outcomes:
        draft = _attempt(lambda: model.narrate(narration))
    offline_draft = draft is None or isinstance(model, OfflineModel)
    if draft is None:
        draft = OfflineModel().narrate(narration)
    # PostgreSQL stores no NUL character: a model's stray one must not fail the reply's write.
    draft = draft.replace("\x00", "")
    # Paid means Stripe confirmed it: not merely "no longer pending" (expired, failed).
    paid = payment is not None and payment.status in (
        PaymentStatus.PAID,
        PaymentStatus.PARTIALLY_REFUNDED,
        PaymentStatus.REFUNDED,
    )
    # The core's own narration of the turn — the offline narrator's, from the facts alone (not
    # the notes, which carry a model's own text): trusted word for word, and told instead of
    # any claim the guards drop.
    facts = telling.turn_facts(
        narration,
        payment_verified=paid,
        paid=payment.amount if paid else None,
        refunded=payment.amount_refunded if payment is not None else Decimal("0"),
        core_narration=draft
        if offline_draft and not narration.notes
        else OfflineModel().narrate(replace(narration, notes=())),
    )
    return guard_reply(draft, facts)


def _attempt[T](call: Callable[[], T]) -> T | None:
    for _attempt in range(MODEL_ATTEMPTS):
        try:
            return call()
        except ModelUnavailable:
            continue
    return None


def _run_proposals(
    conversation: Conversation,
    proposed: Proposed,
    granted: frozenset[str],
    now: dt.datetime,
    client: FromClient,
) -> list[Step]:
    steps: list[Step] = []
    entries: list[AuditEntry] = []
    proposals = list(proposed.proposals)
    extra = len(proposals) - MAX_PROPOSALS
    # Beyond the limit, one more is audited (refused) and the rest only counted in its reason:
    # a runaway model cannot fill the audit log.
    for index, raw in enumerate(proposals[: MAX_PROPOSALS + 1]):
        if index >= MAX_PROPOSALS:
            reason = f"more than {MAX_PROPOSALS} commands in one turn ({extra} refused)"
            done = Executed(blocked(Stage.STRUCTURE, reason))
        else:
            done = judge_and_execute(conversation, raw, granted, now, actor="model", client=client)
        step, entry = judged_step(conversation, raw, done)
        steps.append((step, done))
        entries.append(entry)
    insert_rows(entries)  # in proposal order, in this transaction
    return steps


def judge(
    conversation: Conversation,
    raw: Any,
    granted: frozenset[str],
    now: dt.datetime,
    *,
    actor: str,
    client: FromClient = FromClient(),
) -> tuple[GateVerdict, Structured | None, ConversationFacts | None]:
    """The three gates in series, against the conversation as it is now. Changes nothing.
    Returns the verdict, the typed command (once STRUCTURE passed) and the facts POLICY read."""
    structured = structure_gate(raw)
    if isinstance(structured, GateVerdict):
        return structured, None, None
    verdict = capability_gate(structured.action, granted)
    if not verdict.passed:
        return verdict, structured, None
    # What the client typed is read only for the one rule that needs it: contact details.
    typed = (
        facts.client_words(conversation, client.text)
        if structured.action == "collect_contact"
        else ""
    )
    policy = facts.policy_facts(conversation, now, client_said=typed)
    verdict = conversation_policy(structured, policy, actor=actor)
    if verdict.passed and isinstance(structured.proposal, Refund):
        verdict = refund_policy_gate(
            structured.proposal,
            refund_facts(business=conversation.business, proposal=structured.proposal, now=now),
        )
    return verdict, structured, policy


def judge_and_execute(
    conversation: Conversation,
    raw: Any,
    granted: frozenset[str],
    now: dt.datetime,
    *,
    actor: str,
    client: FromClient = FromClient(),
) -> Executed:
    """Judge ``raw``; carry out through the core what passed."""
    verdict, structured, policy = judge(conversation, raw, granted, now, actor=actor, client=client)
    if not verdict.passed or structured is None or policy is None:
        return Executed(verdict)
    reference = getattr(structured.proposal, "service", None)
    service_id = service_id_for(reference, policy) if isinstance(reference, str) else None
    services = {service.pk: service for service in facts.active_services(conversation.business)}
    done = execute(
        conversation,
        structured,
        services=services,
        service_id=service_id,
        now=now,
        address=client.address,
    )
    if done.verdict.passed and structured.action == "escalate_to_human":
        conversation.state = transition(State(conversation.state), State.ESCALATED)
    return done


def audit(conversation: Conversation, raw: Any, done: Executed) -> StepOutcome:
    """Write the audit entry of one proposal; returns the step as the narration sees it."""
    step, entry = judged_step(conversation, raw, done)
    entry.save()
    return step


def judged_step(
    conversation: Conversation, raw: Any, done: Executed
) -> tuple[StepOutcome, AuditEntry]:
    verdict = done.verdict
    outcome = Outcome(
        action=proposal_label(raw),
        result=EXECUTE if verdict.passed else BLOCK,
        stage=verdict.stage.value if verdict.stage else "",
        reason=verdict.reason,
        money_moved=done.moved,
        # Executed, only a price offer contains money: what the core's answer kept above it.
        money_contained=done.contained if verdict.passed else refund_asked(raw),
    )
    entry = audit_entry(
        business=conversation.business,
        conversation=str(conversation.public_id),
        raw=raw,
        outcome=outcome,
    )
    done.outcome = outcome
    step = StepOutcome(
        action=outcome.action,
        executed=verdict.passed,
        reason=verdict.reason,
        money_moved=outcome.money_moved,
        said=plain_refusal(outcome.action, verdict),
        prepared=done.effect is not None,
    )
    return step, entry


def _outcomes(steps: list[Step]) -> list[Outcome]:
    return [done.outcome for _step, done in steps if done.outcome is not None]


def _count_blocked_turns(conversation: Conversation, steps: list[Step]) -> None:
    if any(step.executed for step, _done in steps):
        conversation.blocked_turns = 0
    elif steps:
        conversation.blocked_turns += 1
        if conversation.blocked_turns >= BLOCKED_TURNS_LIMIT:
            _escalate(conversation, f"{BLOCKED_TURNS_LIMIT} turns in a row with nothing allowed")


def _escalate(conversation: Conversation, reason: str) -> None:
    conversation.escalation_reason = reason
    conversation.state = transition(State(conversation.state), State.ESCALATED)


def reply_store(
    conversation: Conversation,
    text: str,
    narration: Narration,
    rewrites: list[Rewrite],
    asked: Message | None = None,
) -> Message:
    """The reply (after the client's message, when that is not stored yet) and the guards'
    rewrites."""
    reply = Message(
        conversation=conversation,
        role=MessageRole.ASSISTANT,
        text=text,
        choices=telling.choices_for(narration),
    )
    unsaved: list[Message] = [asked] if asked is not None and asked.pk is None else []
    insert_rows([*unsaved, reply])
    if rewrites:
        GuardRewrite.objects.bulk_create(
            GuardRewrite(
                business=conversation.business,
                conversation=str(conversation.public_id),
                guard=rewrite.guard,
                reason=rewrite.reason,
                before=rewrite.before,
                after=rewrite.after,
            )
            for rewrite in rewrites
        )
    return reply
