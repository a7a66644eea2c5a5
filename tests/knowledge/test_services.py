"""A source's text, status, error and read time change together or not at all."""

from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import IntegrityError

from knowledge.extract import UnreadableSource
from knowledge.models import KnowledgeSource, SourceKind, SourceStatus
from knowledge.services import knowledge_source_create, knowledge_source_refresh
from tests.factories import BusinessFactory
from tests.knowledge.documents import pdf_with_lines

pytestmark = pytest.mark.django_db


def test_a_source_that_cannot_be_read_is_never_created(page_server):
    with pytest.raises(UnreadableSource, match="HTTP 404"):
        knowledge_source_create(
            business=BusinessFactory(),
            kind=SourceKind.URL,
            title="Team",
            url=page_server.url("team.html"),
        )

    assert not KnowledgeSource.objects.exists()


def test_a_stored_document_is_read_again_from_the_file():
    business = BusinessFactory()
    draft = KnowledgeSource(business=business, kind=SourceKind.DOCUMENT, title="Prices")
    draft.file.save("prices.pdf", ContentFile(pdf_with_lines("Haircut 30 euros")), save=False)
    source = knowledge_source_create(
        business=business, kind=SourceKind.DOCUMENT, title="Prices", file=draft.file.name
    )
    Path(source.file.path).write_bytes(pdf_with_lines("Haircut 32 euros"))

    result = knowledge_source_refresh(source)

    assert (result.error, source.text) == ("", "Haircut 32 euros")
    assert KnowledgeSource.objects.get().text == "Haircut 32 euros"


def test_a_document_whose_file_is_gone_fails_with_the_reason():
    business = BusinessFactory()
    draft = KnowledgeSource(business=business, kind=SourceKind.DOCUMENT, title="Prices")
    draft.file.save("prices.txt", ContentFile(b"Haircut 30 euros"), save=False)
    source = knowledge_source_create(
        business=business, kind=SourceKind.DOCUMENT, title="Prices", file=draft.file.name
    )
    Path(source.file.path).unlink()

    result = knowledge_source_refresh(source)

    assert result.error == "The uploaded document can no longer be found; upload it again."


def test_a_failed_refresh_writes_only_its_status_and_reason(page_server):
    source = knowledge_source_create(
        business=BusinessFactory(),
        kind=SourceKind.URL,
        title="Hours",
        url=page_server.url("hours.txt"),
    )
    KnowledgeSource.objects.filter(pk=source.pk).update(title="Opening hours")  # an edit since
    page_server.redirects["hours.txt"] = page_server.url("gone.txt")

    result = knowledge_source_refresh(source)

    stored = KnowledgeSource.objects.get()
    assert result.error == "Could not read the page: HTTP 404 Not Found"
    assert (stored.status, stored.error) == (SourceStatus.FAILED, result.error)
    assert (stored.title, stored.text, stored.fetched_at) == (
        "Opening hours",
        source.text,
        source.fetched_at,
    )


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
    ("status", "error"), [(SourceStatus.FAILED, ""), (SourceStatus.READY, "HTTP 404"), ("", "")]
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
        )


def test_validation_names_the_rule_before_the_database_does():
    source = KnowledgeSource(
        business=BusinessFactory(), title="T", kind=SourceKind.URL, body="Parking"
    )
    source.status = SourceStatus.READY

    with pytest.raises(ValidationError, match="Give exactly the input of the chosen kind"):
        source.full_clean()
