"""What the Makefile prints: installing the dependencies says one line, not pip's warnings
(a machine's pip configuration may add a hundred), and shows pip's whole output when an
install fails; ``make demo`` ends with the owner's sign-in, a password that is the same on
every run.

The install is run for real through ``make``, with a stand-in interpreter in a temporary
virtualenv that writes what pip writes on a machine with extra index locations configured
and exits as told: what is under test is the Makefile, not pip.
"""

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parent.parent
MAKE = shutil.which("make") or "make"
PIP_WARNING = "WARNING: Location 'file:///opt/pypi/simple/django/' is ignored"
CHATTY_PIP = f"""#!/bin/sh
i=0
while [ $i -lt 117 ]; do echo "{PIP_WARNING}" >&2; i=$((i + 1)); done
exit ${{PIP_EXIT:-0}}
"""


def make(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [MAKE, "--no-print-directory", *args],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


@pytest.fixture
def venv(tmp_path) -> Path:
    python = tmp_path / "venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(CHATTY_PIP)
    python.chmod(python.stat().st_mode | stat.S_IXUSR)
    return tmp_path / "venv"


def install(venv: Path, **env: str) -> subprocess.CompletedProcess:
    log = venv.parent / "pip.log"
    return make(f"VENV={venv}", f"PIP_LOG={log}", f"{venv}/.installed", **env)


def test_a_successful_install_prints_one_line_and_keeps_pips_output_in_its_log(venv):
    result = install(venv)

    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.splitlines() == [
        f"Installing the pinned dependencies into {venv} (pip's output: {venv.parent}/pip.log)"
    ]
    assert (venv / ".installed").exists()
    # pip runs twice (pip itself, then the project): both runs' output is kept.
    assert (venv.parent / "pip.log").read_text().count(PIP_WARNING) == 2 * 117


def test_a_failed_install_shows_pips_output_and_says_it_failed(venv):
    result = install(venv, PIP_EXIT="1")

    assert result.returncode != 0
    assert result.stderr.count(PIP_WARNING) == 117
    assert "installing the dependencies failed" in result.stderr
    assert not (venv / ".installed").exists()


def test_make_demo_ends_with_a_stable_sign_in_and_the_booking_page(venv):
    (venv / ".installed").touch()

    planned = make("-n", f"VENV={venv}", "demo").stdout.splitlines()

    seed = next(line for line in planned if "manage.py seed_demo" in line)
    assert seed.endswith("seed_demo --password 'studio-lumen-demo'")
    sign_in, book = planned[-10:-4], planned[-4:]
    assert "Sign in to the owner" in sign_in[0]
    assert "http://127.0.0.1:8000/admin/" in sign_in[1]
    assert "owner" in sign_in[2]
    assert sign_in[3].endswith("'studio-lumen-demo'")
    # The owner's two new places, at the addresses the dashboard serves them
    assert f"http://127.0.0.1:8000{reverse('admin:bookings_appointment_calendar')}" in sign_in[4]
    assert f"http://127.0.0.1:8000{reverse('admin:analytics')}" in sign_in[5]
    assert "Book as a client" in book[0]
    assert "http://localhost:8000/b/studio-lumen/" in book[1]
    assert "http://localhost:8000/b/clinica-sol/" in book[2]  # the assistant speaks Spanish
    assert "http://127.0.0.1:8000/embed-example/" in book[3]
