"""Telling a business's owners that a conversation waits for a person.

A conversation escalates inside a turn's transaction; once that commits, a Celery task
(``agent.tasks.alert_escalation``) emails each owner of the business once per escalation. The
task claims the escalation on the conversation row (``escalation_alerted_at``) under its lock
before sending, so a retried or duplicated task sends nothing twice; a hand-back clears the
claim, and the next escalation alerts again. A lost send is not retried: an owner reads the
waiting count in the dashboard anyway, and two emails for one escalation would teach them to
ignore the third.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from kombu.exceptions import OperationalError

from agent.conversation.states import State
from agent.models import Conversation
from bookings.models import Membership, Role

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Alerted:
    sent: int
    why_not: str = ""


def escalation_alert_after_commit(*, conversation_id: int) -> None:
    """Queue the owners' alert for when the current transaction commits (never for a turn
    that rolls back)."""
    transaction.on_commit(lambda: _queue(conversation_id))


def _queue(conversation_id: int) -> None:
    # Never fails the client's turn, which has committed: with the broker unreachable the
    # owners still see the conversation in the dashboard's waiting count.
    from agent.tasks import alert_escalation

    try:
        alert_escalation.delay(conversation_id)
    except OperationalError:
        logger.warning(
            "Could not queue the escalation alert of conversation %s (the broker is "
            "unreachable); the dashboard's waiting count shows it.",
            conversation_id,
            exc_info=True,
        )


def conversation_url(conversation: Conversation) -> str:
    """The conversation's dashboard page, as an absolute link for an email."""
    return settings.PUBLIC_URL + reverse("admin:agent_conversation_change", args=[conversation.pk])


def owner_emails(*, business_id: int) -> list[str]:
    """The addresses of the business's owners who can still sign in."""
    emails = Membership.objects.filter(
        business_id=business_id, role=Role.OWNER, user__is_active=True
    ).values_list("user__email", flat=True)
    return sorted({email for email in emails if email})


def render(conversation: Conversation) -> tuple[str, str]:
    """Subject and body of the alert."""
    context = {
        "business": conversation.business,
        "client": conversation.name,
        "reason": (conversation.escalation_reason or "the assistant handed it over").rstrip(". "),
        "url": conversation_url(conversation),
    }
    text = render_to_string("agent/escalation_alert.txt", context)
    subject, _, body = text.strip().partition("\n")
    return subject.strip(), body.strip() + "\n"


def escalation_alert(*, conversation_id: int) -> Alerted:
    """Email the owners about this conversation's current escalation, if nobody has yet."""
    with transaction.atomic():
        conversation = (
            Conversation.objects.select_for_update(of=("self",))
            .select_related("business")
            .filter(pk=conversation_id)
            .first()
        )
        if conversation is None:
            return Alerted(0, "the conversation no longer exists")
        if conversation.state != State.ESCALATED:
            return Alerted(0, "the conversation is no longer escalated")
        if conversation.escalation_alerted_at is not None:
            return Alerted(0, "this escalation was alerted already")
        conversation.escalation_alerted_at = timezone.now()
        conversation.save(update_fields=["escalation_alerted_at", "updated_at"])
    recipients = owner_emails(business_id=conversation.business_id)
    if not recipients:
        return Alerted(0, "the business has no owner with an email address")
    subject, body = render(conversation)
    # One message per owner: no owner learns another's address from the To line.
    for email in recipients:
        EmailMessage(subject=subject, body=body, to=[email]).send()
    return Alerted(len(recipients))


def escalations_waiting(*, business_ids: set[int]) -> int:
    """How many conversations of these businesses wait for a person."""
    if not business_ids:
        return 0
    return Conversation.objects.filter(business_id__in=business_ids, state=State.ESCALATED).count()
