"""Which changes an appointment's status allows, decided on plain values."""

import datetime as dt

from bookings.models.appointments import AppointmentStatus

CHANGEABLE = frozenset({AppointmentStatus.PENDING_PAYMENT, AppointmentStatus.CONFIRMED})


def change_refusal(status: str, starts_at: dt.datetime, now: dt.datetime) -> str | None:
    """Why a client may not cancel or move this appointment now, or None if they may."""
    if status == AppointmentStatus.CANCELLED:
        return "This appointment is already cancelled."
    if status not in CHANGEABLE:
        return "This appointment can no longer be changed."
    if starts_at <= now:
        return "This appointment has already started."
    return None
