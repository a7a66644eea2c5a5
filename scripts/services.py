"""Make sure the services the test suite needs answer: PostgreSQL and Redis; and that the
browser tests' tools are installed: Chromium and axe-core (browser_tools.py).

Each is tried at the address the tests will use (DATABASE_URL, CELERY_BROKER_URL, with the test
settings' defaults). A service that does not answer is started where this machine knows how
(Debian's pg_ctlcluster, a local redis-server); if it still does not answer, exit non-zero with
a clear message. Tests are never skipped for a missing service.
"""

import os
import shutil
import subprocess
import sys
import time
from urllib.parse import urlsplit

import psycopg
import redis
from browser_tools import ensure_axe, ensure_chromium

DATABASE_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ordina")
BROKER_URL = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")
WAIT_SECONDS = 30


def postgres_answers() -> bool:
    url = urlsplit(DATABASE_URL)
    try:
        with psycopg.connect(
            host=url.hostname or "127.0.0.1",
            port=url.port or 5432,
            user=url.username or "postgres",
            password=url.password,
            dbname="postgres",
            connect_timeout=3,
        ) as conn:
            conn.execute("select 1")
        return True
    except psycopg.OperationalError:
        return False


def redis_answers() -> bool:
    try:
        return bool(redis.Redis.from_url(BROKER_URL, socket_connect_timeout=3).ping())
    except redis.RedisError:
        return False


def start_postgres() -> str:
    if not shutil.which("pg_lsclusters"):
        return "no pg_lsclusters here (not a Debian PostgreSQL install)"
    clusters = subprocess.run(
        ["pg_lsclusters", "--no-header"], capture_output=True, text=True, check=False
    ).stdout.split("\n")
    started = []
    for line in filter(None, clusters):
        version, name, _port, status, *_ = line.split()
        if status != "online":
            subprocess.run(
                ["pg_ctlcluster", "--skip-systemctl-redirect", version, name, "start"],
                check=False,
            )
            started.append(f"{version}/{name}")
    return f"started cluster(s) {', '.join(started)}" if started else "no stopped cluster found"


def start_redis() -> str:
    if not shutil.which("redis-server"):
        return "no redis-server on PATH"
    url = urlsplit(BROKER_URL)
    subprocess.run(
        [
            "redis-server",
            "--daemonize",
            "yes",
            "--bind",
            url.hostname or "127.0.0.1",
            "--port",
            str(url.port or 6379),
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        check=False,
    )
    return "started redis-server"


def ensure(name: str, answers, start) -> bool:
    if answers():
        print(f"services: {name} answers")
        return True
    print(f"services: {name} does not answer; trying to start it: {start()}")
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if answers():
            print(f"services: {name} answers")
            return True
        time.sleep(0.5)
    return False


def main() -> int:
    failures = []
    if not ensure("PostgreSQL", postgres_answers, start_postgres):
        failures.append(f"PostgreSQL is not reachable at {DATABASE_URL}")
    if not ensure("Redis", redis_answers, start_redis):
        failures.append(f"Redis is not reachable at {BROKER_URL}")
    failures += filter(None, [ensure_chromium(), ensure_axe()])
    for failure in failures:
        print(
            f"services: FAILED: {failure}. Tests never skip for a missing service or tool.",
            file=sys.stderr,
        )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
