"""The periodic jobs, on the beat schedule in settings. Each claims its work from the database,
so two workers (or two beats) running one at the same time do not do it twice."""

from celery import shared_task

from bookings.calendar_sync import sync_all_calendars
from bookings.services import release_expired_holds
from payments.services import reconcile_pending, release_unpaid_expired
from reminders.services import dispatch_due


@shared_task(time_limit=240, soft_time_limit=200)
def dispatch_reminders() -> dict:
    result = dispatch_due()
    return {"claimed": result.claimed, "sent": result.sent, "failed": result.failed}


@shared_task(time_limit=120)
def release_expired() -> dict:
    return {"holds": release_expired_holds(), "unpaid": release_unpaid_expired()}


@shared_task(time_limit=240)
def reconcile_payments() -> dict:
    result = reconcile_pending()
    return {"checked": result.checked, "paid": result.paid, "errors": len(result.errors)}


@shared_task(time_limit=600, soft_time_limit=540)
def sync_calendars() -> dict:
    results = sync_all_calendars()
    return {"feeds": len(results), "failed": sum(1 for r in results if r.error)}
