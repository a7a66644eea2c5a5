"""Documents and pages read by a real Celery worker process on the real Redis broker: an owner
uploads through the dashboard, the request answers at once with the source "Reading…", and the
worker stores the text — or, for a bomb, the reason and no text. A read that runs past the
worker's time limit is stopped and recorded with the limit; and when the broker cannot be
reached at all, the owner's save still succeeds and the source waits, reading, for the sweep.

The worker is another process: it reads committed rows (``transaction=True``), the uploaded
files from this test's MEDIA_ROOT, and its queue is its own. Its clock cannot be moved from
here, so every wait has a deadline (``wait_for``).
"""

import subprocess
import sys

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from knowledge.models import KnowledgeSource, SourceKind, SourceStatus
from tests.admin_forms import form_errors
from tests.factories import BusinessFactory, owner_of
from tests.knowledge.dashboard import ADD, CHANGELIST, row_of
from tests.knowledge.documents import MB, docx_with, docx_zip_bomb
from tests.reminders.real_worker import ROOT, Worker, current_database_url, new_queue, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

SETTLE_SECONDS = 60  # ample for a small document on a loaded two-core machine


@pytest.fixture
def start_worker(transactional_db, settings, tmp_path):
    """Send this test's reads to a queue of its own, and start a prefork worker on it (prefork
    is the pool that enforces time limits) when the test asks; stopped before the database is
    flushed."""
    queue = new_queue("knowledge")
    settings.KNOWLEDGE_READ_QUEUE = queue
    started: list[Worker] = []

    def start() -> Worker:
        worker = Worker(
            name="knowledge",
            mail_dir=tmp_path / "mail",
            log_path=tmp_path / "worker.log",
            env={"MEDIA_ROOT": str(settings.MEDIA_ROOT)},
            pool="prefork",
            queue=queue,
        )
        started.append(worker)
        worker.wait_ready()
        return worker

    yield start
    for worker in started:
        worker.stop()
        worker.forget()


def upload_form(business, title: str, name: str, content: bytes) -> dict:
    return {
        "business": business.pk,
        "kind": SourceKind.DOCUMENT,
        "title": title,
        "is_active": "on",
        "body": "",
        "url": "",
        "file": SimpleUploadedFile(name, content),
        "_save": "Save",
    }


def settled(title: str) -> KnowledgeSource | None:
    source = KnowledgeSource.objects.get(title=title)
    return None if source.status == SourceStatus.READING else source


def test_an_upload_is_answered_at_once_as_reading_and_the_worker_reads_it_or_says_why(
    login, start_worker
):
    # given an owner who uploads a document and a zip bomb while no worker runs yet
    business = BusinessFactory()
    http = login(owner_of(business))
    bomb = docx_zip_bomb(unpacked_bytes=300 * MB)
    answers = [
        http.post(ADD, upload_form(business, "FAQ", "faq.docx", docx_with("Dogs welcome."))),
        http.post(ADD, upload_form(business, "Prices", "prices.docx", bomb)),
    ]

    # then the dashboard answered at once, and lists both as being read
    assert [answer.status_code for answer in answers] == [302, 302], form_errors(answers[-1])
    listing = http.get(CHANGELIST)
    for source in KnowledgeSource.objects.all():
        assert "Reading…" in row_of(listing, source)

    # when a worker runs
    worker = start_worker()
    faq = wait_for(lambda: settled("FAQ"), seconds=SETTLE_SECONDS, what="the FAQ to be read")
    prices = wait_for(lambda: settled("Prices"), seconds=SETTLE_SECONDS, what="the bomb to fail")

    # then the document is ready with its text, and the bomb failed with its reason, no text
    assert (faq.status, faq.text, faq.error) == (SourceStatus.READY, "Dogs welcome.", "")
    assert prices.status == SourceStatus.FAILED
    assert prices.error.startswith(
        "This file can't be read: it expands to more than 16 MB in one part when unpacked"
    )
    assert (prices.text, prices.fetched_at) == ("", None)
    listing = http.get(CHANGELIST)
    assert "Ready" in row_of(listing, faq)
    assert "it expands to more than 16 MB in one part" in row_of(listing, prices)
    assert "succeeded" in worker.log()


def test_a_read_that_runs_past_the_time_limit_is_stopped_and_says_so(
    login, settings, start_worker, page_server
):
    # given reads that may take 2 seconds (the limit travels in the message the dashboard
    # sends), and a page that answers after a minute
    settings.KNOWLEDGE_READ_SECONDS = 2
    worker = start_worker()
    business = BusinessFactory()
    response = login(owner_of(business)).post(
        ADD,
        {
            "business": business.pk,
            "kind": SourceKind.URL,
            "title": "Slow",
            "is_active": "on",
            "body": "",
            "url": page_server.url("slow.html"),
            "_save": "Save",
        },
    )
    assert response.status_code == 302, form_errors(response)

    # when the worker reads it
    slow = wait_for(lambda: settled("Slow"), seconds=SETTLE_SECONDS, what="the read to stop")

    # then it was stopped at the soft limit, and the row says so
    assert "Soft time limit (2s) exceeded" in worker.log()
    assert page_server.requests == ["slow.html"]
    assert slow.status == SourceStatus.FAILED
    assert slow.error == (
        "Reading took longer than 2 s and was stopped: the file or page is too large or too "
        "complex to read. Split it into smaller files, or paste its text instead."
    )


SAVE_WITH_NO_BROKER = """
from django.core.files.base import ContentFile
from bookings.models import Business
from knowledge.models import KnowledgeSource, SourceKind
from knowledge.services import knowledge_source_save
source = KnowledgeSource(business=Business.objects.get(), kind=SourceKind.DOCUMENT, title="FAQ")
source.file.save("faq.txt", ContentFile(b"Dogs welcome."), save=False)
knowledge_source_save(source=source, input_changed=True)
print("saved", source.status)
"""


def test_when_the_broker_cannot_be_reached_the_save_succeeds_and_the_source_waits_reading(
    settings,
):
    # given a process whose broker address answers nothing (a closed port)
    BusinessFactory()
    saving = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", SAVE_WITH_NO_BROKER],
        cwd=ROOT,
        env={
            "PATH": "/usr/bin:/bin",
            "DJANGO_SETTINGS_MODULE": "ordina.settings.test",
            "DATABASE_URL": current_database_url(),
            "CELERY_BROKER_URL": "redis://127.0.0.1:9/0",
            "MEDIA_ROOT": str(settings.MEDIA_ROOT),
        },
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    # then the save committed, said so, and logged why no read was asked for
    assert saving.returncode == 0, saving.stderr[-3000:]
    assert saving.stdout.strip() == "saved reading"
    assert "Could not ask for knowledge source" in saving.stderr
    source = KnowledgeSource.objects.get()
    assert (source.status, source.read_started_at) == (SourceStatus.READING, None)
    assert source.read_requested_at is not None  # what the sweep asks again for (test_services)
