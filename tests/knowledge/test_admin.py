"""Owners build their knowledge base in the dashboard: a source is read before it is stored, and
one that cannot be read is refused on the form with the reason, the row left as it was."""

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from knowledge.models import KnowledgeSource, SourceKind, SourceStatus
from knowledge.services import knowledge_source_create
from tests.admin_forms import form_errors
from tests.factories import BusinessFactory, owner_of, staff_of
from tests.knowledge.documents import docx_with, encrypted_pdf, pdf_with_lines

pytestmark = pytest.mark.django_db

ADD = reverse("admin:knowledge_knowledgesource_add")
CHANGELIST = reverse("admin:knowledge_knowledgesource_changelist")


def change_url(source: KnowledgeSource) -> str:
    return reverse("admin:knowledge_knowledgesource_change", args=[source.pk])


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


def test_an_owner_uploads_a_pdf_and_its_text_is_read_and_stored(login, settings):
    business = BusinessFactory()

    response = login(owner_of(business)).post(
        ADD,
        form(
            business,
            SourceKind.DOCUMENT,
            file=upload("Price list.PDF", pdf_with_lines("Haircut 30 euros", "Colour 60 euros")),
        ),
    )

    assert response.status_code == 302, form_errors(response)
    source = KnowledgeSource.objects.get()
    assert (source.business, source.status, source.error) == (business, SourceStatus.READY, "")
    assert source.text == "Haircut 30 euros\nColour 60 euros"
    assert source.fetched_at is not None
    stored = Path(settings.MEDIA_ROOT) / source.file.name
    assert stored.is_file()
    assert source.file.name.startswith(f"knowledge/{business.pk}/")
    assert source.file.name.endswith(".pdf")


def test_an_owner_uploads_a_docx(login):
    business = BusinessFactory()

    response = login(owner_of(business)).post(
        ADD,
        form(business, SourceKind.DOCUMENT, file=upload("faq.docx", docx_with("Dogs welcome."))),
    )

    assert response.status_code == 302, form_errors(response)
    assert KnowledgeSource.objects.get().text == "Dogs welcome."


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("prices.pdf", b"Haircut 30 euros", "This file is not a PDF document."),
        ("prices.docx", pdf_with_lines("Haircut"), "This file is not a DOCX document."),
        (
            "prices.pdf",
            encrypted_pdf("Haircut"),
            "The PDF is encrypted; upload a copy saved without a password.",
        ),
        (
            "prices.exe",
            b"MZ",
            "Files ending in .exe cannot be read; upload one of .pdf, .docx, .txt, .md.",
        ),
    ],
)
def test_a_file_that_cannot_be_read_is_refused_on_the_form_and_nothing_is_stored(
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


def test_a_web_page_is_read_when_added_and_a_missing_one_is_refused_on_the_form(login, page_server):
    business = BusinessFactory()
    http = login(owner_of(business))

    missing = http.post(ADD, form(business, SourceKind.URL, url=page_server.url("gone.html")))
    added = http.post(ADD, form(business, SourceKind.URL, url=page_server.url("salon.html")))

    assert missing.status_code == 200
    assert form_errors(missing) == ["Could not read the page: HTTP 404 Not Found"]
    assert added.status_code == 302
    assert KnowledgeSource.objects.get().text.startswith("Prices and visits")


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


def test_replacing_a_document_with_an_unreadable_one_keeps_the_previous_file_and_text(login):
    business = BusinessFactory()
    http = login(owner_of(business))
    http.post(ADD, form(business, SourceKind.DOCUMENT, file=upload("a.txt", b"Parking is free")))
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


def test_refetch_reads_the_page_again_and_records_a_failure_with_the_reason(login, page_server):
    business = BusinessFactory()
    source = knowledge_source_create(
        business=business, kind=SourceKind.URL, title="Hours", url=page_server.url("hours.txt")
    )
    page_server.redirects["hours.txt"] = page_server.url("gone.txt")  # the page went away
    http = login(owner_of(business))

    response = http.post(
        CHANGELIST, {"action": "refetch", "_selected_action": [source.pk]}, follow=True
    )

    failed = KnowledgeSource.objects.get()
    assert failed.status == SourceStatus.FAILED
    assert failed.error == "Could not read the page: HTTP 404 Not Found"
    assert failed.text == source.text  # kept for the owner to see; no longer shown to the model
    assert [str(message) for message in response.context["messages"]] == [
        "Hours: Could not read the page: HTTP 404 Not Found"
    ]

    del page_server.redirects["hours.txt"]
    http.post(CHANGELIST, {"action": "refetch", "_selected_action": [source.pk]})

    ready = KnowledgeSource.objects.get()
    assert (ready.status, ready.error) == (SourceStatus.READY, "")


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
