"""How the core's facts are written for a client: times and days in the business's zone, in
words, never as ISO timestamps (a raw "2026-12-03T00:00:00+00:00" is both unreadable and, to
the reply guards, an unapproved time). Pure.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo


def local_label(moment: dt.datetime, time_zone: str) -> str:
    """How a time is written to the client: "Wednesday 2 December at 10:00"."""
    local = moment.astimezone(ZoneInfo(time_zone))
    return f"{local:%A} {local.day} {local:%B} at {local:%H:%M}"


def day_label(day: dt.date) -> str:
    """How a day is written to the client: "Wednesday 2 December"."""
    return f"{day:%A} {day.day} {day:%B}"
