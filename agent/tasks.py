"""The assistant's background jobs, run by Celery workers."""

from celery import shared_task
from django.utils import timezone

from agent.escalation_alerts import escalation_alert
from agent.verification.service import code_deliver


@shared_task(time_limit=120, soft_time_limit=100)
def alert_escalation(conversation_id: int) -> dict:
    alerted = escalation_alert(conversation_id=conversation_id)
    return {"sent": alerted.sent, "why_not": alerted.why_not}


@shared_task(time_limit=60, soft_time_limit=45)
def deliver_verification_code(verification_id: int) -> str:
    """Queued by every request for a code, on file or not: makes the code, emails it only to a
    client (agent.verification.service.code_deliver)."""
    return code_deliver(verification_id=verification_id, now=timezone.now()).value
