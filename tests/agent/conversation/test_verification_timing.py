"""Asking for a code tells nobody, by its answer, its work or its time, whether the address is
on file: the request writes a row and queues one task either way, and the email leaves from a
real Celery worker on the real Redis broker, only for a client.

The worker is another process: it reads committed rows (``transaction=True``) and writes its
mail as files the test reads; every wait for it has a deadline."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator

import pytest
import redis
from celery.signals import before_task_publish
from django.conf import settings
from django.core import mail
from django.core.cache import cache
from django.db import connection
from django.test import Client as HttpClient
from django.test.utils import CaptureQueriesContext

from agent.models import ClientVerification
from ordina import celery_app
from tests.agent.conversation.chat_http import started
from tests.factories import ClientFactory
from tests.reminders.real_worker import Worker, new_queue, read_mail, wait_for

CODE = re.compile(r"\b(\d{6})\b")
VALUES = re.compile(r"'[^']*'|\w*\d\w*|\bNULL\b")  # values, ids, savepoint names
WORKER_SECONDS = 60


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def ana(shop):
    return ClientFactory(business=shop, name="Ana Pérez", email="Ana.Perez@example.com")


@pytest.fixture
def queue() -> Iterator[str]:
    """Tasks queued by this test go to a queue of its own (nothing else consumes it), which is
    removed from the broker afterwards."""
    name = new_queue("verification")
    before = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = name
    yield name
    celery_app.conf.task_default_queue = before
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    broker.delete(name, f"_kombu.binding.{name}", f"_kombu.binding_permanent.{name}")


@pytest.fixture
def published() -> Iterator[list[str]]:
    """The names of the tasks this process publishes to the broker."""
    names: list[str] = []

    def record(sender: str, **_kwargs) -> None:
        names.append(sender)

    dispatch_uid = f"test-published-{uuid.uuid4()}"
    before_task_publish.connect(record, weak=False, dispatch_uid=dispatch_uid)
    yield names
    before_task_publish.disconnect(dispatch_uid=dispatch_uid)


def ask(api: HttpClient, token: str, email: str):
    return api.post(
        f"/api/v1/conversations/{token}/verification/",
        {"email": email},
        content_type="application/json",
    )


def shape(sql: str) -> str:
    """A query with its values taken out: what it does, not for whom."""
    return VALUES.sub("?", sql)


@pytest.mark.django_db
def test_an_address_on_file_and_one_not_cost_the_same_request(
    shop, ana, queue, published, django_capture_on_commit_callbacks
):
    api = HttpClient()
    asked = {}
    for email in (ana.email, "nobody@example.com"):
        token = started(api, shop.slug)
        published.clear()
        with (
            CaptureQueriesContext(connection) as queries,
            django_capture_on_commit_callbacks(execute=True),
        ):
            response = ask(api, token, email)
        asked[email] = (response, [shape(q["sql"]) for q in queries.captured_queries], published[:])

    (client, client_queries, client_tasks), (stranger, stranger_queries, stranger_tasks) = (
        asked.values()
    )
    assert client.status_code == stranger.status_code == 202
    assert (
        client.json()["detail"].replace(ana.email, "nobody@example.com")
        == (stranger.json()["detail"])
    )
    assert client.json()["expires_in"] == stranger.json()["expires_in"]
    assert client_queries == stranger_queries
    # One task each, and no email sent in the request itself, for anyone.
    assert client_tasks == stranger_tasks == ["agent.tasks.deliver_verification_code"]
    assert mail.outbox == []


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_emails_the_code_to_a_client_and_nothing_for_a_stranger(
    shop, ana, queue, tmp_path
):
    mail_dir = tmp_path / "mail"
    worker = Worker(
        name="codes", mail_dir=mail_dir, log_path=tmp_path / "worker.log", env={}, queue=queue
    )
    api = HttpClient()
    try:
        worker.wait_ready()
        client_token = started(api, shop.slug)
        stranger_token = started(api, shop.slug)
        assert ask(api, client_token, "ana.perez@example.com").status_code == 202
        assert ask(api, stranger_token, "nobody@example.com").status_code == 202
        try:
            wait_for(
                lambda: worker.log().count("succeeded") >= 2,
                seconds=WORKER_SECONDS,
                what="both tasks",
            )
        except AssertionError as timeout:
            raise AssertionError(f"{timeout}\n{worker.log()[-3000:]}") from None
    finally:
        worker.stop()
        worker.forget()

    # Both rows got a code made by the worker; only the client's was emailed, to the address
    # as the business keeps it.
    assert all(row.digest and row.salt for row in ClientVerification.objects.all())
    (message,) = read_mail(mail_dir)
    assert message["To"] == "Ana.Perez@example.com"
    found = CODE.search(message.get_content())
    assert found is not None, message.get_content()
    code = found.group(1)
    checked = api.post(
        f"/api/v1/conversations/{client_token}/verification/check/",
        {"code": code},
        content_type="application/json",
    )
    assert checked.status_code == 200, checked.content
    assert checked.json()["name"] == "Ana Pérez"
