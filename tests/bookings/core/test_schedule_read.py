"""The schedule as the booking core reads it (one hand-written query): weekly hours by weekday,
a closed day as no ranges, a day of special hours as its ranges in order, nothing outside the
range asked for; the same on PostgreSQL and on the demo's SQLite."""

from pathlib import Path

import pytest

from bookings.selectors import schedule_between
from tests.bookings.core.schedule_world import MONDAY, SUNDAY, as_json, week_with_exceptions
from tests.on_sqlite import sqlite_report

SCRIPT = Path(__file__).parent / "scripts" / "sqlite_schedule.py"
NINE_TO_FIVE = [["09:00:00", "17:00:00"]]
EXPECTED = {
    "weekly": {
        **{str(day): NINE_TO_FIVE for day in range(7)},
        "3": [["09:00:00", "17:00:00"], ["18:00:00", "20:00:00"]],
    },
    "overrides": {
        "2026-12-08": [],
        "2026-12-09": [["10:00:00", "12:00:00"], ["14:00:00", "16:00:00"]],
    },
}


@pytest.mark.django_db
def test_the_week_is_read_with_its_closures_and_special_hours(django_assert_num_queries):
    business = week_with_exceptions()

    with django_assert_num_queries(1):
        schedule = schedule_between(business, MONDAY, SUNDAY)

    assert as_json(schedule) == EXPECTED


def test_sqlite_reads_the_same_schedule(tmp_path):
    assert sqlite_report(SCRIPT, tmp_path) == EXPECTED
