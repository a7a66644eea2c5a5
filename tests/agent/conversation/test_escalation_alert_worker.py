"""The escalation alert under a real Celery worker on the real Redis broker: the task sent
twice (a duplicate delivery) emails the owner once."""

import pytest

from agent.models import Conversation
from agent.tasks import alert_escalation
from tests.factories import BusinessFactory, owner_of
from tests.reminders.real_worker import Worker, read_mail, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_worker_emails_the_owner_once_for_a_task_delivered_twice(tmp_path):
    business = BusinessFactory()
    owner_of(business, user__email="rita@example.com")
    conversation = Conversation.objects.create(
        business=business, token_hash="worker", state="escalated", escalation_reason="help"
    )
    mail_dir = tmp_path / "mail"
    worker = Worker(name="alerts", mail_dir=mail_dir, log_path=tmp_path / "w.log", env={})
    try:
        worker.wait_ready()
        for _ in range(2):
            alert_escalation.apply_async(args=[conversation.pk], queue=worker.queue)
        wait_for(lambda: worker.log().count("succeeded") >= 2, seconds=60, what="both tasks")
    finally:
        worker.stop()
        worker.forget()

    (message,) = read_mail(mail_dir)
    assert message["To"] == "rita@example.com"
    assert business.name in message["Subject"]
