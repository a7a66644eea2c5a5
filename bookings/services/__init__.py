"""The booking core's writers. Every change to an appointment goes through these functions —
the API, the dashboard, the assistant and imports alike."""

from .booking import BookingOutcome, appointment_create, nearest_alternatives
from .changes import (
    appointment_cancel,
    appointment_confirm_deposit,
    appointment_record_outcome,
    appointment_release_unpaid,
    appointment_reschedule,
)
from .clients import ClientDetails
from .holds import hold_slot, release_expired_holds

__all__ = [
    "BookingOutcome",
    "ClientDetails",
    "appointment_cancel",
    "appointment_confirm_deposit",
    "appointment_create",
    "appointment_record_outcome",
    "appointment_release_unpaid",
    "appointment_reschedule",
    "hold_slot",
    "nearest_alternatives",
    "release_expired_holds",
]
