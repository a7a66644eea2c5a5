"""Which changes an appointment's status allows, decided on plain values."""

import datetime as dt

from django.utils.translation import gettext_noop

from bookings.models.appointments import AppointmentStatus

CHANGEABLE = frozenset({AppointmentStatus.PENDING_PAYMENT, AppointmentStatus.CONFIRMED})


def change_refusal(status: str, starts_at: dt.datetime, now: dt.datetime) -> str | None:
    """Why a client may not cancel or move this appointment now, or None if they may: in
    English, as the history records it; marked for the catalogue, so a client reads it in
    their language (``gettext`` of it where they are told)."""
    if status == AppointmentStatus.CANCELLED:
        return gettext_noop("This appointment is already cancelled.")
    if status not in CHANGEABLE:
        return gettext_noop("This appointment can no longer be changed.")
    if starts_at <= now:
        return gettext_noop("This appointment has already started.")
    return None
