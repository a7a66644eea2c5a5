"""What a caller may have done inside an appointment's change, in the same transaction.

The core knows nothing of the apps beside it (reminders, payments): whoever must stay in step
with an appointment — its reminders, above all — is handed in by the caller
(``orchestration.appointment_changes``) and run after the change is written, under the same
locks, so it changes with the appointment or not at all."""

import datetime as dt
from collections.abc import Callable

from bookings.models import Appointment

# Called with the appointment as just written and the change's ``now`` (None: the clock's).
InStep = Callable[[Appointment, dt.datetime | None], None]


def keep_in_step(in_step: InStep | None, appointment: Appointment, now: dt.datetime | None) -> None:
    if in_step is not None:
        in_step(appointment, now)
