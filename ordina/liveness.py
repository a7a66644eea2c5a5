"""Liveness of the Celery worker and beat: each touches a heartbeat file while it works, and
``python -m ordina.alive worker`` (or ``beat``) exits 0 only when that file is fresh.

A worker touches ``<HEARTBEAT_DIR>/worker`` from its own timer, so a worker whose loop is stuck
stops touching it; beat touches ``<HEARTBEAT_DIR>/beat`` on every tick of its scheduler, which
wakes at least as often: every ``HEARTBEAT_SECONDS`` (default 10). A process that stops cleanly
removes its file. The check needs neither Django nor the broker: a supervisor can run it every
few seconds.

``HEARTBEAT_DIR`` (default ``var/heartbeat`` in the project) must be one directory per worker
or beat process: a container has its own, and two processes on one machine are given two.
"""

import os
import time
from pathlib import Path
from typing import Any

from celery import bootsteps
from celery.beat import PersistentScheduler

ROLES = ("worker", "beat")
# How often a worker touches its file, and the longest beat sleeps between two ticks.
DEFAULT_HEARTBEAT_SECONDS = 10.0
# A file older than this means the process is not alive (several missed beats, not one).
STALE_SECONDS = 60.0


def heartbeat_seconds() -> float:
    """``HEARTBEAT_SECONDS`` from the environment: read when a process starts, so a test can
    watch a heartbeat being renewed within a second or two rather than ten."""
    given = os.environ.get("HEARTBEAT_SECONDS") or str(DEFAULT_HEARTBEAT_SECONDS)
    try:
        seconds = float(given)
    except ValueError:
        raise ValueError(
            f"HEARTBEAT_SECONDS must be a number of seconds (got {given!r})."
        ) from None
    if not seconds > 0:
        raise ValueError(f"HEARTBEAT_SECONDS must be more than 0 (got {seconds:g}).")
    return seconds


def heartbeat_dir() -> Path:
    default = Path(__file__).resolve().parent.parent / "var" / "heartbeat"
    return Path(os.environ.get("HEARTBEAT_DIR") or default)


def heartbeat_path(role: str) -> Path:
    return heartbeat_dir() / role


def touch(role: str) -> None:
    path = heartbeat_path(role)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch()


def forget(role: str) -> None:
    heartbeat_path(role).unlink(missing_ok=True)


def age(role: str, now: float | None = None) -> float | None:
    """Seconds since ``role`` last touched its file, or None when there is no file."""
    try:
        touched = heartbeat_path(role).stat().st_mtime
    except FileNotFoundError:
        return None
    return (time.time() if now is None else now) - touched


def verdict(role: str, within: float, now: float | None = None) -> tuple[bool, str]:
    seconds = age(role, now)
    if seconds is None:
        return False, f"{role}: no heartbeat at {heartbeat_path(role)} (not started, or stopped)"
    if seconds > within:
        return False, f"{role}: last heartbeat {seconds:.0f} s ago (more than {within:.0f} s)"
    return True, f"{role}: alive (last heartbeat {seconds:.0f} s ago)"


# --- the processes' side: the worker step (ordina.celery) and beat's scheduler (settings) ----


class WorkerHeartbeat(bootsteps.StartStopStep):
    """A worker step: touches the worker's file now and every ``heartbeat_seconds()`` on the
    worker's timer, and removes it when the worker stops."""

    requires = {"celery.worker.components:Timer"}

    def __init__(self, worker: Any, **kwargs: Any) -> None:
        super().__init__(worker, **kwargs)
        self.timer_entry: Any = None

    def start(self, worker: Any) -> None:
        touch("worker")
        self.timer_entry = worker.timer.call_repeatedly(heartbeat_seconds(), touch, ("worker",))

    def stop(self, worker: Any) -> None:
        if self.timer_entry is not None:
            self.timer_entry.cancel()
        forget("worker")


class HeartbeatScheduler(PersistentScheduler):
    """Celery's default scheduler, touching beat's file on every tick and waking at least every
    ``heartbeat_seconds()`` (its schedule's shortest entry is a minute)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.wake_seconds = heartbeat_seconds()
        super().__init__(*args, **kwargs)

    def tick(self, *args: Any, **kwargs: Any) -> float:
        touch("beat")
        return min(super().tick(*args, **kwargs), self.wake_seconds)

    def close(self) -> None:
        super().close()
        forget("beat")
