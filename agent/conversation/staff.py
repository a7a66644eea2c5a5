"""A person of the business answering in a conversation, from the dashboard.

An escalated conversation is the assistant's way of saying "a person will answer here"; this is
that person's answer. A staff reply is the business's own words: it is not a model's draft, so
no guard rewrites it, and the client reads it in the conversation like any other reply. The
conversation keeps its stage (an escalated one stays with the team) until a person hands it
back to the assistant.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from agent.conversation import facts
from agent.models import Conversation, Message, MessageRole

STAFF_REPLY_CHARACTERS = 4000


class EmptyReply(ValueError):
    pass


def staff_reply(
    *, conversation: Conversation, author, text: str, now: dt.datetime | None = None
) -> Message:
    text = text.strip()
    if not text:
        raise EmptyReply("A reply needs some text.")
    now = now or timezone.now()
    with transaction.atomic():
        # Under the row lock, so the reply lands between turns, never inside one.
        locked = Conversation.objects.select_for_update().get(pk=conversation.pk)
        reply = Message.objects.create(
            conversation=locked,
            role=MessageRole.STAFF,
            text=text[:STAFF_REPLY_CHARACTERS],
            author=author,
        )
        locked.last_message_at = now
        locked.save(update_fields=["last_message_at", "updated_at"])
    return reply


def hand_back_to_assistant(*, conversation: Conversation, now: dt.datetime | None = None) -> str:
    """The assistant answers this escalated conversation again, from where its facts stand.
    Returns the stage it resumes at."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = (
            Conversation.objects.select_for_update(of=("self",))
            .select_related("business", "service", "appointment")
            .get(pk=conversation.pk)
        )
        facts.hand_back(locked, now)
        locked.save()
    return locked.state
