"""On the embedded SQLite database the one door serialises writers with IMMEDIATE transactions."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = Path(__file__).parent / "scripts" / "sqlite_race.py"


def test_concurrent_bookings_of_one_slot_on_sqlite_confirm_exactly_one(tmp_path):
    env = os.environ | {"DATABASE_URL": f"sqlite:///{tmp_path / 'demo.sqlite3'}"}
    env.pop("DJANGO_SETTINGS_MODULE", None)

    result = subprocess.run(
        [sys.executable, str(SCRIPT)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )

    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report == {"outcomes": ["booked"] + ["taken"] * 7, "stored": 1}
