import datetime as dt

from reminders.models import ReminderKind
from reminders.plan import DEFAULTS, KindSetting, due_times

NOW = dt.datetime(2026, 11, 30, 8, tzinfo=dt.UTC)
START = dt.datetime(2026, 12, 3, 10, tzinfo=dt.UTC)
END = START + dt.timedelta(hours=1)


def test_a_booking_days_ahead_gets_every_reminder_at_its_time():
    due = due_times(starts_at=START, ends_at=END, now=NOW, settings=DEFAULTS)

    assert due == {
        ReminderKind.CONFIRMATION: NOW,
        ReminderKind.ATTENDANCE: START - dt.timedelta(hours=48),
        ReminderKind.BEFORE_24H: START - dt.timedelta(hours=24),
        ReminderKind.BEFORE_2H: START - dt.timedelta(hours=2),
        ReminderKind.POST_VISIT: END + dt.timedelta(hours=2),
    }


def test_a_late_booking_skips_reminders_whose_time_has_passed():
    soon = NOW + dt.timedelta(hours=5)

    due = due_times(
        starts_at=soon, ends_at=soon + dt.timedelta(hours=1), now=NOW, settings=DEFAULTS
    )

    assert set(due) == {ReminderKind.CONFIRMATION, ReminderKind.BEFORE_2H, ReminderKind.POST_VISIT}


def test_a_kind_switched_off_or_retimed_by_the_business():
    settings = {
        **DEFAULTS,
        ReminderKind.BEFORE_2H: KindSetting(False, dt.timedelta(hours=2)),
        ReminderKind.BEFORE_24H: KindSetting(True, dt.timedelta(hours=30)),
    }

    due = due_times(starts_at=START, ends_at=END, now=NOW, settings=settings)

    assert ReminderKind.BEFORE_2H not in due
    assert due[ReminderKind.BEFORE_24H] == START - dt.timedelta(hours=30)


def test_the_no_show_follow_up_is_never_planned_on_booking():
    assert ReminderKind.NO_SHOW not in due_times(
        starts_at=START, ends_at=END, now=NOW, settings=DEFAULTS
    )
