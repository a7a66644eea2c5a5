"""The health endpoints (ordina.health): ``/health/live`` says the process answers and reads
nothing; ``/health/ready`` checks the database, the cache, the broker and the migrations, each
within HEALTH_CHECK_SECONDS, and says which failed without saying more than the error's class.

Three parts: the readiness verdict over plain functions (no database); the endpoints in this
process, against the rest of the middleware (hosts, HTTPS redirect, rate limit); and readiness
failing for real, through gunicorn on the production settings with one service taken away.
"""

from __future__ import annotations

import json
import secrets
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator

import psycopg
import pytest
from django.core.cache import cache
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.test import Client as HttpClient

from ordina.health import NotReady, readiness
from tests.factories import BusinessFactory
from tests.reminders.real_worker import current_database_url
from tests.servers import ProductionServer

LIVE, READY = "/health/live", "/health/ready"
ALL_OK = {"database": "ok", "cache": "ok", "broker": "ok", "migrations": "ok"}
# How late past HEALTH_CHECK_SECONDS a readiness answer may come (a request's own work).
MARGIN_SECONDS = 0.9
# The deadline where a test is about what a check finds, not how fast: on a machine busy with
# other tests, a healthy check must not be read as timed out.
PATIENT_SECONDS = 10.0


@pytest.fixture(autouse=True)
def patient_checks(settings) -> None:
    settings.HEALTH_CHECK_SECONDS = PATIENT_SECONDS


# --- the verdict, over plain functions --------------------------------------------------------


@pytest.fixture
def hang() -> Iterator[Callable[[], None]]:
    """A check that blocks until the test is over (then returns, so no thread outlives it)."""
    released = threading.Event()
    yield lambda: released.wait(30)
    released.set()


def passes() -> None:
    pass


def leaks_a_host() -> None:
    raise ConnectionRefusedError("could not reach db.internal:5432 as user ordina_admin")


def finds_unapplied() -> None:
    raise NotReady("3 migrations are not applied")


def test_every_check_passing_is_ok():
    assert readiness({"one": passes, "two": passes}, seconds=1) == {"one": "ok", "two": "ok"}


def test_a_failure_is_named_by_its_class_and_never_by_its_message():
    results = readiness({"database": leaks_a_host}, seconds=1)

    assert results == {"database": "failed: ConnectionRefusedError"}


def test_a_checks_own_finding_is_shown_as_it_says():
    assert readiness({"migrations": finds_unapplied}, seconds=1) == {
        "migrations": "failed: 3 migrations are not applied"
    }


def test_checks_past_the_deadline_time_out_together_within_one_deadline(hang):
    started = time.monotonic()

    results = readiness({"cache": hang, "broker": hang, "database": passes}, seconds=0.5)

    assert results == {"cache": "timed out", "broker": "timed out", "database": "ok"}
    # one deadline for all, not one per check waited on in turn
    assert time.monotonic() - started < 0.5 + 0.4


# --- the endpoints in this process --------------------------------------------------------------


@pytest.fixture
def http() -> HttpClient:
    return HttpClient()


def test_live_answers_alive_without_reading_the_database(http, db, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = http.get(LIVE)

    assert response.status_code == 200
    assert response.json() == {"status": "alive"}
    assert response["Content-Type"] == "application/json"


def test_ready_answers_ready_when_database_cache_broker_and_migrations_are_ok(http, db):
    response = http.get(READY)

    assert response.status_code == 200, response.content
    assert response.json() == {"status": "ready", "checks": ALL_OK}


@pytest.mark.parametrize("path", [LIVE, READY])
def test_health_is_never_cached(http, db, path):
    assert http.get(path)["Cache-Control"] == "no-store"


@pytest.mark.parametrize("path", [LIVE, READY])
def test_a_trailing_slash_is_the_same_endpoint(http, db, path):
    assert http.get(path + "/").status_code == 200


@pytest.mark.parametrize("path", [LIVE, READY])
def test_post_is_refused_with_the_methods_allowed(http, path):
    response = http.post(path)

    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"
    assert response["Cache-Control"] == "no-store"


def test_a_load_balancer_probing_by_an_unlisted_host_is_answered(db):
    # given a probe by the machine's address, which ALLOWED_HOSTS does not list
    probe = HttpClient(HTTP_HOST="10.1.2.3:8000")

    assert probe.get("/api/v1/businesses/").status_code == 400  # a page refuses that host
    assert probe.get(LIVE).status_code == 200
    assert probe.get(READY).status_code == 200


def test_health_answers_plain_http_where_pages_redirect_to_https(http, db, settings):
    settings.SECURE_SSL_REDIRECT = True

    assert http.get("/api/v1/businesses/").status_code == 301
    assert http.get(LIVE).status_code == 200
    assert http.get(READY).status_code == 200


def test_health_is_never_rate_limited(http, db, settings):
    # given a public API rate of two requests a minute, which a third API call exceeds
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"public": "2/minute"},
    }
    cache.clear()
    services = f"/api/v1/businesses/{BusinessFactory().slug}/services/"
    assert [http.get(services).status_code for _ in range(3)] == [200, 200, 429]

    # when a probe asks many times from the same address
    answers = [http.get(path) for path in [LIVE, READY] * 10]

    # then every one is answered
    assert [answer.status_code for answer in answers] == [200] * 20, [a.content for a in answers]


# --- readiness failing, through gunicorn on the production settings ---------------------------


@pytest.fixture
def patient_servers(production_servers) -> Callable[..., ProductionServer]:
    """gunicorn on the production settings (``production_servers``), its checks patient unless
    a test sets HEALTH_CHECK_SECONDS."""
    return lambda **env: production_servers(**{"HEALTH_CHECK_SECONDS": str(PATIENT_SECONDS), **env})


def ask(server: ProductionServer, path: str) -> tuple[int, dict, bytes, float]:
    """Status, headers, body and how long the answer took."""
    started = time.monotonic()
    answer = server.http.get(path)
    return answer.status_code, answer.headers, answer.content, time.monotonic() - started


def readiness_of(server: ProductionServer) -> tuple[int, dict[str, str]]:
    answer = server.http.get(READY)
    return answer.status_code, answer.json()["checks"]


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port that refuses every connection, held for the test: bound, never listening, so no
    server started meanwhile (this test's own gunicorn included) can take it and answer."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        yield holder.getsockname()[1]


@pytest.fixture
def black_hole() -> Iterator[int]:
    """A port that accepts connections and never answers (a hung Redis, a dropped route):
    the kernel completes each handshake into the listening queue; nothing ever reads it."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        yield listener.getsockname()[1]


def test_an_unreachable_database_is_named_without_its_url_and_the_process_stays_live(
    patient_servers, db, closed_port
):
    password = secrets.token_hex(12)
    server = patient_servers(
        DATABASE_URL=f"postgres://probe_user:{password}@127.0.0.1:{closed_port}/ordina"
    )

    status, headers, body, _ = ask(server, READY)

    assert status == 503
    # the migrations cannot be read either: the same database
    assert json.loads(body)["checks"] == {
        **ALL_OK,
        "database": "failed: OperationalError",
        "migrations": "failed: OperationalError",
    }
    for secret in (password, "probe_user"):
        assert secret not in body.decode()
        assert secret not in str(headers)
    # a database outage is not a reason to restart the web process
    assert server.http.get(LIVE).status_code == 200


@pytest.mark.parametrize(
    ("variable", "check", "failure"),
    [
        ("CACHE_URL", "cache", "failed: ConnectionError"),  # redis-py's
        ("CELERY_BROKER_URL", "broker", "failed: OperationalError"),  # kombu's
    ],
)
def test_an_unreachable_redis_is_named(patient_servers, db, closed_port, variable, check, failure):
    server = patient_servers(**{variable: f"redis://127.0.0.1:{closed_port}/0"})

    status, checks = readiness_of(server)

    assert status == 503
    assert checks == {**ALL_OK, check: failure}


@pytest.fixture
def empty_database(db) -> Iterator[str]:
    """The URL of a new PostgreSQL database with nothing migrated; dropped at the end."""
    test_url = current_database_url()
    name = f"{test_url.rsplit('/', 1)[1]}_empty_{uuid.uuid4().hex[:8]}"
    server_url = test_url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield test_url.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_database_without_migrations_is_not_ready(patient_servers, empty_database):
    every_migration = len(MigrationLoader(None, ignore_no_migrations=True).graph.nodes)
    server = patient_servers(DATABASE_URL=empty_database)

    status, checks = readiness_of(server)

    assert status == 503
    assert checks == {
        **ALL_OK,
        "migrations": f"failed: {every_migration} migrations are not applied",
    }


def test_a_redis_that_never_answers_times_out_within_the_deadline(patient_servers, db, black_hole):
    hung = f"redis://127.0.0.1:{black_hole}/0"
    server = patient_servers(HEALTH_CHECK_SECONDS="1", CACHE_URL=hung, CELERY_BROKER_URL=hung)

    status, _, body, seconds = ask(server, READY)

    assert status == 503
    checks = json.loads(body)["checks"]
    assert checks["cache"] == checks["broker"] == "timed out"
    assert seconds < 1 + MARGIN_SECONDS


def test_probes_leave_no_database_connection_behind(patient_servers, db):
    # given a server whose database sessions are recognisable by their application name
    name = f"ordina-probe-{uuid.uuid4().hex[:8]}"
    workers = 2
    server = patient_servers(
        workers=workers, DATABASE_URL=f"{current_database_url()}?application_name={name}"
    )

    # when a load balancer probes it many times
    answers = {server.http.get(READY).status_code for _ in range(30)}

    # then no probe left its session open: at most one per worker remains
    assert answers == {200}
    assert sessions_named(name) <= workers


def sessions_named(name: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # fresh, even inside a transaction
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [name])
        return cursor.fetchone()[0]
