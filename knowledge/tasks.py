"""Reading documents and web pages in a Celery worker, never in the owner's request.

A document can be slow to read even within ``knowledge.read_limits`` (pypdf is pure Python) and
a page can take its fetch's full timeout, so the dashboard stores the source as ``reading``
and, after commit, asks for ``read_knowledge_source``. The task claims the source, reads it
through ``knowledge.services`` and stores ready and the text, or failed and the reason. Its
soft time limit (``KNOWLEDGE_READ_SECONDS``) stops a read that runs long and records why; the
hard limit, a little later, kills a read stuck where the soft one cannot reach (inside a C
parser), and the sweep records that one. Both limits are set by the process that asks for the
read and travel in the message (Celery's own rule), so the worker enforces what was asked.

What if the request cannot reach the broker? The save has already committed and must not fail
after the fact, so the failure is logged and the source stays ``reading``: every two minutes
``sweep_knowledge_reads`` (on the beat schedule) asks again for reads that no worker took
within ``REQUEUE_AFTER`` and fails those that a worker started but never finished. A source
therefore stays ``reading`` no longer than a broker outage plus a few minutes (with the
beat running).

The embedded demo has no broker, no worker and no beat: there the sweep would never run. So
``KNOWLEDGE_READ_INLINE`` (on by default only with the embedded database, in
``ordina.settings.local``) runs the same task in the saving process right after commit. That
puts a read back in a request — acceptable for a single-user demo on one's own machine, where
the limits of ``knowledge.read_limits`` still hold and only the time limit is lost; never for a
served deployment, which runs a worker. This module decides when and where a read runs; it
reads nothing and writes nothing itself.
"""

import datetime as dt
import logging

from celery import Task, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from kombu.exceptions import OperationalError

logger = logging.getLogger(__name__)

# Past the soft limit, a read gets this long to record why it stopped before it is killed.
KILL_AFTER_SOFT_LIMIT_SECONDS = 15
# A read no worker took in this time was lost on its way (the broker was down when it was
# asked for); a queue that is merely busy gets a second copy, which its claim makes harmless.
REQUEUE_AFTER = dt.timedelta(minutes=5)
# How long past the hard limit a started, unfinished read is given before the sweep records it
# as failed: it was killed at that limit, or its worker died.
GIVE_UP_MARGIN = dt.timedelta(minutes=1)


def time_limits() -> tuple[int, int]:
    """(soft, hard) seconds a read may take. Read from the settings of the process that asks
    for the read: Celery carries both in the message, and the worker enforces those."""
    soft = settings.KNOWLEDGE_READ_SECONDS
    return soft, soft + KILL_AFTER_SOFT_LIMIT_SECONDS


@shared_task(bind=True)
def read_knowledge_source(self: Task, source_id: int) -> str:
    """Read the source if it is still waiting to be read; returns what became of it."""
    from knowledge import services

    claim = services.knowledge_source_claim_read(source_id=source_id)
    if claim is None:
        return "not waiting"  # read by another copy of this task, changed again, or deleted
    try:
        stored = services.knowledge_source_read_claimed(claim=claim)
    except SoftTimeLimitExceeded:
        # The limit this message carried; a message sent without one ran under Celery's default.
        soft = (self.request.timelimit or (None, None))[1] or self.app.conf.task_soft_time_limit
        services.knowledge_source_fail_read(
            claim=claim, reason=services.read_took_too_long(seconds=int(soft))
        )
        return "failed: too slow"
    except Exception:
        services.knowledge_source_fail_read(claim=claim, reason=services.READ_CRASHED)
        raise  # logged by Celery with its traceback
    return stored or "superseded"


@shared_task(time_limit=120)
def sweep_knowledge_reads() -> dict:
    from knowledge import services

    soft, hard = time_limits()
    result = services.knowledge_reads_sweep(
        requeue_after=REQUEUE_AFTER,
        give_up_after=dt.timedelta(seconds=hard) + GIVE_UP_MARGIN,
        reason=services.read_took_too_long(seconds=soft),
    )
    return {"requeued": result.requeued, "given_up": result.given_up}


def queue_read(source_id: int) -> None:
    """Ask for the source to be read: by a worker, on ``KNOWLEDGE_READ_QUEUE``; or, with
    ``KNOWLEDGE_READ_INLINE``, here and now. Never raises for an unreachable broker."""
    if settings.KNOWLEDGE_READ_INLINE:
        read_knowledge_source.apply(args=[source_id])
        return
    soft, hard = time_limits()
    try:
        read_knowledge_source.apply_async(
            args=[source_id],
            queue=settings.KNOWLEDGE_READ_QUEUE or None,
            soft_time_limit=soft,
            time_limit=hard,
        )
    except OperationalError:
        logger.warning(
            "Could not ask for knowledge source %s to be read (the broker is unreachable); "
            "the sweep asks again within %s.",
            source_id,
            REQUEUE_AFTER,
            exc_info=True,
        )
