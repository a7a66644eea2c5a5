"""Which of the core's open slots a chat offers. Pure.

A chat cannot show forty times. Offered are at most ``OFFER_COUNT`` starts: inside the client's
window when they gave one ("Wednesday afternoon" → the first ones that afternoon), otherwise
spread over the first days that have room — the day's first slot and one from later in the day
— so "when can I come?" gets a real choice, not six starts ten minutes apart.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from itertools import groupby
from zoneinfo import ZoneInfo

OFFER_COUNT = 6
PER_DAY = 2


def slots_to_offer(
    starts: Sequence[dt.datetime],
    *,
    time_zone: str,
    from_time: dt.time | None = None,
    to_time: dt.time | None = None,
    count: int = OFFER_COUNT,
) -> list[dt.datetime]:
    """At most ``count`` of ``starts`` (sorted, aware), chosen as the module says."""
    zone = ZoneInfo(time_zone)
    if from_time is not None or to_time is not None:
        low, high = from_time or dt.time.min, to_time or dt.time.max
        inside = [start for start in starts if low <= start.astimezone(zone).time() < high]
        return inside[:count]
    chosen: list[dt.datetime] = []
    for _day, group in groupby(starts, key=lambda start: start.astimezone(zone).date()):
        day_starts = list(group)
        picks = [day_starts[0]]
        if PER_DAY > 1 and len(day_starts) > 1:
            picks.append(day_starts[len(day_starts) // 2])
        chosen.extend(picks)
        if len(chosen) >= count:
            break
    return chosen[:count]
