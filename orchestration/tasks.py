"""The periodic jobs that settle deposits (payments' facts moving appointments on, their
reminders in step), on the beat schedule in settings: flows, so they live with the flows. Each
claims its work from the database and asks Stripe before it changes anything, so two workers
(or two beats) running one at the same time do not do it twice."""

from celery import shared_task

from orchestration.deposit_settlement import reconcile_pending, release_unpaid_expired


@shared_task(time_limit=240)
def reconcile_payments() -> dict:
    result = reconcile_pending()
    return {"checked": result.checked, "paid": result.paid, "errors": len(result.errors)}


@shared_task(time_limit=120)
def release_unpaid() -> dict:
    """Appointments whose deposit was not paid within its hold let go of their time."""
    return {"unpaid": release_unpaid_expired()}
