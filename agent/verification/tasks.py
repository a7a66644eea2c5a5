"""The verification code's email, sent by a Celery worker: the request that asked for it only
queued this task, the same for an address on file and one that is not (see service.py)."""

from celery import shared_task
from django.utils import timezone

from agent.verification.service import code_deliver


@shared_task(time_limit=60, soft_time_limit=45)
def deliver_verification_code(verification_id: int) -> str:
    return code_deliver(verification_id=verification_id, now=timezone.now()).value
