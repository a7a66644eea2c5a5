"""The booking core's writers. Every change to an appointment goes through these functions —
the API, the dashboard, the assistant and imports alike. Those that change an appointment's
time or state take the caller's ``in_step``; outside the core they are called through
``orchestration.appointment_changes``, which keeps the reminders in step with them."""

from .booking import BookingOutcome, appointment_create, nearest_alternatives
from .changes import (
    appointment_cancel,
    appointment_confirm_deposit,
    appointment_notes_change,
    appointment_record_outcome,
    appointment_refund_record,
    appointment_release_unpaid,
    appointment_reschedule,
)
from .clients import ClientDetails
from .hold_release import hold_release
from .holds import hold_slot, release_expired_holds
from .in_step import InStep

__all__ = [
    "BookingOutcome",
    "ClientDetails",
    "InStep",
    "appointment_cancel",
    "appointment_confirm_deposit",
    "appointment_create",
    "appointment_notes_change",
    "appointment_record_outcome",
    "appointment_refund_record",
    "appointment_release_unpaid",
    "appointment_reschedule",
    "hold_release",
    "hold_slot",
    "nearest_alternatives",
    "release_expired_holds",
]
