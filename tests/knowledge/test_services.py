"""A source's text, status, error and read time change together or not at all; a document or page
is stored as reading and read by the task, whose result is stored only while its claim stands.

The task runs here in this process (called as a function): what a real worker adds — another
process, the broker, the time limit — is in test_reading_worker.py."""

import datetime as dt
from pathlib import Path

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import IntegrityError
from django.utils import timezone

from knowledge.extract import UnreadableSource
from knowledge.models import KnowledgeSource, SourceKind, SourceStatus
from knowledge.services import (
    knowledge_source_claim_read,
    knowledge_source_create,
    knowledge_source_read_again,
    knowledge_source_read_claimed,
    knowledge_source_save,
)
from knowledge.tasks import (
    GIVE_UP_MARGIN,
    KILL_AFTER_SOFT_LIMIT_SECONDS,
    REQUEUE_AFTER,
    read_knowledge_source,
    sweep_knowledge_reads,
)
from tests.factories import BusinessFactory
from tests.knowledge.documents import docx_with, docx_zip_bomb, pdf_with_lines

pytestmark = pytest.mark.django_db


def stored_document(business, name: str, content: bytes) -> KnowledgeSource:
    """A document source as the dashboard saves it: stored, not yet read."""
    source = KnowledgeSource(business=business, kind=SourceKind.DOCUMENT, title="Prices")
    source.file.save(name, ContentFile(content), save=False)
    return knowledge_source_save(source=source, input_changed=True)


def test_a_source_that_cannot_be_read_is_never_created(page_server):
    with pytest.raises(UnreadableSource, match="HTTP 404"):
        knowledge_source_create(
            business=BusinessFactory(),
            kind=SourceKind.URL,
            title="Team",
            url=page_server.url("team.html"),
        )

    assert not KnowledgeSource.objects.exists()


def test_a_saved_document_waits_reading_with_no_text_then_the_task_stores_its_text(
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks() as queued:
        source = stored_document(BusinessFactory(), "faq.docx", docx_with("Dogs welcome."))

    waiting = KnowledgeSource.objects.get()
    assert (waiting.status, waiting.text, waiting.error, waiting.fetched_at) == (
        SourceStatus.READING,
        "",
        "",
        None,
    )
    assert len(queued) == 1  # the read is asked for after commit, not in the save

    assert read_knowledge_source(source.pk) == SourceStatus.READY

    ready = KnowledgeSource.objects.get()
    assert (ready.status, ready.text, ready.error) == (SourceStatus.READY, "Dogs welcome.", "")
    assert ready.fetched_at is not None


def test_a_bomb_fails_with_its_reason_and_no_text_is_stored():
    source = stored_document(
        BusinessFactory(), "prices.docx", docx_zip_bomb(unpacked_bytes=20 * 1024 * 1024)
    )

    assert read_knowledge_source(source.pk) == SourceStatus.FAILED

    failed = KnowledgeSource.objects.get()
    assert failed.status == SourceStatus.FAILED
    assert failed.error.startswith("This file can't be read: it expands to more than 16 MB")
    assert (failed.text, failed.fetched_at) == ("", None)


def test_text_written_in_the_dashboard_is_read_at_once(django_capture_on_commit_callbacks):
    source = KnowledgeSource(
        business=BusinessFactory(), kind=SourceKind.TEXT, title="Parking", body="Free  parking."
    )

    with django_capture_on_commit_callbacks() as queued:
        knowledge_source_save(source=source, input_changed=True)

    assert (source.status, source.text) == (SourceStatus.READY, "Free parking.")
    assert queued == []


def test_a_read_is_taken_by_one_task_only():
    source = stored_document(BusinessFactory(), "a.txt", b"Parking is free")

    assert knowledge_source_claim_read(source_id=source.pk) is not None
    assert knowledge_source_claim_read(source_id=source.pk) is None
    assert read_knowledge_source(source.pk) == "not waiting"


def test_a_read_of_an_input_replaced_meanwhile_is_dropped():
    # given a worker reading the first file
    source = stored_document(BusinessFactory(), "a.txt", b"Old prices")
    claim = knowledge_source_claim_read(source_id=source.pk)
    assert claim is not None

    # when the owner uploads another before the read is stored
    source.file.save("b.txt", ContentFile(b"New prices"), save=False)
    knowledge_source_save(source=source, input_changed=True)

    # then the first read stores nothing; the second input's read stores its text
    assert knowledge_source_read_claimed(claim=claim) is None
    assert KnowledgeSource.objects.get().status == SourceStatus.READING
    assert read_knowledge_source(source.pk) == SourceStatus.READY
    assert KnowledgeSource.objects.get().text == "New prices"


def test_a_stored_document_is_read_again_from_the_file():
    source = stored_document(BusinessFactory(), "prices.pdf", pdf_with_lines("Haircut 30 euros"))
    read_knowledge_source(source.pk)
    Path(source.file.path).write_bytes(pdf_with_lines("Haircut 32 euros"))

    again = knowledge_source_read_again(source=KnowledgeSource.objects.get())
    assert (again.status, again.text) == (SourceStatus.READING, "Haircut 30 euros")
    read_knowledge_source(source.pk)

    assert KnowledgeSource.objects.get().text == "Haircut 32 euros"


def test_a_document_whose_file_is_gone_fails_with_the_reason():
    source = stored_document(BusinessFactory(), "prices.txt", b"Haircut 30 euros")
    Path(source.file.path).unlink()

    read_knowledge_source(source.pk)

    assert KnowledgeSource.objects.get().error == (
        "The uploaded document can no longer be found; upload it again."
    )


def test_a_failed_read_again_writes_only_its_status_and_reason(page_server):
    source = knowledge_source_create(
        business=BusinessFactory(),
        kind=SourceKind.URL,
        title="Hours",
        url=page_server.url("hours.txt"),
    )
    read_at = source.fetched_at
    knowledge_source_read_again(source=source)
    KnowledgeSource.objects.filter(pk=source.pk).update(title="Opening hours")  # an edit since
    page_server.redirects["hours.txt"] = page_server.url("gone.txt")

    read_knowledge_source(source.pk)

    stored = KnowledgeSource.objects.get()
    assert (stored.status, stored.error) == (
        SourceStatus.FAILED,
        "Could not read the page: HTTP 404 Not Found",
    )
    # the last text read from this page is kept for the owner, and no longer shown to the model
    assert (stored.title, stored.text, stored.fetched_at) == ("Opening hours", source.text, read_at)
    assert stored.text.startswith("Opening hours\n\nMonday to Friday")


# --- the sweep: reads lost on their way, reads killed at the hard limit ------------------------


def test_a_read_no_worker_took_is_asked_for_again_and_then_read(
    settings, django_capture_on_commit_callbacks
):
    # given a read asked for while the broker was down: nothing will ever deliver it
    settings.KNOWLEDGE_READ_INLINE = True  # what the sweep asks for is read here, at once
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        source = stored_document(BusinessFactory(), "a.txt", b"Parking is free")

    # when the sweep runs before, then after, REQUEUE_AFTER
    with time_machine.travel(start + REQUEUE_AFTER - dt.timedelta(seconds=1), tick=False):
        early = sweep_knowledge_reads()
    with (
        time_machine.travel(start + REQUEUE_AFTER + dt.timedelta(seconds=1), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        late = sweep_knowledge_reads()

    # then only the late sweep asked again, and the source was read
    assert early == {"requeued": 0, "given_up": 0}
    assert late == {"requeued": 1, "given_up": 0}
    stored = KnowledgeSource.objects.get(pk=source.pk)
    assert (stored.status, stored.text) == (SourceStatus.READY, "Parking is free")


def test_a_read_started_and_never_finished_is_failed_with_the_time_limit(settings):
    # given a read whose worker was killed at the hard time limit (it claimed, then nothing)
    settings.KNOWLEDGE_READ_SECONDS = 30
    killed_at = dt.timedelta(seconds=30 + KILL_AFTER_SOFT_LIMIT_SECONDS)
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        source = stored_document(BusinessFactory(), "a.txt", b"Parking is free")
        assert knowledge_source_claim_read(source_id=source.pk) is not None

    second = dt.timedelta(seconds=1)
    with time_machine.travel(start + killed_at + GIVE_UP_MARGIN - second, tick=False):
        early = sweep_knowledge_reads()
    with time_machine.travel(start + killed_at + GIVE_UP_MARGIN + second, tick=False):
        late = sweep_knowledge_reads()

    assert early == {"requeued": 0, "given_up": 0}
    assert late == {"requeued": 0, "given_up": 1}
    failed = KnowledgeSource.objects.get()
    assert failed.status == SourceStatus.FAILED
    assert failed.error.startswith("Reading took longer than 30 s and was stopped")
    assert failed.text == ""


# --- what the database itself refuses ----------------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"kind": SourceKind.TEXT, "body": ""},
        {"kind": SourceKind.TEXT, "body": "Parking", "url": "https://example.com/"},
        {"kind": SourceKind.URL, "body": "Parking"},
        {"kind": SourceKind.DOCUMENT, "url": "https://example.com/"},
    ],
)
def test_the_database_refuses_a_kind_without_its_own_input(fields):
    with pytest.raises(IntegrityError, match="knowledge_source_has_its_kinds_input_only"):
        KnowledgeSource.objects.create(
            business=BusinessFactory(), title="T", status=SourceStatus.READY, **fields
        )


@pytest.mark.parametrize(
    ("status", "error"),
    [
        (SourceStatus.FAILED, ""),
        (SourceStatus.READY, "HTTP 404"),
        (SourceStatus.READING, "HTTP 404"),
        ("", ""),
    ],
)
def test_the_database_refuses_a_status_that_does_not_match_its_error(status, error):
    with pytest.raises(IntegrityError, match="knowledge_source_failed_says_why"):
        KnowledgeSource.objects.create(
            business=BusinessFactory(),
            title="T",
            kind=SourceKind.TEXT,
            body="Parking",
            status=status,
            error=error,
            read_requested_at=timezone.now(),
        )


def test_the_database_refuses_a_source_reading_with_no_request_to_read_it():
    with pytest.raises(IntegrityError, match="knowledge_source_reading_was_requested"):
        KnowledgeSource.objects.create(
            business=BusinessFactory(),
            title="T",
            kind=SourceKind.URL,
            url="https://example.com/",
            status=SourceStatus.READING,
        )


def test_validation_names_the_rule_before_the_database_does():
    source = KnowledgeSource(
        business=BusinessFactory(), title="T", kind=SourceKind.URL, body="Parking"
    )
    source.status = SourceStatus.READY

    with pytest.raises(ValidationError, match="Give exactly the input of the chosen kind"):
        source.full_clean()
