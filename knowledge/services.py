"""The one door through which a knowledge source's text is written.

A source's ``text``, ``status``, ``error`` and ``fetched_at`` change together in one statement,
or not at all: a reader never sees new text beside an old error, nor half a refresh.

Two ways in. ``knowledge_source_create`` reads in the calling process and stores only what it
read — for scripts, benchmarks and tests that build a knowledge base in one go. The dashboard
saves through ``knowledge_source_save``: text written there is read at once (it cannot expand),
while a new document or web page is stored as ``reading``, with no text, and read by a worker
after commit (``knowledge.tasks``). The worker claims the source, reads it, and stores the
result only if its claim still stands, so a read of an input the owner has since replaced is
dropped rather than stored beside the new input.
"""

import datetime as dt
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone

from knowledge import tasks
from knowledge.extract import UnreadableSource
from knowledge.models import KnowledgeSource, SourceKind, SourceStatus
from knowledge.reading import source_text

# What the owner edits; the rest is written only when the input is read.
OWNER_FIELDS = ["business", "kind", "title", "body", "file", "url", "is_active"]
# Read in the owner's request: text written in the dashboard is at most MAX_TEXT_CHARS and
# expands to nothing. Every other kind is read by a worker.
READ_AT_ONCE = {SourceKind.TEXT}
READ_CRASHED = (
    "Reading failed with an unexpected error; try “Fetch and read again”, and if it fails "
    "again, paste the text instead."
)


def read_took_too_long(*, seconds: int) -> str:
    return (
        f"Reading took longer than {seconds} s and was stopped: the file or page is too large "
        "or too complex to read. Split it into smaller files, or paste its text instead."
    )


@dataclass(frozen=True)
class ReadClaim:
    """A worker's hold on one reading of a source: its result is stored only while the row
    still carries ``started_at``."""

    source: KnowledgeSource
    started_at: dt.datetime


@dataclass(frozen=True)
class SweepResult:
    requeued: int
    given_up: int


def _ready(text: str) -> dict[str, Any]:
    return {"text": text, "status": SourceStatus.READY, "error": "", "fetched_at": timezone.now()}


def _failed(reason: str) -> dict[str, Any]:
    # The last text read from this input, if any, stays for the owner to see; a failed source
    # is never shown to the assistant (knowledge.selectors).
    return {"status": SourceStatus.FAILED, "error": reason}


def _reading(*, keep_text: bool) -> dict[str, Any]:
    changes: dict[str, Any] = {
        "status": SourceStatus.READING,
        "error": "",
        "read_requested_at": timezone.now(),
        "read_started_at": None,
    }
    if not keep_text:  # a new input: nothing read from the old one may stand beside it
        changes |= {"text": "", "fetched_at": None}
    return changes


def knowledge_source_create(**fields) -> KnowledgeSource:
    """A new source, read in this process first. Raises ``UnreadableSource``; nothing is stored
    then."""
    source = KnowledgeSource(**fields)
    for field, value in _ready(source_text(source)).items():
        setattr(source, field, value)
    source.full_clean()
    source.save()
    return source


@transaction.atomic
def knowledge_source_save(*, source: KnowledgeSource, input_changed: bool) -> KnowledgeSource:
    """Store ``source``, new or changed, as the dashboard does. With ``input_changed`` (always,
    for a new source) its input is read: text written here at once — raising
    ``UnreadableSource``, with nothing stored — and a document or page by a worker after
    commit, the source ``reading`` until then. Otherwise what was read stays as it was."""
    if not input_changed:
        if source.pk is None:
            raise ValueError("A new knowledge source must be read before it is stored.")
        source.full_clean()
        # Leave the read fields to whoever last wrote them (a worker, say).
        source.save(update_fields=[*OWNER_FIELDS, "updated_at"])
        return source
    if source.kind in READ_AT_ONCE:
        changes = _ready(source_text(source))
    else:
        changes = _reading(keep_text=False)
    for field, value in changes.items():
        setattr(source, field, value)
    source.full_clean()
    source.save()
    if source.status == SourceStatus.READING:
        transaction.on_commit(partial(tasks.queue_read, source.pk))
    return source


@transaction.atomic
def knowledge_source_read_again(*, source: KnowledgeSource) -> KnowledgeSource:
    """Read ``source``'s stored input again (a web page changes; a failed read is retried).

    Text written here is read at once. A document or page becomes ``reading`` and goes to a
    worker; the text last read from this same input is kept meanwhile (for the owner, not the
    assistant). Only the read fields are written, so an edit saved meanwhile is not undone."""
    changes: dict[str, Any]
    if source.kind in READ_AT_ONCE:
        try:
            changes = _ready(source_text(source))
        except UnreadableSource as failure:
            changes = _failed(str(failure))
    else:
        changes = _reading(keep_text=True)
    KnowledgeSource.objects.filter(pk=source.pk).update(**changes, updated_at=timezone.now())
    for field, value in changes.items():
        setattr(source, field, value)
    if source.status == SourceStatus.READING:
        transaction.on_commit(partial(tasks.queue_read, source.pk))
    return source


# --- the worker's side -----------------------------------------------------------------------


def knowledge_source_claim_read(*, source_id: int) -> ReadClaim | None:
    """Take the source's waiting read for this worker, or None when it is not waiting (read
    already by another copy of the task, being read, or deleted)."""
    started_at = timezone.now()
    claimed = KnowledgeSource.objects.filter(
        pk=source_id, status=SourceStatus.READING, read_started_at__isnull=True
    ).update(read_started_at=started_at)
    if not claimed:
        return None
    # The input as it stands under this claim; if the owner replaced it in between, the row
    # no longer carries the claim and nothing is read.
    source = KnowledgeSource.objects.filter(pk=source_id, read_started_at=started_at).first()
    return None if source is None else ReadClaim(source=source, started_at=started_at)


def knowledge_source_read_claimed(*, claim: ReadClaim) -> str | None:
    """Read the claimed source and store ready and its text, or failed and the reason. Returns
    the status stored, or None when the claim no longer stood and nothing was."""
    try:
        changes = _ready(source_text(claim.source))
    except UnreadableSource as failure:
        changes = _failed(str(failure))
    return changes["status"] if _store_if_claimed(claim, changes) else None


def knowledge_source_fail_read(*, claim: ReadClaim, reason: str) -> bool:
    """Record that the claimed read failed for ``reason`` (it ran out of time, or crashed)."""
    return _store_if_claimed(claim, _failed(reason))


def _store_if_claimed(claim: ReadClaim, changes: dict[str, Any]) -> bool:
    stored = KnowledgeSource.objects.filter(
        pk=claim.source.pk, status=SourceStatus.READING, read_started_at=claim.started_at
    ).update(**changes, updated_at=timezone.now())
    return bool(stored)


def knowledge_reads_sweep(
    *, requeue_after: dt.timedelta, give_up_after: dt.timedelta, reason: str
) -> SweepResult:
    """Ask again for reads no worker took within ``requeue_after`` (lost on their way: the
    broker was unreachable); record as failed, with ``reason``, reads started more than
    ``give_up_after`` ago and never finished (killed at the hard time limit, or their worker
    died)."""
    now = timezone.now()
    waiting = KnowledgeSource.objects.filter(
        status=SourceStatus.READING, read_started_at__isnull=True
    )
    lost = list(
        waiting.filter(read_requested_at__lt=now - requeue_after).values_list("pk", flat=True)
    )
    requeued = 0
    for source_id in lost:
        # Asked again only if still unclaimed; the new time keeps the next sweep from asking
        # before this request, too, has had its chance.
        if waiting.filter(pk=source_id).update(read_requested_at=now):
            transaction.on_commit(partial(tasks.queue_read, source_id))
            requeued += 1
    given_up = KnowledgeSource.objects.filter(
        status=SourceStatus.READING, read_started_at__lt=now - give_up_after
    ).update(**_failed(reason), updated_at=now)
    return SweepResult(requeued=requeued, given_up=given_up)
