"""Real ``manage.py runserver`` processes on the pytest test database, for tests that kill a
server (SIGKILL: nothing is flushed, closed or finished) and carry on with another.

They live in real time (time cannot be moved for another process), so every wait on them has a
deadline, and the ``servers`` fixture (tests/conftest.py) kills each one in a ``finally``
whatever happens.
"""

from __future__ import annotations

import os
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
        command = [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{self.port}"]
        with log_path.open("wb") as log:
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
