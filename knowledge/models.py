"""A business's knowledge base: what the owner wrote, uploaded or pointed at, and the text read
from it. Knowledge is for talking — never authority for a time, a price or a confirmation,
which only the booking core decides."""

import uuid
from pathlib import PurePosixPath

from django.core.validators import FileExtensionValidator, URLValidator
from django.db import models
from django.db.models import Q

from bookings.models import Business
from bookings.models.base import TimeStampedModel
from knowledge.extract import MAX_TEXT_CHARS, DocumentFormat

MAX_UPLOAD_BYTES = 10 * 1024 * 1024


class SourceKind(models.TextChoices):
    TEXT = "text", "Text written here"
    DOCUMENT = "document", "Document (PDF, DOCX, .txt, .md)"
    URL = "url", "Web page"


class SourceStatus(models.TextChoices):
    READING = "reading", "Reading…"
    READY = "ready", "Ready"
    FAILED = "failed", "Could not be read"


def document_path(source: "KnowledgeSource", filename: str) -> str:
    # Per business, under a random name: an upload never overwrites or reveals another's file.
    name = PurePosixPath(filename)
    return f"knowledge/{source.business_id}/{uuid.uuid4().hex}{name.suffix.lower()}"


class KnowledgeSource(TimeStampedModel):
    """One piece of the knowledge base. ``text`` is what the assistant may be shown; it is
    written only by ``knowledge.services``, together with ``status``, ``error`` and
    ``fetched_at``, so a row never holds text from one input and a status from another.

    A document or web page is read by a worker: while it waits it is ``reading``, with
    ``read_requested_at`` set; the worker that takes it sets ``read_started_at``, and its
    result is stored only if that claim still stands (``knowledge.tasks``)."""

    business_path = "business"

    business = models.ForeignKey(
        Business, on_delete=models.CASCADE, related_name="knowledge_sources"
    )
    kind = models.CharField(max_length=10, choices=SourceKind.choices, default=SourceKind.TEXT)
    title = models.CharField(
        max_length=200, help_text="Shown to the assistant above this source's text."
    )
    body = models.TextField(
        blank=True,
        max_length=MAX_TEXT_CHARS,
        help_text="For text written here: opening hours in words, parking, policies, a FAQ.",
    )
    file = models.FileField(
        upload_to=document_path,
        blank=True,
        max_length=300,
        validators=[FileExtensionValidator([member.value for member in DocumentFormat])],
        help_text="For a document: PDF, DOCX, .txt or .md, at most 10 MB.",
    )
    url = models.URLField(
        "web page",
        max_length=1000,
        blank=True,
        validators=[URLValidator(schemes=["http", "https"])],
        help_text="For a web page of your own site (https://…); its main text is read.",
    )
    is_active = models.BooleanField(
        default=True, help_text="Only active sources are shown to the assistant."
    )

    text = models.TextField(blank=True, editable=False)
    status = models.CharField(max_length=10, choices=SourceStatus.choices, editable=False)
    error = models.TextField(blank=True, editable=False)
    fetched_at = models.DateTimeField(null=True, blank=True, editable=False)
    read_requested_at = models.DateTimeField(null=True, blank=True, editable=False)
    read_started_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["business", "title", "pk"]
        indexes = [models.Index(fields=["business", "is_active"], name="knowledge_by_business")]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind=SourceKind.TEXT, file="", url="") & ~Q(body="")
                | Q(kind=SourceKind.DOCUMENT, body="", url="") & ~Q(file="")
                | Q(kind=SourceKind.URL, body="", file="") & ~Q(url=""),
                name="knowledge_source_has_its_kinds_input_only",
                violation_error_message=(
                    "Give exactly the input of the chosen kind: text written here, a document, "
                    "or a web page address — and leave the other two empty."
                ),
            ),
            models.CheckConstraint(
                condition=Q(status__in=[SourceStatus.READY, SourceStatus.READING], error="")
                | Q(status=SourceStatus.FAILED) & ~Q(error=""),
                name="knowledge_source_failed_says_why",
                violation_error_message=(
                    "A source is reading or ready with no error, or failed with one."
                ),
            ),
            models.CheckConstraint(
                condition=~Q(status=SourceStatus.READING) | Q(read_requested_at__isnull=False),
                name="knowledge_source_reading_was_requested",
                violation_error_message="A source being read says when its reading was asked for.",
            ),
        ]

    def __str__(self) -> str:
        return self.title
