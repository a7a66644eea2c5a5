"""A database that cannot be reached gives 503 with Retry-After — JSON on the API and the payment
endpoints, a short plain page on the dashboard — and one log line with the cause; never a 500
and never a traceback page, even with DEBUG on.

The refused database is met by a real server process: ``ordina.wsgi`` (the production entry
point) served by wsgiref on the local settings with DEBUG on, its DATABASE_URL pointing at a
port where nothing listens. (``manage.py runserver`` cannot be used here: it reads the
migration table before it serves, so it will not start without a database.) The connection
lost in the middle of a request is met in this process: the server side of its real
PostgreSQL connection is terminated before the request uses it.
"""

import json
import logging
import os
import secrets
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import psycopg
import pytest
from django.db import connection
from django.test import Client as HttpClient

from devtools.fake_stripe import sign
from tests.factories import BusinessFactory
from tests.reminders.real_worker import current_database_url, wait_for

ROOT = Path(__file__).resolve().parent.parent
WEBHOOK_SECRET = "whsec_database_unavailable_test"
INTERNAL_SECRET = secrets.token_urlsafe(24)
SESSION_KEY = "a" * 32  # well-formed, so the session store is asked for it
SERVE = (
    "import sys; from wsgiref.simple_server import make_server; "
    "from ordina.wsgi import application; "
    "make_server('127.0.0.1', int(sys.argv[1]), application).serve_forever()"
)


def unused_port() -> int:
    """A port nothing listens on (bound for a moment, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Answer:
    def __init__(self, status: int, headers, body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    def json(self) -> dict:
        assert self.headers["Content-Type"] == "application/json", self.headers["Content-Type"]
        return json.loads(self.body)


class ServerWithoutDatabase:
    def __init__(self, log_path: Path) -> None:
        self.port = unused_port()
        self.log_path = log_path
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "ordina.settings.local",
            "DEBUG": "true",  # the traceback page must not be what answers
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:{unused_port()}/ordina",
            "STRIPE_WEBHOOK_SECRET": WEBHOOK_SECRET,
            "PAYMENTS_INTERNAL_SECRET": INTERNAL_SECRET,
            "PYTHONUNBUFFERED": "1",
        }
        with log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-c", SERVE, str(self.port)],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_ready(self) -> None:
        def answers() -> bool:
            if self.process.poll() is not None:
                raise AssertionError(f"the server exited at start:\n{self.log()[-3000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return True
            except OSError:
                return False

        wait_for(answers, seconds=60, what=f"the server on port {self.port}")

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict | None = None
    ) -> Answer:
        call = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", data=body, method=method, headers=headers or {}
        )
        try:
            with urllib.request.urlopen(call, timeout=30) as response:  # noqa: S310 - local
                return Answer(response.status, response.headers, response.read())
        except urllib.error.HTTPError as error:
            return Answer(error.code, error.headers, error.read())

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(15)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = ServerWithoutDatabase(tmp_path_factory.mktemp("server") / "server.log")
    try:
        server.wait_ready()
        yield server
    finally:
        server.kill()


def assert_json_503(answer: Answer) -> None:
    assert answer.status == 503, answer.body[:500]
    assert answer.json() == {
        "detail": "The service is briefly unavailable: its database cannot be reached. "
        "Try again shortly.",
        "code": "database_unavailable",
    }
    assert answer.headers["Retry-After"] == "30"


def test_the_public_api_answers_json_503_with_retry_after(server):
    assert_json_503(server.request("GET", "/api/v1/businesses/studio-lumen/services/"))
    assert_json_503(
        server.request(
            "POST",
            f"/api/v1/conversations/{secrets.token_urlsafe(16)}/messages/",
            json.dumps({"text": "a haircut please"}).encode(),
            {"Content-Type": "application/json"},
        )
    )


def test_stripe_sees_a_non_2xx_for_a_valid_webhook_so_it_delivers_it_again(server):
    event = json.dumps(
        {"id": "evt_db_down", "type": "checkout.session.completed", "data": {"object": {}}}
    ).encode()

    answer = server.request(
        "POST",
        "/payments/stripe/webhook/",
        event,
        {"Content-Type": "application/json", "Stripe-Signature": sign(event, WEBHOOK_SECRET)},
    )

    assert_json_503(answer)


def test_the_internal_verification_call_answers_json_503(server):
    answer = server.request(
        "POST",
        f"/payments/internal/verify/{uuid.uuid4()}/",
        b"",
        {"X-Ordina-Internal-Secret": INTERNAL_SECRET},
    )

    assert_json_503(answer)


def test_the_dashboard_answers_a_short_plain_503_not_a_traceback_page(server):
    # With a session cookie, the session is read by a middleware, before any view runs.
    answer = server.request("GET", "/admin/", headers={"Cookie": f"sessionid={SESSION_KEY}"})

    assert answer.status == 503
    assert answer.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert answer.headers["Retry-After"] == "30"
    assert len(answer.body) < 200
    assert b"database cannot be reached" in answer.body


def test_each_failure_is_logged_with_its_cause_and_no_500(server):
    server.request("GET", "/api/v1/businesses/logged/services/")

    def logged() -> str | None:
        log = server.log()
        route = "GET api/v1/businesses/<str:slug>/services/: OperationalError"
        return log if route in log else None

    log = wait_for(logged, seconds=10, what="the log line")
    line = next(line for line in log.splitlines() if "answering 503 to GET" in line)
    assert "Database unavailable, answering 503 to GET api/v1/businesses/<str:slug>/" in line
    assert "/logged/" not in line  # the route, never the path (paths can carry tokens)
    assert "Connection refused" in line
    assert "Internal Server Error" not in log
    assert '" 500 ' not in log


@pytest.mark.django_db(transaction=True)
def test_a_connection_lost_before_the_request_uses_it_gives_json_503(caplog):
    business = BusinessFactory()
    backend_pid = connection.connection.info.backend_pid
    with psycopg.connect(current_database_url(), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [backend_pid])

    try:
        with caplog.at_level(logging.ERROR, logger="ordina.database_unavailable"):
            answer = HttpClient().get(f"/api/v1/businesses/{business.slug}/services/")
    finally:
        connection.close()  # the terminated connection; the next query opens a new one

    assert answer.status_code == 503
    assert answer.json()["code"] == "database_unavailable"
    assert answer["Retry-After"] == "30"
    causes = [
        record.getMessage().split(": ")[1]
        for record in caplog.records
        if record.name == "ordina.database_unavailable"
    ]
    assert causes == ["OperationalError"]
