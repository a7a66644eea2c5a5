"""Owners build their knowledge base in the dashboard. The form checks only what is cheap — an
upload's size, extension and first bytes; text written there — and refuses on the form with the
reason, the row left as it was. A document or page is saved as "Reading…" and read after commit
by the task; the list and the change page then show what was read, or why it could not be.

Here the task runs in this process when a test runs the reads the request asked for
(``run_reads``); the same flow through a real worker process is in test_reading_worker.py."""

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from knowledge.models import KnowledgeSource, SourceKind, SourceStatus
from knowledge.services import knowledge_source_create
from tests.admin_forms import form_errors
from tests.factories import BusinessFactory, owner_of, staff_of
from tests.knowledge.dashboard import ADD, CHANGELIST, change_url, row_of
from tests.knowledge.documents import (
    MB,
    billion_laughs_docx,
    docx_with,
    docx_zip_bomb,
    encrypted_pdf,
    pdf_bomb,
    pdf_with_lines,
)

pytestmark = pytest.mark.django_db


def form(business, kind: str, title: str = "Prices", **inputs) -> dict:
    return {
        "business": business.pk,
        "kind": kind,
        "title": title,
        "is_active": "on",
        "body": "",
        "url": "",
        "_save": "Save",
    } | inputs


def upload(name: str, content: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="application/octet-stream")


@pytest.fixture
def run_reads(settings):
    """Run the reads a request asked for (its after-commit callbacks), here and now."""
    settings.KNOWLEDGE_READ_INLINE = True

    def run(queued) -> None:
        for callback in queued:
            callback()

    return run


def test_an_owner_uploads_a_pdf_which_is_saved_reading_then_read_after_commit(
    login, settings, django_capture_on_commit_callbacks, run_reads
):
    business = BusinessFactory()
    http = login(owner_of(business))

    with django_capture_on_commit_callbacks() as queued:
        response = http.post(
            ADD,
            form(
                business,
                SourceKind.DOCUMENT,
                file=upload(
                    "Price list.PDF", pdf_with_lines("Haircut 30 euros", "Colour 60 euros")
                ),
            ),
        )

    assert response.status_code == 302, form_errors(response)
    source = KnowledgeSource.objects.get()
    assert (source.business, source.status, source.text) == (business, SourceStatus.READING, "")
    stored = Path(settings.MEDIA_ROOT) / source.file.name
    assert stored.is_file()
    assert source.file.name.startswith(f"knowledge/{business.pk}/")
    assert source.file.name.endswith(".pdf")
    assert "Reading…" in row_of(http.get(CHANGELIST), source)

    run_reads(queued)

    source.refresh_from_db()
    assert (source.status, source.error) == (SourceStatus.READY, "")
    assert source.text == "Haircut 30 euros\nColour 60 euros"
    assert source.fetched_at is not None
    assert "Ready" in row_of(http.get(CHANGELIST), source)


def test_an_owner_uploads_a_docx(login, django_capture_on_commit_callbacks, run_reads):
    business = BusinessFactory()

    with django_capture_on_commit_callbacks() as queued:
        response = login(owner_of(business)).post(
            ADD,
            form(
                business, SourceKind.DOCUMENT, file=upload("faq.docx", docx_with("Dogs welcome."))
            ),
        )
    run_reads(queued)

    assert response.status_code == 302, form_errors(response)
    assert KnowledgeSource.objects.get().text == "Dogs welcome."


@pytest.mark.parametrize(
    ("name", "build", "reason"),
    [
        pytest.param(
            "prices.docx",
            lambda: docx_zip_bomb(unpacked_bytes=20 * MB),
            "This file can't be read: it expands to more than 16 MB in one part when unpacked",
            id="zip-bomb",
        ),
        pytest.param(
            "prices.docx",
            billion_laughs_docx,
            "This file can't be read: its XML declares entities that expand without limit",
            id="billion-laughs",
        ),
        pytest.param(
            "prices.pdf",
            lambda: pdf_bomb(inflated_bytes=20 * MB),
            "This file can't be read: part of it expands beyond what is read",
            id="pdf-bomb",
        ),
        pytest.param(
            "prices.pdf",
            lambda: encrypted_pdf("Haircut"),
            "The PDF is encrypted; upload a copy saved without a password.",
            id="encrypted",
        ),
    ],
)
def test_a_file_that_cannot_be_read_is_accepted_as_reading_then_shows_why_with_no_text(
    login, django_capture_on_commit_callbacks, run_reads, name, build, reason
):
    business = BusinessFactory()
    http = login(owner_of(business))

    with django_capture_on_commit_callbacks() as queued:
        response = http.post(ADD, form(business, SourceKind.DOCUMENT, file=upload(name, build())))

    assert response.status_code == 302, form_errors(response)
    source = KnowledgeSource.objects.get()
    assert "Reading…" in row_of(http.get(CHANGELIST), source)

    run_reads(queued)

    source.refresh_from_db()
    assert source.status == SourceStatus.FAILED
    assert source.error.startswith(reason)
    assert (source.text, source.fetched_at) == ("", None)
    listing = http.get(CHANGELIST)
    assert listing.status_code == 200
    assert "Could not be read" in row_of(listing, source)
    assert reason.replace("'", "&#x27;") in row_of(listing, source)
    assert reason.replace("'", "&#x27;") in http.get(change_url(source)).content.decode()


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("prices.pdf", b"Haircut 30 euros", "This file is not a PDF document."),
        ("prices.docx", pdf_with_lines("Haircut"), "This file is not a DOCX document."),
        (
            "prices.exe",
            b"MZ",
            "Files ending in .exe cannot be read; upload one of .pdf, .docx, .txt, .md.",
        ),
    ],
)
def test_a_file_that_is_not_what_its_name_says_is_refused_on_the_form_and_nothing_is_stored(
    login, settings, name, content, message
):
    business = BusinessFactory()

    response = login(owner_of(business)).post(
        ADD, form(business, SourceKind.DOCUMENT, file=upload(name, content))
    )

    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {"file": [message]}
    assert not KnowledgeSource.objects.exists()
    assert not (Path(settings.MEDIA_ROOT) / "knowledge").exists()


def test_a_web_page_is_fetched_after_the_request_and_a_missing_one_shows_why(
    login, page_server, django_capture_on_commit_callbacks, run_reads
):
    business = BusinessFactory()
    http = login(owner_of(business))

    with django_capture_on_commit_callbacks() as queued:
        missing = http.post(ADD, form(business, SourceKind.URL, url=page_server.url("gone.html")))
        added = http.post(
            ADD, form(business, SourceKind.URL, title="Salon", url=page_server.url("salon.html"))
        )

    assert (missing.status_code, added.status_code) == (302, 302)
    assert page_server.requests == []  # nothing is fetched in the owner's request
    run_reads(queued)

    gone, salon = KnowledgeSource.objects.order_by("title")
    assert (gone.status, gone.error) == (
        SourceStatus.FAILED,
        "Could not read the page: HTTP 404 Not Found",
    )
    assert salon.status == SourceStatus.READY
    assert salon.text.startswith("Prices and visits")


def test_each_kind_needs_its_own_input_and_no_other(login, page_server):
    business = BusinessFactory()

    response = login(owner_of(business)).post(
        ADD, form(business, SourceKind.TEXT, body="Parking", url=page_server.url("salon.html"))
    )

    assert response.status_code == 200
    assert form_errors(response) == [
        "Give exactly the input of the chosen kind: text written here, a document, or a web "
        "page address — and leave the other two empty."
    ]
    assert page_server.requests == []  # nothing is fetched for a form that cannot be saved
    assert not KnowledgeSource.objects.exists()


def test_replacing_a_document_with_an_unreadable_one_keeps_the_previous_file_and_text(
    login, django_capture_on_commit_callbacks, run_reads
):
    business = BusinessFactory()
    http = login(owner_of(business))
    with django_capture_on_commit_callbacks() as queued:
        http.post(
            ADD, form(business, SourceKind.DOCUMENT, file=upload("a.txt", b"Parking is free"))
        )
    run_reads(queued)
    source = KnowledgeSource.objects.get()

    response = http.post(
        change_url(source),
        form(business, SourceKind.DOCUMENT, file=upload("b.pdf", b"not a pdf at all")),
    )

    assert response.status_code == 200
    assert form_errors(response) == ["This file is not a PDF document."]
    kept = KnowledgeSource.objects.get()
    assert (kept.file.name, kept.text, kept.status) == (
        source.file.name,
        "Parking is free",
        SourceStatus.READY,
    )


def test_replacing_a_document_reads_the_new_one_and_drops_the_old_text_meanwhile(
    login, django_capture_on_commit_callbacks, run_reads
):
    business = BusinessFactory()
    http = login(owner_of(business))
    with django_capture_on_commit_callbacks() as queued:
        http.post(ADD, form(business, SourceKind.DOCUMENT, file=upload("a.txt", b"Old prices")))
    run_reads(queued)
    source = KnowledgeSource.objects.get()

    with django_capture_on_commit_callbacks() as queued:
        response = http.post(
            change_url(source),
            form(business, SourceKind.DOCUMENT, file=upload("b.txt", b"New prices")),
        )

    assert response.status_code == 302, form_errors(response)
    waiting = KnowledgeSource.objects.get()
    assert (waiting.status, waiting.text) == (SourceStatus.READING, "")  # never beside b.txt
    run_reads(queued)
    assert KnowledgeSource.objects.get().text == "New prices"


def test_renaming_a_source_does_not_fetch_its_page_again(login, page_server):
    business = BusinessFactory()
    source = knowledge_source_create(
        business=business, kind=SourceKind.URL, title="Prices", url=page_server.url("salon.html")
    )
    page_server.requests.clear()

    response = login(owner_of(business)).post(
        change_url(source), form(business, SourceKind.URL, title="Our prices", url=source.url)
    )

    assert response.status_code == 302
    assert page_server.requests == []
    renamed = KnowledgeSource.objects.get()
    assert (renamed.title, renamed.text) == ("Our prices", source.text)


def test_the_change_page_shows_status_length_and_an_escaped_preview(login):
    business = BusinessFactory()
    source = knowledge_source_create(
        business=business, kind=SourceKind.TEXT, title="Notes", body="<b>Bold</b> claims"
    )

    response = login(owner_of(business)).get(change_url(source))

    assert response.status_code == 200
    page = response.content.decode()
    assert "&lt;b&gt;Bold&lt;/b&gt; claims" in page
    assert "<b>Bold</b>" not in page
    assert "Characters read" in page


def test_refetch_reads_the_page_again_and_records_a_failure_with_the_reason(
    login, page_server, django_capture_on_commit_callbacks, run_reads
):
    business = BusinessFactory()
    source = knowledge_source_create(
        business=business, kind=SourceKind.URL, title="Hours", url=page_server.url("hours.txt")
    )
    page_server.redirects["hours.txt"] = page_server.url("gone.txt")  # the page went away
    http = login(owner_of(business))

    with django_capture_on_commit_callbacks() as queued:
        response = http.post(
            CHANGELIST, {"action": "refetch", "_selected_action": [source.pk]}, follow=True
        )

    assert [str(message) for message in response.context["messages"]] == [
        "Hours: being read. Its status shows “Reading…” until it is ready, or says why it could "
        "not be read."
    ]
    assert KnowledgeSource.objects.get().status == SourceStatus.READING
    run_reads(queued)

    failed = KnowledgeSource.objects.get()
    assert failed.status == SourceStatus.FAILED
    assert failed.error == "Could not read the page: HTTP 404 Not Found"
    assert failed.text == source.text  # kept for the owner to see; no longer shown to the model

    del page_server.redirects["hours.txt"]
    with django_capture_on_commit_callbacks() as queued:
        http.post(CHANGELIST, {"action": "refetch", "_selected_action": [source.pk]})
    run_reads(queued)

    ready = KnowledgeSource.objects.get()
    assert (ready.status, ready.error) == (SourceStatus.READY, "")


def test_refetch_reads_text_written_here_at_once(login):
    business = BusinessFactory()
    source = knowledge_source_create(
        business=business, kind=SourceKind.TEXT, title="Parking", body="Free parking."
    )

    response = login(owner_of(business)).post(
        CHANGELIST, {"action": "refetch", "_selected_action": [source.pk]}, follow=True
    )

    assert [str(message) for message in response.context["messages"]] == [
        "Parking: 13 characters read."
    ]


def test_staff_read_the_knowledge_base_but_neither_add_change_nor_refetch(login, page_server):
    business = BusinessFactory()
    source = knowledge_source_create(
        business=business, kind=SourceKind.TEXT, title="Parking", body="Free parking."
    )
    http = login(staff_of(business))

    listing = http.get(CHANGELIST)
    page = http.get(change_url(source))
    add = http.get(ADD)
    change = http.post(change_url(source), form(business, SourceKind.TEXT, body="Paid parking."))

    assert listing.status_code == 200
    assert listing.context["action_form"] is None  # no bulk action at all: no refetch
    assert page.status_code == 200
    assert page.context["has_change_permission"] is False
    assert (add.status_code, change.status_code) == (403, 403)
    assert KnowledgeSource.objects.get().text == "Free parking."
