"""On the embedded SQLite database (the demo) a turn's hand-written read runs without its lock
clause, SQLite's own triggers move the read stamp, and a change is seen on the next turn."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).parent / "scripts" / "sqlite_turns.py"


def test_turns_on_sqlite_read_by_hand_and_see_every_writer(tmp_path):
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
    assert report == {
        "untriggered": [],
        "stamp_moves": {"save": True, "QuerySet.update": True, "raw SQL": True},
        "read": True,
        "cached_tables_read_again": [],
        "reply_stored": True,
        "renamed_seen": True,
    }
