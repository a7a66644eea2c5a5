"""Logs: one line per request naming its route (never its path, which carries secret tokens),
every line stamped with the request id that the response returns in X-Request-ID, the same id
on the lines of a Celery task the request queued, JSON in production and text elsewhere."""

import io
import json
import logging
import re
import uuid
from collections.abc import Iterator

import pytest
import redis
from django.conf import settings
from django.test import Client as HttpClient

from agent.services import grants_set
from ordina import celery_app
from ordina.request_log import UNMATCHED
from tests.agent.conversation.chat_http import started
from tests.factories import BusinessFactory
from tests.reminders.real_worker import Worker, new_queue, wait_for
from tests.test_settings import PRODUCTION_ENV, load_production, run_python

SECRET_TOKEN = "tok-" + uuid.uuid4().hex  # as a manage link's token would be
SHOP = "https://shop.example"
MADE_HERE = re.compile(r"^[0-9a-f]{32}$")  # what django-guid makes: a UUID4's hex
# Generous: a worker starting on a loaded two-core machine has been seen to take most of a minute.
WORKER_SECONDS = 180


@pytest.fixture
def console() -> Iterator[io.StringIO]:
    """What the configured LOGGING's handler writes (formatted, with its filters), read here
    instead of from the test's stderr."""
    (handler,) = [h for h in logging.getLogger().handlers if h.get_name() == "console"]
    assert isinstance(handler, logging.StreamHandler)
    written = io.StringIO()
    # Swapped by hand, not with setStream: that flushes the stream it replaces, which may be
    # an earlier test's captured stderr, closed since.
    with handler.lock:
        before, handler.stream = handler.stream, written
    try:
        yield written
    finally:
        with handler.lock:
            handler.stream = before


def request_lines(written: io.StringIO) -> list[str]:
    return [line for line in written.getvalue().splitlines() if " ordina.requests " in line]


# --- the request log line ---------------------------------------------------------------------


@pytest.mark.django_db
def test_a_request_logs_one_line_with_its_route_and_id_and_never_its_token(console):
    response = HttpClient().get(f"/api/v1/manage/{SECRET_TOKEN}/?token={SECRET_TOKEN}")

    (line,) = request_lines(console)
    assert f"[{response['X-Request-ID']}]" in line
    assert f"GET api/v1/manage/<str:token>/ {response.status_code} " in line
    assert "from 127.0.0.1" in line
    assert SECRET_TOKEN not in console.getvalue()  # nor in Django's own "Not Found" line


@pytest.mark.django_db
def test_the_request_line_carries_its_fields_for_a_json_reader(caplog):
    with caplog.at_level(logging.INFO, logger="ordina.requests"):
        response = HttpClient().get(f"/api/v1/manage/{SECRET_TOKEN}/")

    (record,) = [r for r in caplog.records if r.name == "ordina.requests"]
    fields = {name: getattr(record, name, None) for name in ("method", "route", "status", "client")}
    assert fields == {
        "method": "GET",
        "route": "api/v1/manage/<str:token>/",
        "status": response.status_code,
        "client": "127.0.0.1",
    }
    assert isinstance(getattr(record, "duration_ms", None), float)


def test_a_path_no_pattern_matches_logs_as_unmatched(console):
    response = HttpClient().get(f"/no-such-page/{SECRET_TOKEN}/")

    assert response.status_code == 404
    (line,) = request_lines(console)
    assert f"GET {UNMATCHED} 404 " in line
    assert SECRET_TOKEN not in console.getvalue()


@pytest.mark.django_db
def test_django_s_line_about_a_refused_form_names_its_route_not_its_token(console):
    # An object's id in the dashboard's path stands for any secret a path can carry.
    response = HttpClient(enforce_csrf_checks=True).post(
        f"/admin/bookings/appointment/{SECRET_TOKEN}/change/"
    )

    assert response.status_code == 403
    (line,) = [line for line in console.getvalue().splitlines() if "django.security.csrf" in line]
    assert line.endswith("): admin/bookings/appointment/<path:object_id>/change/")
    assert SECRET_TOKEN not in console.getvalue()


def test_the_health_endpoints_are_not_logged(console):
    assert HttpClient().get("/health/live").status_code == 200

    assert request_lines(console) == []


# --- the request id ---------------------------------------------------------------------------


def test_every_response_carries_a_new_request_id():
    first = HttpClient().get("/no-such-page/")
    second = HttpClient().get("/no-such-page/")

    assert MADE_HERE.match(first["X-Request-ID"])
    assert MADE_HERE.match(second["X-Request-ID"])
    assert first["X-Request-ID"] != second["X-Request-ID"]


def test_a_valid_request_id_sent_by_the_client_is_kept(console):
    sent = str(uuid.uuid4())

    response = HttpClient().get("/no-such-page/", headers={"X-Request-ID": sent})

    assert response["X-Request-ID"] == sent
    (line,) = request_lines(console)
    assert f"[{sent}]" in line


@pytest.mark.parametrize("sent", ["not-a-request-id", "1 forged log line", "x" * 300])
def test_an_invalid_request_id_sent_by_the_client_is_replaced(console, sent):
    response = HttpClient().get("/no-such-page/", headers={"X-Request-ID": sent})

    assert MADE_HERE.match(response["X-Request-ID"])
    (line,) = request_lines(console)
    assert f"[{response['X-Request-ID']}]" in line


@pytest.mark.django_db
def test_a_cross_origin_caller_may_read_the_request_id_and_retry_after():
    # The widget on a business's own site reads both; django-guid's own exposing header
    # would have replaced django-cors-headers' list.
    business = BusinessFactory(embed_origins=SHOP)

    response = HttpClient().get(
        f"/api/v1/businesses/{business.slug}/services/", headers={"Origin": SHOP}
    )

    assert response.headers["Access-Control-Allow-Origin"] == SHOP
    exposed = {h.strip() for h in response.headers["Access-Control-Expose-Headers"].split(",")}
    assert exposed == {"retry-after", "x-request-id"}


# --- the format -------------------------------------------------------------------------------

# A request through every middleware on the production settings (no database is reached: the
# path is the API's own not-found answer); prints the id the response returned.
REQUEST_IN_PRODUCTION = f"""
from django.test import Client
response = Client().get(
    "/api/v1/manage/{SECRET_TOKEN}/x/", secure=True, HTTP_HOST="book.ordina.example"
)
print(response["X-Request-ID"])
"""


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def test_production_logs_one_json_object_per_line_with_the_request_id():
    result = load_production(PRODUCTION_ENV, REQUEST_IN_PRODUCTION)

    assert result.returncode == 0, result.stderr
    request_id = result.stdout.strip()
    lines = json_lines(result.stderr)
    (request_line,) = [line for line in lines if line["logger"] == "ordina.requests"]
    assert request_line | {"time": "", "duration_ms": 0} == {
        "time": "",
        "level": "INFO",
        "logger": "ordina.requests",
        "message": request_line["message"],
        "request_id": request_id,
        "method": "GET",
        "route": "api/v1/",  # the API's catch-all, answering 404
        "status": 404,
        "duration_ms": 0,
        "client": "127.0.0.1",
    }
    assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+\+00:00$", request_line["time"])
    assert all(line["request_id"] == request_id for line in lines)
    assert SECRET_TOKEN not in result.stderr


def test_production_logs_text_when_asked():
    result = load_production({**PRODUCTION_ENV, "LOG_FORMAT": "text"}, REQUEST_IN_PRODUCTION)

    assert result.returncode == 0, result.stderr
    assert json_lines(result.stderr) == []
    assert f"ordina.requests [{result.stdout.strip()}] GET api/v1/ 404" in result.stderr


@pytest.mark.parametrize("settings_module", ["ordina.settings.production", "ordina.settings.local"])
@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("LOG_FORMAT", "yaml", "LOG_FORMAT must be one of json, text (got 'yaml')"),
        ("LOG_FORMAT", "JSON ", "LOG_FORMAT must be one of json, text (got 'JSON ')"),
        ("LOG_LEVEL", "LOUD", "LOG_LEVEL must be a logging level"),
    ],
)
def test_an_unknown_log_format_or_level_is_refused_at_start(settings_module, name, value, message):
    result = run_python(
        settings_module, {**PRODUCTION_ENV, name: value}, "-c", f"import {settings_module}"
    )

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert message in result.stderr


# --- a task queued by a request, in a real worker -----------------------------------------------


@pytest.fixture
def worker_queue() -> Iterator[str]:
    """Tasks this process queues go to a queue of the test's own worker."""
    name = new_queue("logging")
    before = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = name
    yield name
    celery_app.conf.task_default_queue = before
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    broker.delete(name, f"_kombu.binding.{name}", f"_kombu.binding_permanent.{name}")


def task_lines(log: str, task: str) -> list[dict]:
    """The worker's "succeeded" lines for ``task``: logged while the task runs, under its id
    ("received" is logged before the id is read from the task)."""
    return [
        line
        for line in json_lines(log)
        if line["message"].startswith(f"Task {task}[") and " succeeded " in line["message"]
    ]


@pytest.mark.django_db(transaction=True)
def test_a_worker_logs_a_task_under_the_id_of_the_request_that_queued_it(worker_queue, tmp_path):
    business = BusinessFactory()
    grants_set(business=business)
    worker = Worker(
        name="logging",
        mail_dir=tmp_path / "mail",
        log_path=tmp_path / "worker.log",
        env={"LOG_FORMAT": "json"},
        queue=worker_queue,
    )
    api = HttpClient()
    try:
        worker.wait_ready()
        token = started(api, business.slug)
        asked = api.post(
            f"/api/v1/conversations/{token}/verification/",
            {"email": "nobody@example.com"},
            content_type="application/json",
        )
        assert asked.status_code == 202, asked.content
        worker.dispatch()  # as beat would: queued by no request
        try:
            wait_for(
                lambda: (
                    task_lines(worker.log(), "agent.tasks.deliver_verification_code")
                    and task_lines(worker.log(), "reminders.tasks.dispatch_reminders")
                ),
                seconds=WORKER_SECONDS,
                what="both tasks to be logged",
            )
        except AssertionError as gave_up:
            raise AssertionError(f"{gave_up}; the worker's log:\n{worker.log()[-4000:]}") from None
    finally:
        worker.stop()
        worker.forget()

    log = worker.log()
    assert len(task_lines(log, "agent.tasks.deliver_verification_code")) == 1, log[-4000:]
    (delivered,) = task_lines(log, "agent.tasks.deliver_verification_code")
    assert delivered["request_id"] == asked["X-Request-ID"]
    (dispatched,) = task_lines(log, "reminders.tasks.dispatch_reminders")
    assert MADE_HERE.match(dispatched["request_id"])
    assert dispatched["request_id"] not in {asked["X-Request-ID"], None}


# --- gunicorn, as the web process runs ----------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_gunicorn_and_django_both_log_json_lines_in_production(production_servers):
    server = production_servers(workers=1)

    answer = server.http.get(f"/api/v1/manage/{SECRET_TOKEN}/?token={SECRET_TOKEN}")
    server.kill()

    log = server.log_path.read_text()
    lines = [line for line in log.splitlines() if line.strip()]
    assert [line for line in lines if not line.startswith("{")] == []
    parsed = json_lines(log)
    assert any(
        line["logger"] == "gunicorn.error" and line["message"].startswith("Booting worker")
        for line in parsed
    )
    (request_line,) = [line for line in parsed if line["logger"] == "ordina.requests"]
    assert request_line["request_id"] == answer.headers["X-Request-ID"]
    assert request_line["route"] == "api/v1/manage/<str:token>/"
    assert SECRET_TOKEN not in log  # nor in a gunicorn access line: there is none
