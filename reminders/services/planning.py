"""Keeping an appointment's reminder rows in step with the appointment. Called by the booking
core's services inside their transactions, so the rows change with the appointment or not at
all."""

import datetime as dt

from django.db import connection
from django.db.models import QuerySet
from django.utils import timezone

from bookings.models import Appointment, AppointmentStatus
from bookings.row_inserts import insert_rows_ignoring_conflicts
from reminders.models import Reminder, ReminderKind, ReminderStatus
from reminders.plan import DEFAULTS, KindSetting, due_times

# Read on every booking, inside its transaction: hand-written, so no queryset is compiled.
_SETTINGS = (
    "SELECT kind, enabled, offset_minutes FROM reminders_remindersetting WHERE business_id = %s"
)


def business_settings(business_id: int) -> dict[str, KindSetting]:
    with connection.cursor() as cursor:
        cursor.execute(_SETTINGS, [business_id])
        chosen = {
            kind: KindSetting(bool(enabled), dt.timedelta(minutes=offset_minutes))
            for kind, enabled, offset_minutes in cursor.fetchall()
        }
    return {**DEFAULTS, **chosen}


def reminders_sync(
    appointment: Appointment, *, now: dt.datetime | None = None, created: bool = False
) -> None:
    """Confirmed: plan its reminders, moving pending ones to the current time of the visit.
    Cancelled or released: drop the pending ones. Marked no-show: add the follow-up.
    ``created``: the appointment was inserted in this very transaction, so it has no reminder
    rows yet and none are looked for (one statement less on every booking)."""
    now = now or timezone.now()
    if appointment.status in (AppointmentStatus.CANCELLED, AppointmentStatus.EXPIRED):
        _pending(appointment).update(status=ReminderStatus.CANCELLED, updated_at=now)
        return
    settings = business_settings(appointment.business_id)
    if appointment.status == AppointmentStatus.NO_SHOW:
        _pending(appointment).exclude(kind=ReminderKind.NO_SHOW).update(
            status=ReminderStatus.CANCELLED, updated_at=now
        )
        if settings[ReminderKind.NO_SHOW].enabled:
            _plan(appointment, {ReminderKind.NO_SHOW: now})
        return
    if appointment.status != AppointmentStatus.CONFIRMED:
        return  # awaiting its deposit: nothing to remind of yet
    due = due_times(
        starts_at=appointment.starts_at, ends_at=appointment.ends_at, now=now, settings=settings
    )
    for reminder in () if created else _pending(appointment):
        if reminder.kind in due and reminder.due_at != due[reminder.kind]:
            reminder.due_at = due[reminder.kind]
            reminder.save(update_fields=["due_at", "updated_at"])
        elif reminder.kind not in due:
            reminder.status = ReminderStatus.CANCELLED
            reminder.save(update_fields=["status", "updated_at"])
    _plan(appointment, due)


def _pending(appointment: Appointment) -> QuerySet[Reminder]:
    # Built only where it is used: even unevaluated, a filtered queryset costs its compiling.
    return Reminder.objects.filter(appointment=appointment, status=ReminderStatus.PENDING)


def _plan(appointment: Appointment, due: dict[str, dt.datetime]) -> None:
    # ignore_conflicts: a kind already planned (or sent) keeps its row; (appointment, kind) is
    # unique, so nothing is ever planned twice.
    insert_rows_ignoring_conflicts(
        [
            Reminder(
                business_id=appointment.business_id,
                appointment=appointment,
                kind=kind,
                due_at=when,
            )
            for kind, when in due.items()
        ]
    )
