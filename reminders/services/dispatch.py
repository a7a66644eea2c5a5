"""The dispatcher: claim due rows, commit, send, mark. At most once per (appointment, kind).

A claim takes due rows with SELECT … FOR UPDATE SKIP LOCKED, marks them "sending" with a lease
and commits, so a second dispatcher running at the same moment takes other rows. Each row is
marked sent (or failed, with the error) right after its own delivery. A claim whose dispatcher
died is retried once its lease has run out: a crash before sending loses nothing and sends
nothing twice; only a crash between the send and its mark can send twice.
"""

import datetime as dt
import logging
from dataclasses import dataclass

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from reminders.delivery import DeliveryFailed, deliver
from reminders.models import Reminder, ReminderStatus

logger = logging.getLogger(__name__)

BATCH = 200
MAX_ATTEMPTS = 5
RETRY_AFTER = dt.timedelta(minutes=2)  # times the attempts so far


@dataclass(frozen=True)
class DispatchResult:
    claimed: int
    sent: int
    failed: int


def claim_due(
    *, now: dt.datetime | None = None, batch: int = BATCH, lease: dt.timedelta | None = None
) -> list[int]:
    """Claim up to ``batch`` due rows (and rows whose claim lapsed) for this dispatcher. The
    lease (REMINDERS_LEASE_SECONDS by default) must outlast sending one batch."""
    now = now or timezone.now()
    lease = lease or dt.timedelta(seconds=settings.REMINDERS_LEASE_SECONDS)
    with transaction.atomic():
        ids = list(
            Reminder.objects.select_for_update(skip_locked=True)
            .filter(
                Q(status=ReminderStatus.PENDING, due_at__lte=now)
                | Q(status=ReminderStatus.SENDING, lease_until__lt=now)
            )
            .order_by("due_at")
            .values_list("id", flat=True)[:batch]
        )
        if ids:
            Reminder.objects.filter(id__in=ids).update(
                status=ReminderStatus.SENDING,
                lease_until=now + lease,
                attempts=F("attempts") + 1,
                updated_at=now,
            )
    return ids


def send_claimed(ids: list[int], *, now: dt.datetime | None = None) -> tuple[int, int]:
    """Deliver the claimed rows; returns (sent, failed)."""
    now = now or timezone.now()
    sent = failed = 0
    claimed = (
        Reminder.objects.filter(id__in=ids, status=ReminderStatus.SENDING)
        .select_related("business", "appointment__service", "appointment__client")
        .order_by("due_at")
    )
    for reminder in claimed:
        try:
            deliver(reminder)
        except DeliveryFailed as problem:
            failed += 1
            retry = reminder.attempts < MAX_ATTEMPTS and problem.retryable
            Reminder.objects.filter(pk=reminder.pk).update(
                status=ReminderStatus.PENDING if retry else ReminderStatus.FAILED,
                due_at=now + RETRY_AFTER * reminder.attempts if retry else reminder.due_at,
                last_error=str(problem),
                lease_until=None,
                updated_at=now,
            )
            continue
        except SoftTimeLimitExceeded:
            raise  # out of time: the rest keep their claim and are taken again after the lease
        except Exception as problem:
            # A bug, or an error type delivery does not know (a provider SDK's): without this
            # the rest of the batch would stay claimed and the row would stop every later batch
            # it is in. Never retried: the message may have left.
            logger.exception("reminders: delivering %s raised", reminder.pk)
            failed += 1
            Reminder.objects.filter(pk=reminder.pk).update(
                status=ReminderStatus.FAILED,
                last_error=f"{type(problem).__name__}: {problem}",
                lease_until=None,
                updated_at=now,
            )
            continue
        sent += 1
        Reminder.objects.filter(pk=reminder.pk).update(
            status=ReminderStatus.SENT, sent_at=timezone.now(), lease_until=None, updated_at=now
        )
    return sent, failed


def dispatch_due(*, now: dt.datetime | None = None, batch: int = BATCH) -> DispatchResult:
    """Claim and send until nothing is due."""
    claimed = sent = failed = 0
    while ids := claim_due(now=now, batch=batch):
        claimed += len(ids)
        batch_sent, batch_failed = send_claimed(ids, now=now)
        sent += batch_sent
        failed += batch_failed
    if claimed:
        logger.info("reminders: claimed %s, sent %s, failed %s", claimed, sent, failed)
    return DispatchResult(claimed, sent, failed)
