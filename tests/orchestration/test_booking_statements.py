"""What a booking costs the database: the statements it sends under the booking lock, counted,
so a query added to the booking path shows here before it shows in the benchmark
(bench/booking_throughput.py: goal, at most the raw-SQL path's 8 statements + 1)."""

import pytest
from django.db import connection

from bookings.services import ClientDetails
from orchestration.appointment_changes import appointment_create
from reminders.models import Reminder
from tests.bookings.conftest import WEDNESDAY, lisbon

pytestmark = pytest.mark.usefixtures("frozen_now")

# The lock, the replay look-up, the calendar, the schedule, the client, the appointment with
# the first entry of its history, the business's reminder settings, its reminders.
BOOKING_STATEMENTS = 8


class Statements:
    """The statements sent, without the savepoints of the test's own transaction."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def __call__(self, execute, sql, params, many, context):
        if not sql.lstrip().upper().startswith(("SAVEPOINT", "RELEASE SAVEPOINT")):
            self.sent.append(sql)
        return execute(sql, params, many, context)


def book(service, wall: str, client: ClientDetails, key: str):
    statements = Statements()
    with connection.execute_wrapper(statements):
        outcome = appointment_create(
            service=service, start=lisbon(WEDNESDAY, wall), client=client, idempotency_key=key
        )
    return outcome, statements.sent


def test_a_booking_for_a_new_client_sends_eight_statements_and_plans_its_reminders(haircut):
    outcome, sent = book(haircut, "10:00", ClientDetails("Ana", email="ana@example.com"), "a")

    assert len(sent) == BOOKING_STATEMENTS, "\n".join(sent)
    assert Reminder.objects.filter(appointment=outcome.appointment).exists()


def test_a_returning_client_costs_the_same(haircut):
    book(haircut, "10:00", ClientDetails("Ana", email="ana@example.com"), "a")

    _, sent = book(haircut, "12:00", ClientDetails("Ana", email="ana@example.com"), "b")

    assert len(sent) == BOOKING_STATEMENTS, "\n".join(sent)
