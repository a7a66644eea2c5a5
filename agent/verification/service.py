"""A conversation proves it is one of the business's clients: it gives an email address, the
core sends a one-time code there if a client of this business has that address, and the
client types the code back. Only then is the conversation linked to the client
(``Conversation.verified_client``) and given their details.

Each step runs with the conversation's row locked, so two requests of one conversation are
judged one after the other (a code's tries are counted exactly). The answer to "send me a
code" is the same whether or not the address is on file — nobody learns who is a client by
asking — and the code goes only to the address on file, so typing someone's email gets the
typist nothing. Codes are the client's own command, never a model's: no model sees them.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Sum
from django.template.loader import render_to_string
from django.utils import translation

from agent.conversation.turns import locked_conversation
from agent.models import ClientVerification, Conversation
from agent.verification import codes
from bookings.models import Client

logger = logging.getLogger(__name__)


class TooManyCodes(Exception):
    """This conversation asked for ``codes.CODES_PER_HOUR`` codes in the last hour."""


@dataclass(frozen=True)
class Sent:
    lifetime: dt.timedelta  # how long the code (if one was sent) is good for
    business: str  # the business's name, to say whose records were looked in


@dataclass(frozen=True)
class Checked:
    verdict: codes.Verdict
    attempts_left: int = 0
    name: str = ""  # the verified client's name and masked email, to offer back
    email: str = ""


def code_send(*, token: str, email: str, now: dt.datetime) -> Sent:
    """Send a code to ``email`` if a client of the conversation's business has it; how long a
    code lives either way. A new code replaces the conversation's earlier ones."""
    address = email.strip().lower()
    with transaction.atomic():
        conversation = locked_conversation(token, now)
        hour_ago = now - dt.timedelta(hours=1)
        recent = ClientVerification.objects.filter(
            conversation=conversation, created_at__gt=hour_ago
        ).count()
        # Per address too, across conversations (a new chat is a click away), counted the same
        # whether or not the address is on file: the limit tells nobody who is a client.
        for_address = ClientVerification.objects.filter(
            business=conversation.business, email=address
        )
        sent_to_address = for_address.filter(created_at__gt=hour_ago).count()
        tries_today = for_address.filter(created_at__gt=now - dt.timedelta(days=1)).aggregate(
            tries=Sum("attempts")
        )["tries"]
        if (
            recent >= codes.CODES_PER_HOUR
            or sent_to_address >= codes.CODES_PER_ADDRESS_HOUR
            or (tries_today or 0) >= codes.TRIES_PER_ADDRESS_DAY
        ):
            raise TooManyCodes()
        client = Client.objects.filter(
            business=conversation.business, email__iexact=address
        ).first()
        code, salt = codes.new_code(), codes.new_salt()
        # With no client, the digest is of a code nobody is sent: nothing can match it.
        ClientVerification.objects.create(
            conversation=conversation,
            business=conversation.business,
            client=client,
            email=address,
            digest=codes.digest(code, salt=salt, secret=settings.SECRET_KEY),
            salt=salt,
            expires_at=now + codes.LIFETIME,
            created_at=now,
        )
        conversation.save(update_fields=["updated_at"])
        if client is not None and client.email:
            recipient = client.email  # the address on file, as the business keeps it
            transaction.on_commit(lambda: _send(conversation, recipient, code))
    return Sent(codes.LIFETIME, conversation.business.name)


def code_check(*, token: str, code: str, now: dt.datetime) -> Checked:
    """Judge a typed code against the conversation's latest; a right one links the client."""
    with transaction.atomic():
        conversation = locked_conversation(token, now)
        latest = (
            ClientVerification.objects.select_for_update(of=("self",))
            .filter(conversation=conversation)
            .select_related("client")
            .first()
        )
        if latest is None:
            return Checked(codes.Verdict.NONE_WAITING)
        waiting = codes.Waiting(
            digest=latest.digest,
            salt=latest.salt,
            expires_at=latest.expires_at,
            attempts=latest.attempts,
            used=latest.verified_at is not None,
        )
        verdict = codes.judge(code, waiting, now=now, secret=settings.SECRET_KEY)
        if latest.client is None and verdict is codes.Verdict.VERIFIED:
            verdict = codes.Verdict.WRONG  # a code nobody was sent, guessed: still nobody's
        if verdict is codes.Verdict.WRONG:
            latest.attempts += 1  # a wrong try counts, and is kept even as the request ends
            latest.save(update_fields=["attempts"])
            return Checked(verdict, attempts_left=codes.ATTEMPTS - latest.attempts)
        if verdict is not codes.Verdict.VERIFIED or latest.client is None:
            return Checked(verdict)  # (the second test is for the type checker)
        latest.attempts += 1
        latest.verified_at = now
        latest.save(update_fields=["attempts", "verified_at"])
        _link(conversation, latest.client, now)
        return Checked(
            verdict, name=latest.client.name, email=codes.masked_email(latest.client.email)
        )


def _link(conversation: Conversation, client: Client, now: dt.datetime) -> None:
    """The conversation is this client's: their details are offered back, not asked again."""
    if conversation.verified_client_id not in (None, client.pk):
        # Another client now: nothing chosen or prepared for the one before carries over.
        conversation.subject = None
        conversation.pending_effect = None
    conversation.verified_client = client
    conversation.verified_at = now
    conversation.name = conversation.name or client.name
    conversation.email = conversation.email or client.email
    conversation.phone = conversation.phone or client.phone
    conversation.save()


def _send(conversation: Conversation, email: str, code: str) -> None:
    business = conversation.business
    minutes = int(codes.LIFETIME.total_seconds() // 60)
    with translation.override(business.language):
        text = render_to_string(
            "agent/verification_code.txt",
            {"business": business, "code": code, "minutes": minutes},
        )
    subject, _, body = text.strip().partition("\n")
    try:
        EmailMessage(subject=subject.strip(), body=body.strip() + "\n", to=[email]).send()
    except OSError:
        # The client is told a code is on its way either way; they can ask for another.
        logger.exception("Could not send the verification code of conversation %s", conversation.pk)
