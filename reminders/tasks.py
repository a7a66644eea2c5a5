"""Reminders' periodic job, on the beat schedule in settings. It claims its reminders from the
database, so two workers (or two beats) running it at the same time do not send one twice."""

from celery import shared_task

from reminders.services import dispatch_due


@shared_task(time_limit=240, soft_time_limit=200)
def dispatch_reminders() -> dict:
    result = dispatch_due()
    return {"claimed": result.claimed, "sent": result.sent, "failed": result.failed}
