"""Run by test_schedule_read.py in a fresh interpreter on an embedded SQLite file: a business's
weekly hours, a closed day and a day of special hours, read back by schedule_between (the same
hand-written SQL as on PostgreSQL, with SQLite's text dates and times). Prints it as JSON."""

import json
import os
import sys
from pathlib import Path

import django

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))  # the tests package
os.environ["DJANGO_SETTINGS_MODULE"] = "ordina.settings.local"
django.setup()

from django.core.management import call_command  # noqa: E402

from bookings.selectors import schedule_between  # noqa: E402
from tests.bookings.core.schedule_world import MONDAY, SUNDAY, as_json, week_with_exceptions  # noqa: E402

call_command("migrate", verbosity=0)
business = week_with_exceptions()
print(json.dumps(as_json(schedule_between(business, MONDAY, SUNDAY))))
