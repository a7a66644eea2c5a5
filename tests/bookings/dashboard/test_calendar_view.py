"""The owner's calendar page: a day or a week of one business in its time zone, one lane per
place, each appointment with its status and deposit and a link to its page; only the
businesses the user belongs to (another's id is a 404), a fixed number of queries whatever the
number of appointments, and bad input answered with a message, never an error page."""

import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from bookings.models import AppointmentStatus
from payments.models import Payment, PaymentStatus
from tests.bookings.conftest import WEDNESDAY, lisbon
from tests.factories import (
    AppointmentFactory,
    BusinessFactory,
    BusyBlockFactory,
    ClientFactory,
    DateOverrideFactory,
    MembershipFactory,
    SlotHoldFactory,
    UserFactory,
    operator,
    owner_of,
    staff_of,
)

pytestmark = pytest.mark.usefixtures("frozen_now")

CALENDAR = reverse("admin:bookings_appointment_calendar")


def calendar(http, **query):
    return http.get(CALENDAR, {"date": WEDNESDAY.isoformat()} | query)


def entries(response) -> list:
    """The appointments and holds the page drew, day by day."""
    return [cell.item for plan in response.context["board"].days for cell in plan.entries]


def client_names(response) -> set[str]:
    return {
        entry.appointment.client.name for entry in entries(response) if entry.kind == "appointment"
    }


def paid_deposit(appointment, status=PaymentStatus.PAID) -> Payment:
    return Payment.objects.create(
        business=appointment.business,
        appointment=appointment,
        amount=Decimal("15.00"),
        currency="EUR",
        status=status,
        paid_at=timezone.now(),
        expires_at=timezone.now(),
    )


def test_overlapping_appointments_sit_in_separate_lanes_with_status_and_deposit(login, salon):
    salon.capacity = 2
    salon.save()
    first = AppointmentFactory(
        business=salon, starts_at=lisbon(WEDNESDAY, "10:00"), client__name="Ana Silva"
    )
    second = AppointmentFactory(
        business=salon,
        starts_at=lisbon(WEDNESDAY, "10:15"),
        client__name="Bea Costa",
        status=AppointmentStatus.PENDING_PAYMENT,
    )
    paid_deposit(first)

    response = calendar(login(owner_of(salon)))

    assert response.status_code == 200
    board = response.context["board"]
    assert board.lanes == 2
    placed = {cell.item.appointment: cell for cell in board.days[0].entries}
    assert placed[first].columns == (2, 3)
    assert placed[second].columns == (3, 4)
    html = response.content.decode()
    assert f"#{placed[second].dom_id} {{ grid-area: {placed[second].area}; }}" in html
    assert reverse("admin:bookings_appointment_change", args=[first.pk]) in html
    assert "10:00–10:45" in html
    assert "Ana Silva" in html
    assert "Confirmed · Deposit paid" in html
    assert "Awaiting deposit · No deposit" in html


def test_the_day_is_the_businesss_own_in_its_time_zone(login, db):
    # At 08:00 UTC on Monday 30 November it is still Sunday the 29th in Honolulu.
    business = BusinessFactory(time_zone="Pacific/Honolulu")
    AppointmentFactory(business=business, starts_at=dt.datetime(2026, 11, 29, 20, tzinfo=dt.UTC))

    response = login(owner_of(business)).get(CALENDAR)

    assert response.context["day"] == dt.date(2026, 11, 29)
    assert "10:00–10:45" in response.content.decode()  # 20:00 UTC is 10:00 in Honolulu


def test_the_week_shows_seven_days_from_monday_with_the_visit_on_its_day(login, salon):
    AppointmentFactory(business=salon, starts_at=lisbon(WEDNESDAY, "10:00"))

    response = calendar(login(owner_of(salon)), view="week")

    days = response.context["board"].days
    assert [plan.day for plan in days] == [
        dt.date(2026, 11, 30) + dt.timedelta(n) for n in range(7)
    ]
    assert [len(plan.entries) for plan in days] == [0, 0, 1, 0, 0, 0, 0]
    assert days[2].entries[0].columns == (4, 5)  # Wednesday's lane
    assert response.context["next_link"].endswith("date=2026-12-09&view=week")


def test_cancelled_visits_free_their_time_and_holds_busy_time_and_closures_show(login, salon):
    AppointmentFactory(
        business=salon, starts_at=lisbon(WEDNESDAY, "10:00"), status=AppointmentStatus.CANCELLED
    )
    SlotHoldFactory(
        business=salon,
        starts_at=lisbon(WEDNESDAY, "11:00"),
        expires_at=timezone.now() + dt.timedelta(minutes=5),
        service__name="Colour",
    )
    BusyBlockFactory(
        business=salon,
        starts_at=lisbon(WEDNESDAY, "13:00"),
        ends_at=lisbon(WEDNESDAY, "14:00"),
        summary="<b>Lunch</b>",
    )
    DateOverrideFactory(business=salon, date=WEDNESDAY)  # closed all day

    response = calendar(login(owner_of(salon)))

    [hold] = entries(response)
    assert hold.kind == "hold"
    assert hold.service == "Colour"
    html = response.content.decode()
    assert "Held: Colour" in html
    assert "13:00–14:00 &lt;b&gt;Lunch&lt;/b&gt;" in html  # the feed's text, shown as text
    assert "Closed" in html
    assert response.context["board"].days[0].closed  # the whole day is shaded


def test_an_owner_sees_nothing_of_another_business(login, salon):
    other = BusinessFactory(name="Another salon")
    AppointmentFactory(business=salon, client__name="Ours")
    AppointmentFactory(business=other, client__name="Theirs")
    owner = owner_of(salon)

    response = calendar(login(owner))

    assert client_names(response) == {"Ours"}
    assert response.context["businesses"] == [salon]
    assert "Another salon" not in response.content.decode()


@pytest.mark.parametrize("raw", ["other", "404404", "not-a-number"])
def test_another_businesss_id_is_a_404(login, salon, raw):
    other = BusinessFactory()
    AppointmentFactory(business=other)
    value = {"other": str(other.pk), "404404": "404404", "not-a-number": "x1"}[raw]

    response = calendar(login(owner_of(salon)), business=value)

    assert response.status_code == 404


def test_a_member_of_two_businesses_chooses_between_them(login, salon):
    second = BusinessFactory(name="Zeta Barbers")
    user = owner_of(salon)
    MembershipFactory(user=user, business=second, role="staff")
    AppointmentFactory(business=second, client__name="At Zeta")

    http = login(user)
    first_page = calendar(http)
    chosen = calendar(http, business=str(second.pk))

    assert first_page.context["businesses"] == [salon, second]
    assert 'id="calendar-business"' in first_page.content.decode()
    assert client_names(chosen) == {"At Zeta"}


def test_staff_may_view_the_calendar(login, salon):
    AppointmentFactory(business=salon, client__name="Ana")

    response = calendar(login(staff_of(salon)))

    assert response.status_code == 200
    assert client_names(response) == {"Ana"}


def test_an_operator_and_a_user_without_a_business_are_refused(login, salon):
    AppointmentFactory(business=salon)

    assert calendar(login(operator())).status_code == 403
    assert calendar(login(UserFactory())).status_code == 403


def test_a_superuser_sees_every_business(login, salon):
    other = BusinessFactory(name="Zeta Barbers")
    AppointmentFactory(business=other, client__name="At Zeta")

    response = calendar(login(UserFactory(is_superuser=True)), business=str(other.pk))

    assert response.status_code == 200
    assert response.context["businesses"] == [salon, other]
    assert client_names(response) == {"At Zeta"}


def test_signed_out_visitors_are_sent_to_sign_in(client):
    response = client.get(CALENDAR)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"date": "2026-13-45"}, "“2026-13-45” is not a date written as YYYY-MM-DD"),
        ({"date": "0001-01-01"}, "The calendar shows 1900 to 2999"),
        ({"view": "month"}, "“month” is not a view of the calendar"),
    ],
)
def test_bad_input_is_named_and_the_page_shows_today(login, salon, query, message):
    response = login(owner_of(salon)).get(CALENDAR, query)

    assert response.status_code == 200
    assert response.context["day"] == dt.date(2026, 11, 30)
    assert response.context["view"] == "day"
    assert any(message in str(m) for m in get_messages(response.wsgi_request))


def test_posting_to_the_calendar_is_refused(login, salon):
    assert login(owner_of(salon)).post(CALENDAR).status_code == 405


def count_calendar_queries(http, week: bool) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = calendar(http, view="week" if week else "day")
    assert response.status_code == 200
    return len(captured)


@pytest.mark.parametrize("week", [False, True], ids=["day", "week"])
def test_the_page_reads_a_fixed_number_of_queries_whatever_the_appointments(login, salon, week):
    salon.capacity = 30
    salon.save()
    http = login(owner_of(salon))

    def book(count: int) -> None:
        for n in range(count):
            appointment = AppointmentFactory(
                business=salon,
                starts_at=lisbon(WEDNESDAY, "10:00") + dt.timedelta(minutes=5 * n),
                client=ClientFactory(business=salon),
            )
            paid_deposit(appointment)
            SlotHoldFactory(
                business=salon,
                starts_at=lisbon(WEDNESDAY, "15:00"),
                expires_at=timezone.now() + dt.timedelta(minutes=5),
            )
            BusyBlockFactory(
                business=salon,
                starts_at=lisbon(WEDNESDAY, "16:00"),
                ends_at=lisbon(WEDNESDAY, "16:30"),
            )

    book(3)
    with_three = count_calendar_queries(http, week)
    book(27)
    with_thirty = count_calendar_queries(http, week)

    assert len(entries(calendar(http, view="week" if week else "day"))) == 60
    assert with_thirty == with_three
