"""The booking core's periodic jobs, on the beat schedule in settings. Running one twice at
the same time does no harm: an expired hold is deleted once, and two syncs of one feed take
turns on its row, each replacing its busy blocks in one transaction."""

from celery import shared_task

from bookings.calendar_sync import sync_all_calendars
from bookings.services import release_expired_holds


@shared_task(time_limit=120)
def release_holds() -> dict:
    """Holds past their expiry already stopped counting; this clears their rows away."""
    return {"holds": release_expired_holds()}


@shared_task(time_limit=600, soft_time_limit=540)
def sync_calendars() -> dict:
    results = sync_all_calendars()
    return {"feeds": len(results), "failed": sum(1 for r in results if r.error)}
