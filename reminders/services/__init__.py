"""Reminders' writers: keep an appointment's reminder rows in step with it, and send what is
due, each (appointment, kind) at most once."""

from .dispatch import DispatchResult, claim_due, dispatch_due, send_claimed
from .planning import reminders_sync

__all__ = ["DispatchResult", "claim_due", "dispatch_due", "reminders_sync", "send_claimed"]
