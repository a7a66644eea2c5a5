"""The assistant's background jobs, run by Celery workers."""

from celery import shared_task

from agent.escalation_alerts import escalation_alert


@shared_task(time_limit=120, soft_time_limit=100)
def alert_escalation(conversation_id: int) -> dict:
    alerted = escalation_alert(conversation_id=conversation_id)
    return {"sent": alerted.sent, "why_not": alerted.why_not}
