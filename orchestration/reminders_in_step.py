"""The reminders' part of every appointment change: what ``orchestration`` hands the core to run
inside the change's transaction, so the reminder rows change with the appointment or not at
all."""

import datetime as dt

from bookings.models import Appointment
from reminders.services import reminders_sync


def reminders_in_step(appointment: Appointment, now: dt.datetime | None) -> None:
    reminders_sync(appointment, now=now)


def reminders_in_step_of_new(appointment: Appointment, now: dt.datetime | None) -> None:
    """A booking's part: the appointment was inserted in this transaction, so it has no
    reminders to move, only ones to plan."""
    reminders_sync(appointment, now=now, created=True)
