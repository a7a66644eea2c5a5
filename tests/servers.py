"""Real server processes on the pytest test database: ``manage.py runserver`` on the test
settings, for tests that kill a server (SIGKILL: nothing is flushed, closed or finished) and
carry on with another; and gunicorn on the production settings (``ProductionServer``), as a
deployment serves Ordina, for tests of serving itself and of several machines at once.

They live in real time (time cannot be moved for another process), so every wait on them has a
deadline, and the ``servers`` fixture (tests/conftest.py) kills each one in a ``finally``
whatever happens.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
from pathlib import Path

from tests.agent.conversation.chat_http import ServerClient
from tests.reminders.real_worker import current_database_url, wait_for

ROOT = Path(__file__).resolve().parents[1]
READY_SECONDS = 60.0
STOP_SECONDS = 15.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """``manage.py runserver`` on the test database, in a process group of its own."""

    def __init__(self, log_path: Path, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.log_path = log_path
        server_env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "ordina.settings.test",
            "DATABASE_URL": current_database_url(),
            "ORDINA_MODEL": "offline",
            "PUBLIC_API_RATE": "1000/minute",
            "PYTHONUNBUFFERED": "1",
            **(env or {}),
        }
        self.start(self.command(), server_env)

    def command(self) -> list[str]:
        return [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{self.port}"]

    def start(self, command: list[str], server_env: dict[str, str]) -> None:
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=server_env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.http = ServerClient(f"http://127.0.0.1:{self.port}", timeout=30)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:]

    def wait_ready(self) -> None:
        def answers() -> bool:
            if self.process.poll() is not None:
                raise AssertionError(f"the server exited at start:\n{self.log()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return True
            except OSError:
                return False

        try:
            wait_for(answers, seconds=READY_SECONDS, what=f"the server on port {self.port}")
        except AssertionError as timeout:
            raise AssertionError(f"{timeout}\n{self.log()}") from None

    def kill(self) -> None:
        """SIGKILL: nothing is flushed, closed or finished."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(STOP_SECONDS)


def production_env(*, static_root: Path, mail_dir: Path, **overrides: str) -> dict[str, str]:
    """The environment of a production process on the test database and the local Redis: every
    secret the production settings require, made up; plain HTTP on loopback (no HTTPS
    redirect); mail written to files in ``mail_dir``, where a test reads it."""
    return {
        "DJANGO_SETTINGS_MODULE": "ordina.settings.production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": current_database_url(),
        "CACHE_URL": "redis://127.0.0.1:6379/14",
        "CELERY_BROKER_URL": "redis://127.0.0.1:6379/15",
        "EMAIL_URL": f"filemail://{mail_dir}",
        "STRIPE_SECRET_KEY": "sk_test_ordina_unset",
        "STRIPE_WEBHOOK_SECRET": "whsec_ordina_unset",
        "STRIPE_API_BASE": "http://127.0.0.1:9",
        "PAYMENTS_INTERNAL_SECRET": secrets.token_urlsafe(32),
        "SECURE_SSL_REDIRECT": "false",
        "STATIC_ROOT": str(static_root),
        "ORDINA_MODEL": "offline",
        **overrides,
    }


def collect_static(root: Path) -> None:
    """Gather the static files into ``root`` as the release step does (``collectstatic`` on
    the production settings: hashed names, compressed copies)."""
    env = production_env(static_root=root, mail_dir=root)
    result = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr


class ProductionServer(Server):
    """gunicorn, as the Procfile's web process runs it (``ordina.gunicorn``), on the production
    settings (``production_env``) with ``workers`` workers, on a port of its own."""

    def __init__(self, log_path: Path, env: dict[str, str], workers: int = 2) -> None:
        self.port = free_port()
        self.log_path = log_path
        server_env = {
            **os.environ,
            **env,
            "PORT": str(self.port),
            "WEB_BIND": "127.0.0.1",
            "WEB_CONCURRENCY": str(workers),
            "PYTHONUNBUFFERED": "1",
        }
        self.start(self.command(), server_env)

    def command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "gunicorn",
            "--config",
            "python:ordina.gunicorn",
            "ordina.wsgi",
        ]
