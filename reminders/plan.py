"""When each reminder of an appointment is due, decided on plain values."""

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from reminders.choices import ReminderKind


@dataclass(frozen=True)
class KindSetting:
    enabled: bool
    offset: dt.timedelta  # before the start, or after the end for the post-visit message


DEFAULTS: Mapping[str, KindSetting] = {
    ReminderKind.CONFIRMATION: KindSetting(True, dt.timedelta(0)),
    ReminderKind.BEFORE_24H: KindSetting(True, dt.timedelta(hours=24)),
    ReminderKind.BEFORE_2H: KindSetting(True, dt.timedelta(hours=2)),
    ReminderKind.ATTENDANCE: KindSetting(True, dt.timedelta(hours=48)),
    ReminderKind.NO_SHOW: KindSetting(True, dt.timedelta(0)),
    ReminderKind.POST_VISIT: KindSetting(True, dt.timedelta(hours=2)),
}

# Planned when the appointment is confirmed; the no-show follow-up only when one is marked.
ON_CONFIRMATION = (
    ReminderKind.CONFIRMATION,
    ReminderKind.ATTENDANCE,
    ReminderKind.BEFORE_24H,
    ReminderKind.BEFORE_2H,
    ReminderKind.POST_VISIT,
)


def due_times(
    *,
    starts_at: dt.datetime,
    ends_at: dt.datetime,
    now: dt.datetime,
    settings: Mapping[str, KindSetting],
) -> dict[str, dt.datetime]:
    """Kind → due instant for a confirmed appointment. A reminder before the visit whose time
    has already passed is skipped (a late booking gets its confirmation, not a stale 'see you
    tomorrow'); the confirmation is due at once."""
    due: dict[str, dt.datetime] = {}
    for kind in ON_CONFIRMATION:
        setting = settings.get(kind, DEFAULTS[kind])
        if not setting.enabled:
            continue
        if kind == ReminderKind.CONFIRMATION:
            due[kind] = now
        elif kind == ReminderKind.POST_VISIT:
            due[kind] = ends_at + setting.offset
        elif (when := starts_at - setting.offset) > now:
            due[kind] = when
    return due
