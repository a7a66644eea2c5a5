"""``make run`` as a newcomer runs it after ``make demo``: one command starts the web server, a
Celery worker and beat on the local settings, with no broker installed (kombu's file transport),
so a client who books gets the confirmation email printed on the console.

The real ``make run`` runs here, on an embedded database and a broker folder of the test's own,
with beat dispatching every two seconds instead of every minute. Every wait has a deadline, and
the whole process tree is stopped in a ``finally`` whatever happens.
"""

import datetime as dt
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.reminders.real_worker import wait_for
from tests.servers import ROOT, free_port

MAKE = shutil.which("make") or "make"
VENV = sys.prefix
READY_SECONDS = 30.0
EMAIL_SECONDS = 30.0
STOP_SECONDS = 15.0
BUSINESS = "studio-lumen"
# The demo's haircut and colour ask a deposit, which needs Stripe; the beard trim asks none.
SERVICE = "Beard trim"
# honcho names each process it starts: "web.1 started (pid=1234)".
STARTED = re.compile(r"\b(\w+)\.1 started \(pid=(\d+)\)")


def local_env(tmp_path: Path, port: int) -> dict[str, str]:
    """The environment of a newcomer's shell, with every file the run writes under
    ``tmp_path``: no broker named (the file transport), no settings module chosen."""
    env = {**os.environ}
    # The test process's own settings, broker and mail must not leak into the run; nor an
    # enclosing make's flags (`make test`), which would make this make a sub-make of it.
    for name in ("DJANGO_SETTINGS_MODULE", "CELERY_BROKER_URL", "EMAIL_URL", "CACHE_URL"):
        env.pop(name, None)
    for name in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"):
        env.pop(name, None)
    return {
        **env,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'ordina.sqlite3'}",
        "RUN_PORT": str(port),
        "LOCAL_BROKER_DIR": str(tmp_path / "broker"),
        "HEARTBEAT_DIR": str(tmp_path / "heartbeat"),
        "CELERY_BEAT_SCHEDULE_FILENAME": str(tmp_path / "celerybeat-schedule"),
        "REMINDERS_DISPATCH_SECONDS": "2",
        "ORDINA_MODEL": "offline",
        "PYTHONUNBUFFERED": "1",
    }


def manage(env: dict[str, str], *args: str) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "ordina.settings.local"},
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr


def http(port: int, method: str, path: str, body: dict | None = None, **headers: str):
    """(status, parsed JSON or text) of one request to the local server."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Content-Type": "application/json", **headers},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310
            status, content, kind = answer.status, answer.read(), answer.headers["Content-Type"]
    except urllib.error.HTTPError as refusal:
        status, content, kind = refusal.code, refusal.read(), refusal.headers["Content-Type"]
    text = content.decode(errors="replace")
    return status, json.loads(text) if kind == "application/json" else text


def answers(run: subprocess.Popen, port: int) -> bool:
    if run.poll() is not None:
        raise AssertionError(f"make run exited with {run.returncode} before it answered")
    try:
        return http(port, "GET", "/health/live/")[0] == 200
    except OSError:
        return False


def stop(run: subprocess.Popen, output: Path) -> list[str]:
    """Ctrl-C, as a terminal sends it: SIGINT to the foreground process group (make and
    honcho), and honcho stops the three processes it started, each in a process group of its
    own. Returns the names of those still alive after the deadline, having killed them (and
    make, if it hung), so nothing outlives the test either way."""
    if run.poll() is None:
        os.killpg(run.pid, signal.SIGINT)
    try:
        run.wait(STOP_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(run.pid, signal.SIGKILL)
        run.wait(STOP_SECONDS)
    survivors = []
    for name, pid in STARTED.findall(output.read_text(errors="replace")):
        deadline = time.monotonic() + STOP_SECONDS
        while alive(int(pid)) and time.monotonic() < deadline:
            time.sleep(0.1)
        if alive(int(pid)):
            survivors.append(name)
            os.killpg(int(pid), signal.SIGKILL)
    return survivors


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def first_open_slot(port: int) -> tuple[int, str]:
    status, services = http(port, "GET", f"/api/v1/businesses/{BUSINESS}/services/")
    assert status == 200, services
    [service] = [service["id"] for service in services if service["name"] == SERVICE]
    today = dt.datetime.now(dt.UTC).date()
    days = f"from={today}&to={today + dt.timedelta(days=6)}"
    status, availability = http(
        port, "GET", f"/api/v1/businesses/{BUSINESS}/availability/?service={service}&{days}"
    )
    assert status == 200, availability
    assert availability["slots"], "the demo salon has no open slot this week"
    return service, availability["slots"][0]["start"]


def test_make_run_serves_the_pages_and_a_booking_gets_its_email_on_the_console(tmp_path):
    port = free_port()
    env = local_env(tmp_path, port)
    manage(env, "migrate", "--noinput", "--verbosity", "0")
    manage(env, "seed_demo", "--password", "x")
    output = tmp_path / "make-run.log"

    with output.open("wb") as log:
        run = subprocess.Popen(
            # The virtualenv running these tests, already installed: make is told not to install
            # it again (-o). Named by its full path, as `make run VENV=...` may be.
            [MAKE, "--no-print-directory", f"VENV={VENV}", "-o", f"{VENV}/.installed", "run"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_for(lambda: answers(run, port), seconds=READY_SECONDS, what=f"make run on port {port}")
        page, _ = http(port, "GET", f"/b/{BUSINESS}/")
        sign_in, _ = http(port, "GET", "/admin/login/")
        service, start = first_open_slot(port)

        status, booked = http(
            port,
            "POST",
            f"/api/v1/businesses/{BUSINESS}/appointments/",
            {"service": service, "start": start, "name": "Ana Silva", "email": "ana@example.com"},
            **{"Idempotency-Key": "make-run-1"},
        )
        assert status == 201, booked

        def confirmation_printed() -> bool:
            console = output.read_text(errors="replace")
            return f"Subject: Your {SERVICE} at Studio Lumen is booked" in console

        wait_for(confirmation_printed, seconds=EMAIL_SECONDS, what="the confirmation email")
    except AssertionError as failure:
        raise AssertionError(f"{failure}\n{output.read_text(errors='replace')[-4000:]}") from None
    finally:
        survivors = stop(run, output)

    console = output.read_text(errors="replace")
    assert (page, sign_in) == (200, 200)
    assert "worker.1 | To: ana@example.com" in console
    assert "worker.1 | Hello Ana Silva," in console
    # Ctrl-C stopped each of the three, not only make.
    assert sorted(name for name, _ in STARTED.findall(console)) == ["beat", "web", "worker"]
    assert survivors == []
