"""The Celery worker's and beat's liveness check (ordina.liveness, ``python -m ordina.alive``):
the verdict on a heartbeat file of a given age, then real processes — a worker and beat
started as a deployment starts them, renewing their file while they run, removing it when
stopped cleanly, and leaving it to go stale when killed.

The processes live in real time, so the heartbeat is renewed every half second here
(HEARTBEAT_SECONDS) and a check is asked for a heartbeat within one second.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ordina.liveness import heartbeat_path, verdict
from tests.reminders.real_worker import ROOT, STOP_SECONDS, Worker, current_database_url, wait_for

HEARTBEAT_SECONDS = "0.5"
WITHIN = 1.0
# Longer than WITHIN plus a few missed renewals: a heartbeat this old is stale, not late.
STALE_AFTER = 2.0
START_SECONDS = 60.0
# Anything beat would send goes to a Redis database no other test uses.
BEAT_BROKER_URL = "redis://127.0.0.1:6379/9"


def alive(
    role: str, heartbeat_dir: Path, within: float | None = None
) -> subprocess.CompletedProcess:
    """``python -m ordina.alive <role> [--within S]``, as a supervisor runs it."""
    arguments = [] if within is None else ["--within", str(within)]
    return subprocess.run(
        [sys.executable, "-m", "ordina.alive", role, *arguments],
        cwd=ROOT,
        env={**os.environ, "HEARTBEAT_DIR": str(heartbeat_dir)},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


# --- the verdict, on a file of a given age ------------------------------------------------


@pytest.fixture
def heartbeats(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("HEARTBEAT_DIR", str(tmp_path))
    return tmp_path


def touched_at(role: str, when: float) -> None:
    path = heartbeat_path(role)
    path.touch()
    os.utime(path, (when, when))


def test_a_heartbeat_younger_than_the_limit_is_alive(heartbeats):
    touched_at("worker", 1_000_000.0)

    is_alive, message = verdict("worker", within=60, now=1_000_059.0)

    assert is_alive
    assert message == "worker: alive (last heartbeat 59 s ago)"


def test_a_heartbeat_older_than_the_limit_is_stale(heartbeats):
    touched_at("beat", 1_000_000.0)

    is_alive, message = verdict("beat", within=60, now=1_000_061.0)

    assert not is_alive
    assert message == "beat: last heartbeat 61 s ago (more than 60 s)"


def test_no_heartbeat_file_is_not_alive(heartbeats):
    is_alive, message = verdict("worker", within=60, now=1_000_000.0)

    assert not is_alive
    assert message.startswith("worker: no heartbeat at ")


def test_one_role_alive_says_nothing_of_the_other(heartbeats):
    touched_at("worker", 1_000_000.0)

    assert not verdict("beat", within=60, now=1_000_001.0)[0]


# --- a real worker ---------------------------------------------------------------------------


def started_worker(tmp_path: Path, name: str) -> tuple[Worker, Path]:
    heartbeat_dir = tmp_path / f"{name}-heartbeat"
    worker = Worker(
        name=name,
        mail_dir=tmp_path,
        log_path=tmp_path / f"{name}.log",
        env={"HEARTBEAT_DIR": str(heartbeat_dir), "HEARTBEAT_SECONDS": HEARTBEAT_SECONDS},
    )
    return worker, heartbeat_dir


@pytest.fixture
def workers(tmp_path, db) -> Iterator[list[Worker]]:
    """The workers a test starts; each one still running is killed at the end, and what its
    queue left on the broker removed."""
    started: list[Worker] = []
    try:
        yield started
    finally:
        for worker in started:
            if worker.process.poll() is None:
                worker.kill()
            worker.forget()


def test_a_worker_is_alive_while_it_runs_and_not_once_stopped_or_killed(tmp_path, workers):
    # given two real workers, renewing their heartbeats
    stopped, stopped_dir = started_worker(tmp_path, "stopped")
    killed, killed_dir = started_worker(tmp_path, "killed")
    workers.extend([stopped, killed])
    stopped.wait_ready()
    killed.wait_ready()
    assert alive("worker", stopped_dir).returncode == 0

    # the heartbeat is renewed, not only written at start
    time.sleep(STALE_AFTER)
    assert alive("worker", stopped_dir, WITHIN).returncode == 0, stopped.log()[-2000:]

    # when one stops cleanly (SIGTERM, a warm shutdown) and the other is killed
    stopped.stop()
    killed.kill()
    assert stopped.process.returncode == 0, stopped.log()[-2000:]

    # then the stopped one removed its file
    after_stop = alive("worker", stopped_dir)
    assert after_stop.returncode == 1
    assert "no heartbeat" in after_stop.stderr
    # and the killed one's file, left behind, goes stale
    time.sleep(STALE_AFTER)
    after_kill = alive("worker", killed_dir, WITHIN)
    assert after_kill.returncode == 1
    assert "last heartbeat" in after_kill.stderr
    assert (killed_dir / "worker").exists()


# --- a real beat -----------------------------------------------------------------------------


class Beat:
    """``celery -A ordina beat`` on the test settings, its schedule file and heartbeat in
    ``directory``, in a process group of its own."""

    def __init__(self, directory: Path) -> None:
        self.heartbeat_dir = directory / "heartbeat"
        self.log_path = directory / "beat.log"
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "ordina.settings.test",
            "DATABASE_URL": current_database_url(),
            "CELERY_BROKER_URL": BEAT_BROKER_URL,
            "CELERY_BEAT_SCHEDULE_FILENAME": str(directory / "celerybeat-schedule"),
            "HEARTBEAT_DIR": str(self.heartbeat_dir),
            "HEARTBEAT_SECONDS": HEARTBEAT_SECONDS,
        }
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "ordina", "beat", "--loglevel=INFO"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:]

    def wait_alive(self) -> None:
        def heartbeat() -> bool:
            assert self.process.poll() is None, f"beat exited at start:\n{self.log()}"
            return (self.heartbeat_dir / "beat").exists()

        wait_for(heartbeat, seconds=START_SECONDS, what="beat's first heartbeat")

    def signal(self, number: signal.Signals) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, number)
        self.process.wait(STOP_SECONDS)


@pytest.fixture
def beats(tmp_path, db) -> Iterator[list[Beat]]:
    """The beats a test starts; each one still running is killed at the end."""
    started: list[Beat] = []
    try:
        yield started
    finally:
        for beat in started:
            beat.signal(signal.SIGKILL)


def test_beat_is_alive_while_it_runs_and_not_once_stopped_or_killed(tmp_path, beats):
    # given two real beats, each with its own schedule file and heartbeat
    (tmp_path / "stopped").mkdir()
    (tmp_path / "killed").mkdir()
    stopped, killed = Beat(tmp_path / "stopped"), Beat(tmp_path / "killed")
    beats.extend([stopped, killed])
    stopped.wait_alive()
    killed.wait_alive()
    assert alive("beat", stopped.heartbeat_dir).returncode == 0

    # the heartbeat is renewed while beat sleeps between its (minute-long) entries
    time.sleep(STALE_AFTER)
    assert alive("beat", stopped.heartbeat_dir, WITHIN).returncode == 0, stopped.log()

    # when one stops cleanly (SIGTERM) and the other is killed
    stopped.signal(signal.SIGTERM)
    killed.signal(signal.SIGKILL)

    # then the stopped one removed its file
    after_stop = alive("beat", stopped.heartbeat_dir)
    assert after_stop.returncode == 1, stopped.log()
    assert "no heartbeat" in after_stop.stderr
    # and the killed one's file, left behind, goes stale
    time.sleep(STALE_AFTER)
    after_kill = alive("beat", killed.heartbeat_dir, WITHIN)
    assert after_kill.returncode == 1
    assert "last heartbeat" in after_kill.stderr
