"""A real Celery worker process on the real Redis broker, for the dispatcher's tests under Celery
(and the knowledge base's reads, tests/knowledge/test_reading_worker.py).

The worker runs on the pytest-django test database (so it sees what a ``transaction=True`` test
commits), consumes a queue of its own (so nothing else's tasks reach it, and it reaches nothing
else's), and writes its mail as files in a directory the test reads from outside the process.
Every wait here has a deadline: the worker is another process, so time cannot be moved for it,
only waited for.
"""

import ast
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from urllib.parse import quote

import redis
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
READY_SECONDS = 60.0
STOP_SECONDS = 15.0
# What Django's file backend writes after each message.
MAIL_SEPARATOR = b"\n" + b"-" * 79 + b"\n"
TASK_SUCCEEDED = re.compile(
    r"Task reminders\.tasks\.dispatch_reminders\[[^]]+\] succeeded in \S+: (\{.*\})"
)


def wait_for[T](condition: Callable[[], T], *, seconds: float, what: str) -> T:
    """Poll ``condition`` until it returns something truthy; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not (result := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up after {seconds:.0f} s waiting for {what}")
        time.sleep(0.05)
    return result


def current_database_url() -> str:
    """The URL of the database this test process uses (pytest-django's test database)."""
    db = settings.DATABASES["default"]
    credentials = quote(db["USER"] or "", safe="")
    if db.get("PASSWORD"):
        credentials += ":" + quote(db["PASSWORD"], safe="")
    host = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    return f"postgres://{credentials}@{host}/{db['NAME']}"


def read_mail(mail_dir: Path) -> list[EmailMessage]:
    """Every message the file backends (of any process) wrote into ``mail_dir``."""
    messages = []
    for path in sorted(mail_dir.glob("*.log")):
        for chunk in path.read_bytes().split(MAIL_SEPARATOR):
            if chunk.strip():
                message = message_from_bytes(chunk, policy=policy.default)
                assert isinstance(message, EmailMessage)
                messages.append(message)
    return messages


def mail_counts(mail_dir: Path) -> Counter[tuple[str, str]]:
    """(recipient, subject) → messages written. Each client in these tests has one appointment
    and each kind its own subject, so the pair names one (appointment, kind)."""
    return Counter((str(m["To"]), str(m["Subject"])) for m in read_mail(mail_dir))


def new_queue(name: str) -> str:
    """A queue name no other test uses."""
    return f"reminders-test-{uuid.uuid4().hex[:10]}-{name}"


class Worker:
    """``celery -A ordina worker`` in a process group of its own, on a queue of its own."""

    def __init__(
        self,
        *,
        name: str,
        mail_dir: Path,
        log_path: Path,
        env: dict[str, str],
        pool: str = "solo",
        queue: str | None = None,
    ) -> None:
        """``pool`` "solo" runs the task in the worker process itself, so SIGKILL stops it
        mid-send; "prefork" runs it in a child, the only pool that enforces time limits.
        ``queue`` names the queue, for tasks sent before the worker starts (see ``new_queue``)."""
        self.queue = queue or new_queue(name)
        self.nodename = f"{self.queue}@{socket.gethostname()}"
        self.log_path = log_path
        worker_env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "ordina.settings.test",
            "DATABASE_URL": current_database_url(),
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            "TEST_EMAIL_URL": f"filemail://{mail_dir}",
            **env,
        }
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "ordina",
            "worker",
            f"--pool={pool}",
            "--concurrency=1",
            "-Q",
            self.queue,
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "--loglevel=INFO",
            "-n",
            f"{self.queue}@%h",
        ]
        with log_path.open("wb") as log:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=worker_env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: a kill reaches all of it
            )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_ready(self) -> None:
        from ordina.celery import app

        def answers_ping() -> bool:
            if self.process.poll() is not None:
                raise AssertionError(f"the worker exited at start:\n{self.log()[-3000:]}")
            return bool(app.control.ping(destination=[self.nodename], timeout=0.5))

        try:
            wait_for(answers_ping, seconds=READY_SECONDS, what=f"{self.nodename} to answer")
        except AssertionError as timeout:
            raise AssertionError(f"{timeout}\n{self.log()[-3000:]}") from None

    def dispatch(self) -> None:
        """Send one dispatch task to this worker, as the beat would."""
        from reminders.tasks import dispatch_reminders

        dispatch_reminders.apply_async(queue=self.queue)

    def results(self) -> list[dict]:
        """What each dispatch task this worker finished returned (from its log)."""
        return [ast.literal_eval(found) for found in TASK_SUCCEEDED.findall(self.log())]

    def kill(self) -> None:
        """SIGKILL, with no chance to finish, mark or acknowledge anything."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(STOP_SECONDS)

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        self.process.terminate()  # warm shutdown
        try:
            self.process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self.kill()

    def forget(self) -> None:
        """Remove what this worker's queue left on the broker: kombu's bindings, the queue, and
        a killed worker's unacknowledged task (which Redis would otherwise hand back to the
        queue an hour later)."""
        broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
        broker.delete(
            self.queue, f"_kombu.binding.{self.queue}", f"_kombu.binding_permanent.{self.queue}"
        )
        for tag, delivery in broker.hgetall("unacked").items():
            _message, _exchange, routing_key = json.loads(delivery)
            if routing_key == self.queue:
                broker.hdel("unacked", tag)
                broker.zrem("unacked_index", tag)
