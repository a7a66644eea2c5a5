"""Scripts that run on the demo's embedded SQLite database: each in a fresh interpreter (the
test process is bound to PostgreSQL), on a new database file, with the local settings; each
prints its findings as JSON on its last line."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def sqlite_report(script: Path, tmp_path: Path):
    """Run ``script`` on a new SQLite file in ``tmp_path``; what it printed last, parsed."""
    env = os.environ | {"DATABASE_URL": f"sqlite:///{tmp_path / 'demo.sqlite3'}"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    result = subprocess.run(
        [sys.executable, str(script)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])
