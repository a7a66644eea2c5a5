"""Messages read in the business's zone and language, right across a DST change."""

import datetime as dt

import pytest
import time_machine

from bookings.services import ClientDetails
from bookings.tokens import manage_token
from orchestration.appointment_changes import appointment_create
from reminders.delivery import render
from reminders.models import Reminder, ReminderKind
from tests.bookings.conftest import lisbon


@pytest.fixture
def spring_forward_booking(salon, haircut):
    """Booked on Friday 26 March 2027 for Monday 29 March 10:00 in Lisbon: the clocks go
    forward on the Sunday between, so the 24-hour reminder is due on Sunday 10:00 local."""
    with time_machine.travel(dt.datetime(2027, 3, 26, 9, tzinfo=dt.UTC), tick=False):
        salon.booking_horizon_days = 30
        salon.save()
        return appointment_create(
            service=haircut,
            start=lisbon(dt.date(2027, 3, 29), "10:00"),
            client=ClientDetails("Ana", "ana@example.com"),
        ).appointment


def test_the_day_before_reminder_is_due_24_real_hours_before_and_says_local_time(
    spring_forward_booking,
):
    reminder = Reminder.objects.get(
        appointment=spring_forward_booking, kind=ReminderKind.BEFORE_24H
    )

    subject, body = render(reminder)

    assert reminder.due_at == dt.datetime(2027, 3, 28, 9, tzinfo=dt.UTC)  # 10:00 WEST
    assert subject.startswith("See you tomorrow at 10:00")
    assert "Monday 29 March, at 10:00" in body
    assert manage_token(spring_forward_booking.public_id) in body


def test_messages_are_written_in_the_business_language(salon, spring_forward_booking):
    salon.language = "pt"
    salon.save()
    reminder = Reminder.objects.select_related("business").get(
        appointment=spring_forward_booking, kind=ReminderKind.CONFIRMATION
    )

    _, body = render(reminder)

    assert "Segunda-feira 29 Março 2027" in body
