"""Celery tasks run where they are queued, for tests with no worker: the verification code goes
the same way as in production — on commit, through ``deliver_verification_code.delay`` — and its
mail lands in this process's outbox. (tests/agent/conversation/test_verification_timing.py runs
it under a real worker.)"""

from collections.abc import Iterator

import pytest

from ordina import celery_app


@pytest.fixture
def tasks_run_at_once() -> Iterator[None]:
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before
