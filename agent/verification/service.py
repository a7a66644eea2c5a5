"""A conversation proves it is one of the business's clients: it gives an email address, the
core sends a one-time code there if a client of this business has that address, and the
client types the code back. Only then is the conversation linked to the client
(``Conversation.verified_client``) and given their details.

Each step runs with the conversation's row locked, so two requests of one conversation are
judged one after the other (a code's tries are counted exactly). The answer to "send me a
code" is the same whether or not the address is on file — nobody learns who is a client by
asking — and the code goes only to the address on file, so typing someone's email gets the
typist nothing. Codes are the client's own command, never a model's: no model sees them.

The request does the same work whether or not the address is on file: it writes a row and
queues one Celery task with the row's id. The code is made by the task (``code_deliver``), which
emails it only when the row has a client — so how long the request takes, what it answers and
what it queues tell nobody who is a client, and the code itself never sits in the broker.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from enum import StrEnum

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Sum
from django.template.loader import render_to_string
from django.utils import translation
from kombu.exceptions import OperationalError

from agent.conversation.turns import conversation_start, locked_conversation
from agent.models import ClientVerification, Conversation
from agent.verification import codes
from bookings.models import Appointment, Business, Client

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
        # No code yet (an empty digest matches nothing): the task makes it, for a client or not.
        verification = ClientVerification.objects.create(
            conversation=conversation,
            business=conversation.business,
            client=client,
            email=address,
            digest="",
            salt="",
            expires_at=now + codes.LIFETIME,
            created_at=now,
        )
        conversation.save(update_fields=["updated_at"])
        transaction.on_commit(lambda: _queue_delivery(verification.pk))
    return Sent(codes.LIFETIME, conversation.business.name)


class Delivery(StrEnum):
    """What ``code_deliver`` did with a row."""

    EMAILED = "emailed"  # a code was made and is emailed to the client's address on file
    NOBODY = "nobody"  # a code was made and sent to nobody: no client has the address
    ALREADY_MADE = "already_made"  # a repeated delivery of the task: nothing more
    STALE = "stale"  # replaced, expired or gone before the worker got to it: nothing sent


def code_deliver(*, verification_id: int, now: dt.datetime) -> Delivery:
    """Make the code of a row ``code_send`` wrote, keep its digest, and email it if the row
    names a client. Both kinds of row get the same work (a code made, a digest stored); only
    the email differs, and it leaves from the worker, where no client can time it. A task
    delivered twice makes no second code: the first one's email stays the right one."""
    with transaction.atomic():
        verification = (
            ClientVerification.objects.select_for_update(of=("self",))
            .select_related("client", "business", "conversation")
            .filter(pk=verification_id)
            .first()
        )
        if verification is None:
            return Delivery.STALE
        if verification.digest:
            return Delivery.ALREADY_MADE
        latest_id = (
            ClientVerification.objects.filter(conversation_id=verification.conversation_id)
            .values_list("pk", flat=True)
            .first()
        )
        if latest_id != verification.pk or verification.expires_at <= now:
            return Delivery.STALE
        code, salt = codes.new_code(), codes.new_salt()
        verification.salt = salt
        verification.digest = codes.digest(code, salt=salt, secret=settings.SECRET_KEY)
        verification.save(update_fields=["salt", "digest"])
        client = verification.client
        if client is None or not client.email:
            return Delivery.NOBODY
        recipient = client.email  # the address on file, as the business keeps it
        business = verification.business
        # In the conversation's language: the client asked for the code in this chat.
        language = verification.conversation.language or business.language
        transaction.on_commit(lambda: _send(business, language, recipient, code, verification.pk))
    return Delivery.EMAILED


def _queue_delivery(verification_id: int) -> None:
    # The client is told a code is on its way either way; with the broker unreachable none
    # comes, for a client or a stranger alike, and they can ask again.
    from agent.tasks import deliver_verification_code

    try:
        deliver_verification_code.delay(verification_id)
    except OperationalError:
        logger.warning(
            "Could not queue verification code %s (the broker is unreachable).",
            verification_id,
            exc_info=True,
        )


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
        client_link(conversation=conversation, client=latest.client, now=now)
        return Checked(
            verdict, name=latest.client.name, email=codes.masked_email(latest.client.email)
        )


def conversation_start_for_appointment(
    *, appointment: Appointment, now: dt.datetime
) -> tuple[Conversation, str]:
    """A new conversation at the appointment's business that may act on that appointment, chosen
    already; and its token. For the appointment's manage link, whose token proves the
    appointment — whoever holds it can already cancel or move it on the manage page — but not
    its client: anyone who books with an address gets a link, so the chat is not linked to the
    client, learns none of their details and reaches none of their other bookings. A code to
    the address on file still proves the client."""
    with transaction.atomic():
        conversation, token, _greeting = conversation_start(business=appointment.business, now=now)
        conversation.proven_appointment = appointment
        conversation.subject = appointment
        conversation.save(update_fields=["proven_appointment", "subject"])
    return conversation, token


def client_link(*, conversation: Conversation, client: Client, now: dt.datetime) -> None:
    """The conversation is this client's: their details are offered back, not asked again.
    The one way a conversation becomes a client's, by a code or by their manage link."""
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


def _send(business: Business, language: str, email: str, code: str, verification_id: int) -> None:
    minutes = int(codes.LIFETIME.total_seconds() // 60)
    with translation.override(language):
        text = render_to_string(
            "agent/verification_code.txt",
            {"business": business, "code": code, "minutes": minutes},
        )
    subject, _, body = text.strip().partition("\n")
    try:
        EmailMessage(subject=subject.strip(), body=body.strip() + "\n", to=[email]).send()
    except OSError:
        # The client is told a code is on its way either way; they can ask for another.
        logger.exception("Could not send verification code %s", verification_id)
