"""The code-delivery task answers every row it may be handed — gone, repeated, replaced or
expired before the worker got to it — by sending nothing more than one code to the address on
file, and never raises."""

import datetime as dt

import pytest
from django.core import mail

from agent.conversation.turns import conversation_start
from agent.models import ClientVerification
from agent.verification.service import Delivery, code_deliver, code_send
from bookings.services import ClientDetails, appointment_create
from tests.agent.conversation.conftest import NOW, WEDNESDAY, lisbon

pytestmark = pytest.mark.usefixtures("frozen_now")


@pytest.fixture
def asked(shop, haircut):
    """A conversation that asked for a code for a client's address; the task not yet run."""
    appointment_create(
        service=haircut,
        start=lisbon(WEDNESDAY, "10:00"),
        client=ClientDetails(name="Ana Pérez", email="ana@example.com"),
        now=NOW,
    )
    _conversation, token, _greeting = conversation_start(business=shop)
    code_send(token=token, email="ana@example.com", now=NOW)  # queued on commit: not run here
    return token


def test_a_row_that_is_gone_sends_nothing(db):
    assert code_deliver(verification_id=987_654, now=NOW) is Delivery.STALE
    assert mail.outbox == []


def test_a_repeated_delivery_sends_one_code(asked, django_capture_on_commit_callbacks):
    row = ClientVerification.objects.get()

    with django_capture_on_commit_callbacks(execute=True):  # the email leaves on commit
        first = code_deliver(verification_id=row.pk, now=NOW)
        again = code_deliver(verification_id=row.pk, now=NOW)

    assert (first, again) == (Delivery.EMAILED, Delivery.ALREADY_MADE)
    assert len(mail.outbox) == 1


def test_a_replaced_or_expired_row_sends_nothing(asked, django_capture_on_commit_callbacks):
    earlier = ClientVerification.objects.get()
    code_send(token=asked, email="ana@example.com", now=NOW)
    latest = ClientVerification.objects.exclude(pk=earlier.pk).get()
    late = latest.expires_at + dt.timedelta(seconds=1)

    with django_capture_on_commit_callbacks(execute=True):
        replaced = code_deliver(verification_id=earlier.pk, now=NOW)
        expired = code_deliver(verification_id=latest.pk, now=late)

    assert (replaced, expired) == (Delivery.STALE, Delivery.STALE)
    assert mail.outbox == []
