"""The one door through which a knowledge source's text is written.

A source's ``text``, ``status``, ``error`` and ``fetched_at`` change together in one statement,
or not at all: a reader never sees new text beside an old error, nor half a refresh.
"""

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from knowledge.extract import UnreadableSource
from knowledge.models import KnowledgeSource, SourceStatus
from knowledge.reading import source_text

# What the owner edits; the rest is written only when the input is read.
OWNER_FIELDS = ["business", "kind", "title", "body", "file", "url", "is_active"]


@dataclass(frozen=True)
class RefreshResult:
    source: KnowledgeSource
    error: str  # empty when the source was read


@transaction.atomic
def knowledge_source_save(*, source: KnowledgeSource, text: str | None) -> KnowledgeSource:
    """Store ``source``, new or changed. ``text`` was just read from its current input (the
    dashboard reads it while validating the form, so an unreadable source is refused on the
    form and never stored); None means the input did not change — a new title, switched off —
    and what was read from it stays as it was."""
    if text is None and source.pk is None:
        raise ValueError("A new knowledge source must be read before it is stored.")
    if text is not None:
        source.text = text
        source.status = SourceStatus.READY
        source.error = ""
        source.fetched_at = timezone.now()
    source.full_clean()
    if text is None:  # leave the read fields to whoever last wrote them (a refetch, say)
        source.save(update_fields=[*OWNER_FIELDS, "updated_at"])
    else:
        source.save()
    return source


def knowledge_source_create(**fields) -> KnowledgeSource:
    """A new source, read from its input first. Raises ``UnreadableSource``; nothing is stored
    then."""
    source = KnowledgeSource(**fields)
    return knowledge_source_save(source=source, text=source_text(source))


def knowledge_source_refresh(source: KnowledgeSource) -> RefreshResult:
    """Read ``source``'s stored input again (a web page changes; a document is re-read).

    Read, the new text replaces the old. Unread, the source is marked failed with the reason
    and stops being shown to the assistant; its last text is kept for the owner to see, not
    used. Only the four read fields are written, so an edit saved meanwhile is not undone.
    """
    changes: dict[str, Any]
    try:
        text = source_text(source)
    except UnreadableSource as failure:
        changes = {"status": SourceStatus.FAILED, "error": str(failure)}
    else:
        changes = {
            "text": text,
            "status": SourceStatus.READY,
            "error": "",
            "fetched_at": timezone.now(),
        }
    KnowledgeSource.objects.filter(pk=source.pk).update(**changes, updated_at=timezone.now())
    for field, value in changes.items():
        setattr(source, field, value)
    return RefreshResult(source=source, error=changes["error"])
