"""What a client does by pressing rather than typing: pick one of the times offered, hold a time
from the pick-a-time view, give their details in a form.

Each is the client's own command — not parsed from text, never a model's — judged by the three
gates like any proposal (the business's assistant must be granted it; POLICY with the client
as the actor), carried out through the core, audited, and answered from the facts by the
core's own narration. No model is asked: there is nothing to read. It all happens in one
transaction with the conversation's row locked, as an offline turn does. It is answered in the
conversation's language, whoever calls (the chat API sets it too).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import pgettext

from agent.conversation import facts
from agent.conversation.confirming import ConversationClosed
from agent.conversation.states import TERMINAL, State
from agent.conversation.turns import (
    FromClient,
    TurnResult,
    judge_and_execute,
    judged_step,
    locked_conversation,
    narrated,
    reply_store,
)
from agent.llm.base import StepOutcome
from agent.models import AuditEntry, Message, MessageRole
from agent.offline.model import OfflineModel
from agent.services import granted_actions


class NotOffered(Exception):
    """The slot picked is not one of the times this conversation offers now."""


def slot_pick(
    *, token: str, slot: str, now: dt.datetime | None = None, address: str | None = None
) -> TurnResult:
    """The client picked the offered time ``slot`` (its id): hold it."""
    now = now or timezone.now()

    def proposals(conversation) -> tuple[str, list[dict[str, Any]]]:
        if slot not in conversation.offered or conversation.service_id is None:
            raise NotOffered()
        start = dt.datetime.fromisoformat(slot)
        label = _local_label(conversation, start)
        hold = {"action": "hold_slot", "service": str(conversation.service_id), "start": slot}
        return label, [hold]

    return _client_turn(token, proposals, now, address)


def time_hold(
    *,
    token: str,
    service: int,
    start: dt.datetime,
    now: dt.datetime | None = None,
    address: str | None = None,
) -> TurnResult:
    """The client chose ``service`` at ``start`` in the pick-a-time view: hold it (the core
    holds only a time that is open now)."""
    now = now or timezone.now()

    def proposals(conversation) -> tuple[str, list[dict[str, Any]]]:
        names = {s.pk: s.name for s in facts.active_services(conversation.business)}
        unknown = pgettext("a service picked whose name is not known", "Service")
        label = f"{names.get(service, unknown)}, {_local_label(conversation, start)}"
        hold = {"action": "hold_slot", "service": str(service), "start": start.isoformat()}
        return label, [hold]

    return _client_turn(token, proposals, now, address)


def details_give(
    *,
    token: str,
    name: str = "",
    email: str = "",
    phone: str = "",
    now: dt.datetime | None = None,
    address: str | None = None,
) -> TurnResult:
    """The client typed their details into the form: the same ``collect_contact`` the chat
    makes, with the words they typed (so POLICY finds them as typed)."""
    now = now or timezone.now()
    given = {"name": name.strip(), "email": email.strip(), "phone": phone.strip()}
    given = {field: value for field, value in given.items() if value}

    def proposals(conversation) -> tuple[str, list[dict[str, Any]]]:
        label = " · ".join(given.values())
        # One command per detail: a malformed email is refused without losing the name.
        return label, [
            {"action": "collect_contact", field: value} for field, value in given.items()
        ]

    return _client_turn(token, proposals, now, address)


def _client_turn(token: str, proposals, now: dt.datetime, address: str | None) -> TurnResult:
    # The conversation's language once it is read; the caller's is back when the turn is over.
    with translation.override(translation.get_language()), transaction.atomic():
        conversation = locked_conversation(token, now)
        translation.activate(conversation.language)
        if State(conversation.state) in TERMINAL:
            raise ConversationClosed()
        label, raws = proposals(conversation)
        asked = Message(conversation=conversation, role=MessageRole.CLIENT, text=label)
        conversation.turns += 1
        conversation.last_message_at = now
        granted = granted_actions(business=conversation.business)
        client = FromClient(label, address)
        steps: list[tuple[StepOutcome, Any]] = []
        entries: list[AuditEntry] = []
        for raw in raws:
            done = judge_and_execute(conversation, raw, granted, now, actor="client", client=client)
            step, entry = judged_step(conversation, raw, done)
            steps.append((step, done))
            entries.append(entry)
        AuditEntry.objects.bulk_create(entries)
        facts.restage(conversation, now)
        payment = facts.payment_of(conversation)
        context = facts.quiet_context(
            conversation,
            now,
            message=label,
            reading=facts.message_reading(conversation, label, now),
        )
        narration = facts.narration_of(conversation, context, steps, payment=payment)
        guarded = narrated(conversation, narration, OfflineModel(), payment)
        conversation.save()
        reply = reply_store(conversation, guarded.text, narration, guarded.rewrites, asked)
    outcomes = [done.outcome for _step, done in steps if done.outcome]
    return TurnResult(conversation, reply, outcomes, [done for _step, done in steps])


def _local_label(conversation, start: dt.datetime) -> str:
    from agent.conversation.wording import local_label

    return local_label(start, conversation.business.time_zone)
