"""On the embedded SQLite database (the demo) a turn's hand-written read runs without its lock
clause, SQLite's own triggers move the read stamp, and a change is seen on the next turn."""

from pathlib import Path

from tests.on_sqlite import sqlite_report

SCRIPT = Path(__file__).parent / "scripts" / "sqlite_turns.py"


def test_turns_on_sqlite_read_by_hand_and_see_every_writer(tmp_path):
    report = sqlite_report(SCRIPT, tmp_path)
    assert report == {
        "untriggered": [],
        "stamp_moves": {"save": True, "QuerySet.update": True, "raw SQL": True},
        "read": True,
        "cached_tables_read_again": [],
        "reply_stored": True,
        "renamed_seen": True,
    }
