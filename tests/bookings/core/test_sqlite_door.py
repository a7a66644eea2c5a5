"""On the embedded SQLite database the one door serialises writers with IMMEDIATE transactions."""

from pathlib import Path

from tests.on_sqlite import sqlite_report

SCRIPT = Path(__file__).parent / "scripts" / "sqlite_race.py"


def test_concurrent_bookings_of_one_slot_on_sqlite_confirm_exactly_one(tmp_path):
    report = sqlite_report(SCRIPT, tmp_path)
    assert report == {"outcomes": ["booked"] + ["taken"] * 7, "stored": 1}
