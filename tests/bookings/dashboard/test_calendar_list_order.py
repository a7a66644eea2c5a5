"""The appointment list leads with what is to come, soonest first (a visit under way counts as
to come), then the past, most recent first; a column the user sorts by replaces that order.
Status and deposit are columns of the list, and the list links to the calendar."""

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from payments.models import Payment, PaymentStatus
from tests.bookings.conftest import NOW
from tests.factories import AppointmentFactory, owner_of

pytestmark = pytest.mark.usefixtures("frozen_now")

LIST = reverse("admin:bookings_appointment_changelist")


@pytest.fixture
def visits(salon) -> dict[str, object]:
    def at(hours: float, name: str):
        return AppointmentFactory(
            business=salon, starts_at=NOW + dt.timedelta(hours=hours), client__name=name
        )

    return {
        "last week": at(-24 * 7, "last week"),
        "next week": at(24 * 7, "next week"),
        "yesterday": at(-24, "yesterday"),
        "under way": at(-0.25, "under way"),
        "tomorrow": at(24, "tomorrow"),
    }


def listed(response) -> list[str]:
    return [appointment.client.name for appointment in response.context["cl"].result_list]


def test_what_is_to_come_leads_soonest_first_then_the_past_most_recent_first(login, salon, visits):
    response = login(owner_of(salon)).get(LIST)

    assert listed(response) == ["under way", "tomorrow", "next week", "yesterday", "last week"]


def test_sorting_by_a_column_replaces_the_order(login, salon, visits):
    # Column 1 is the start time (column 0 is the action checkbox).
    response = login(owner_of(salon)).get(LIST, {"o": "1"})

    assert listed(response) == ["last week", "yesterday", "under way", "tomorrow", "next week"]


def test_the_list_shows_status_and_deposit_and_links_to_the_calendar(login, salon, visits):
    Payment.objects.create(
        business=salon,
        appointment=visits["tomorrow"],
        amount=Decimal("15.00"),
        currency="EUR",
        status=PaymentStatus.PENDING,
        expires_at=timezone.now(),
    )

    html = login(owner_of(salon)).get(LIST).content.decode()

    assert re.search(r'class="field-status[^"]*">Confirmed<', html)
    assert re.search(r'class="field-deposit[^"]*">Deposit due<', html)
    assert re.search(r'class="field-deposit[^"]*">No deposit<', html)
    assert f'href="{reverse("admin:bookings_appointment_calendar")}"' in html
