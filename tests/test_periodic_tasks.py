"""The beat schedule names only tasks a worker knows, and the every-minute jobs still let go
of both expired holds and unpaid appointments (one task each, in the app whose work it is,
since they moved out of the reminders app)."""

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import time_machine
from django.conf import settings

from bookings.models import AppointmentStatus, DepositRule, SlotHold
from bookings.services import ClientDetails, hold_slot
from orchestration.booking_with_deposit import booking_with_deposit_create
from ordina.celery import app
from tests.bookings import conftest as lisbon_salon
from tests.bookings.conftest import NOW, WEDNESDAY, lisbon

# The Lisbon salon of the booking tests, frozen on Monday 30 November 2026.
frozen_now, salon, haircut = lisbon_salon.frozen_now, lisbon_salon.salon, lisbon_salon.haircut

PROJECT = Path(__file__).resolve().parents[1]
# Past the deposit's 30-minute hold, and so past the chat's 10-minute slot hold too.
BOTH_HOLDS_OVER = NOW + dt.timedelta(minutes=31)


def scheduled_tasks() -> set[str]:
    return {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}


def test_a_worker_registers_every_task_on_the_beat_schedule():
    # A fresh interpreter, as a worker starts: only Celery's autodiscovery of each app's
    # tasks module registers them, nothing a test imported before.
    listing = subprocess.run(
        [
            sys.executable,
            "-c",
            "import json; from ordina.celery import app; app.loader.import_default_modules(); "
            "print(json.dumps(sorted(app.tasks)))",
        ],
        cwd=PROJECT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "ordina.settings.test"},
        capture_output=True,
        text=True,
        check=True,
    )
    registered = set(json.loads(listing.stdout.strip().splitlines()[-1]))

    assert scheduled_tasks() <= registered, scheduled_tasks() - registered


@pytest.mark.usefixtures("frozen_now")
def test_the_every_minute_jobs_release_an_expired_hold_and_an_unpaid_appointment(salon, haircut):
    salon.deposit_rule, salon.deposit_percent = DepositRule.PERCENT, 20
    salon.save()
    unpaid = booking_with_deposit_create(
        service=haircut,
        start=lisbon(WEDNESDAY, "10:00"),
        client=ClientDetails("Ana Silva", "ana@example.com"),
        idempotency_key="k-1",
    ).appointment
    hold_slot(service=haircut, start=lisbon(WEDNESDAY, "14:00"), holder="conversation-1")
    every_minute = [
        entry["task"]
        for key, entry in settings.CELERY_BEAT_SCHEDULE.items()
        if entry["schedule"] == 60.0 and key != "dispatch-reminders"
    ]

    app.loader.import_default_modules()  # what a worker does on starting: autodiscovery
    with time_machine.travel(BOTH_HOLDS_OVER, tick=False):
        for name in every_minute:
            app.tasks[name].apply(throw=True)

    unpaid.refresh_from_db()
    assert unpaid.status == AppointmentStatus.EXPIRED
    assert not SlotHold.objects.exists()
