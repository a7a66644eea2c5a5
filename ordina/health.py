"""Health endpoints for a load balancer or a process supervisor, answered before anything else.

- ``/health/live``: the process answers. Nothing is read, so a database outage never makes a
  supervisor restart healthy web processes.
- ``/health/ready``: this process can serve: the database answers, the cache and the broker
  (Redis) answer, and every migration this code knows of is applied. Each check has
  ``HEALTH_CHECK_SECONDS`` at most, all of them run at once, and a check that does not finish
  in time counts as failed. 200 when all pass, 503 otherwise.

Both answer JSON, are never cached, and name a failure by its class only (``OperationalError``),
never by its message, which can carry a host name or a user. They are answered by the
outermost middleware, so they skip everything a page goes through: the host check (a load
balancer probes by the machine's address), the HTTPS redirect (it probes over plain HTTP), the
session, and the API's rate limit.
"""

import json
import logging
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from django.conf import settings
from django.core.cache import cache
from django.db import connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)


class NotReady(Exception):
    """A check's own finding, safe to show (a count, never a host or a user)."""


LIVE = "/health/live"
READY = "/health/ready"


def check_database() -> None:
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT 1")


def check_cache() -> None:
    key = f"ordina:health:{uuid.uuid4().hex}"
    cache.set(key, 1, timeout=10)
    if cache.get(key) != 1:
        raise NotReady("the cache did not return what was just written to it")
    cache.delete(key)


def check_broker() -> None:
    from ordina.celery import app  # the Celery app is only needed by this check

    # One attempt: kombu sleeps two seconds before a retry, past the probe's deadline, so a
    # refused connection would read as "timed out" rather than as the error it is.
    with app.connection_for_write() as connection:
        connection.ensure_connection(max_retries=0, timeout=settings.HEALTH_CHECK_SECONDS)


# Once every migration is applied, it stays applied for this process's code: the answer is kept
# so a probe every few seconds does not read the migration files again.
_migrations_applied = False


def check_migrations() -> None:
    global _migrations_applied
    if _migrations_applied:
        return
    executor = MigrationExecutor(connections["default"])
    unapplied = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if unapplied:
        raise NotReady(f"{len(unapplied)} migrations are not applied")
    _migrations_applied = True


CHECKS: dict[str, Callable[[], None]] = {
    "database": check_database,
    "cache": check_cache,
    "broker": check_broker,
    "migrations": check_migrations,
}


def _run(check: Callable[[], None]) -> None:
    """``check`` in a thread of its own; the thread's database connection is closed after, so
    probes never leave connections behind."""
    try:
        check()
    finally:
        connections.close_all()


def readiness(checks: dict[str, Callable[[], None]], seconds: float) -> dict[str, str]:
    """Each check's result, ``"ok"``, ``"timed out"``, ``"failed: <ErrorClass>"`` or, for a
    check's own finding, ``"failed: <finding>"``; all run
    at once and waited on for ``seconds`` in all."""
    deadline = time.monotonic() + seconds
    pool = ThreadPoolExecutor(max_workers=len(checks), thread_name_prefix="health")
    futures = {name: pool.submit(_run, check) for name, check in checks.items()}
    results: dict[str, str] = {}
    try:
        for name, future in futures.items():
            try:
                # What is left of the one deadline: waiting ``seconds`` on each in turn would
                # let two hanging checks take twice as long.
                future.result(timeout=max(0.0, deadline - time.monotonic()))
                results[name] = "ok"
            except FutureTimeout:
                results[name] = "timed out"
            except NotReady as finding:
                results[name] = f"failed: {finding}"
            except Exception as error:
                logger.warning("Readiness check %s failed: %s", name, type(error).__name__)
                results[name] = f"failed: {type(error).__name__}"
    finally:
        # A check still running finishes (or fails) on its own; the answer does not wait.
        pool.shutdown(wait=False, cancel_futures=True)
    return results


def _json(status: int, body: dict) -> HttpResponse:
    response = HttpResponse(json.dumps(body), status=status, content_type="application/json")
    response["Cache-Control"] = "no-store"
    return response


class HealthMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info.rstrip("/")
        if path not in (LIVE, READY):
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            response = _json(405, {"detail": "Use GET or HEAD."})
            response["Allow"] = "GET, HEAD"
            return response
        if path == LIVE:
            return _json(200, {"status": "alive"})
        results = readiness(CHECKS, settings.HEALTH_CHECK_SECONDS)
        ready = all(result == "ok" for result in results.values())
        body = {"status": "ready" if ready else "not ready", "checks": results}
        return _json(200 if ready else 503, body)
