"""The week of opening hours on one page: an owner sets every day's ranges (a lunch break as a
second range) and saves them at once; a week with any mistake is refused with the day named and
nothing written; staff read the week and cannot save it; another business's week is a 404."""

import datetime as dt

import pytest
from django.contrib.admin.models import LogEntry
from django.core.exceptions import ValidationError
from django.urls import reverse

from bookings.models import OpeningHours
from dashboard.admin.hours_grid import opening_hours_replace
from tests.factories import BusinessFactory, OpeningHoursFactory, owner_of, staff_of

pytestmark = pytest.mark.django_db

T = dt.time
DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def hours_page(business) -> str:
    return reverse("admin:bookings_business_hours", args=[business.pk])


def week_post(**days: list[str]) -> dict[str, str]:
    """The page's boxes as a browser sends them: ``monday=["09:00-13:00", "14:00-18:00"]``;
    a day not named is sent with its two ranges empty (closed)."""
    data = {}
    for day in DAYS:
        ranges = days.get(day, [])
        for index in range(max(2, len(ranges))):
            opens, _, closes = ranges[index].partition("-") if index < len(ranges) else ("", "", "")
            data[f"{day}-{index}-opens"] = opens
            data[f"{day}-{index}-closes"] = closes
    return data


def saved_rows(business) -> list[tuple[int, dt.time, dt.time]]:
    return list(
        OpeningHours.objects.filter(business=business)
        .order_by("weekday", "opens_at")
        .values_list("weekday", "opens_at", "closes_at")
    )


def page_errors(response) -> list[str]:
    assert response.status_code == 200, "the page was expected back with errors"
    form = response.context["form"]
    return [message for messages in form.errors.values() for message in messages]


def day_errors(response, weekday: int) -> list[str]:
    return response.context["form"].day_errors.get(weekday, [])


@pytest.fixture
def shop():
    """Open Monday to Friday 10:00–16:00, as an owner typed it a row at a time before."""
    business = BusinessFactory(name="Shop A")
    for weekday in range(5):
        OpeningHoursFactory(business=business, weekday=weekday, opens_at=T(10), closes_at=T(16))
    return business


# --- one save sets the week ---------------------------------------------------------------


def test_a_full_week_with_a_lunch_break_is_saved_in_one_post_replacing_the_old_rows(login, shop):
    weekday_hours = ["09:00-13:00", "14:00-18:00"]

    response = login(owner_of(shop)).post(
        hours_page(shop),
        week_post(
            monday=weekday_hours,
            tuesday=weekday_hours,
            wednesday=weekday_hours,
            thursday=weekday_hours,
            friday=weekday_hours,
            saturday=["10:00-14:00"],
        ),
    )

    assert response.status_code == 302
    lunch_split = [(T(9), T(13)), (T(14), T(18))]
    assert saved_rows(shop) == [
        *[(day, *times) for day in range(5) for times in lunch_split],
        (5, T(10), T(14)),
    ]


def test_the_page_shows_the_saved_week_in_hh_mm_and_a_day_without_hours_as_closed(login, shop):
    page = login(owner_of(shop)).get(hours_page(shop))

    text = page.content.decode()
    assert page.status_code == 200
    assert 'name="monday-0-opens"' in text
    assert 'value="10:00"' in text
    assert "10:00:00" not in text
    days = {row.label: row.is_closed for row in page.context["days"]}
    assert days == {
        "Monday": False,
        "Tuesday": False,
        "Wednesday": False,
        "Thursday": False,
        "Friday": False,
        "Saturday": True,
        "Sunday": True,
    }


def test_times_typed_without_a_leading_zero_are_read(login, shop):
    response = login(owner_of(shop)).post(hours_page(shop), week_post(monday=["9:00-17:30"]))

    assert response.status_code == 302
    assert saved_rows(shop) == [(0, T(9), T(17, 30))]


def test_ranges_that_touch_are_accepted_as_a_day_without_a_break(login, shop):
    response = login(owner_of(shop)).post(
        hours_page(shop), week_post(monday=["13:00-18:00", "09:00-13:00"])
    )

    assert response.status_code == 302
    assert saved_rows(shop) == [(0, T(9), T(13)), (0, T(13), T(18))]


def test_an_empty_week_closes_every_day(login, shop):
    response = login(owner_of(shop)).post(hours_page(shop), week_post())

    assert response.status_code == 302
    assert saved_rows(shop) == []


def test_a_day_saved_with_three_ranges_shows_all_three_so_a_save_keeps_them(login):
    business = BusinessFactory()
    for opens, closes in [(8, 10), (11, 13), (15, 19)]:
        OpeningHoursFactory(business=business, weekday=2, opens_at=T(opens), closes_at=T(closes))
    http = login(owner_of(business))

    page = http.get(hours_page(business))
    wednesday = page.context["days"][2]
    posted = {bound.html_name: bound.value() or "" for bound in page.context["form"]}
    http.post(hours_page(business), posted)

    assert len(wednesday.ranges) == 3
    assert [row[1:] for row in saved_rows(business)] == [
        (T(8), T(10)),
        (T(11), T(13)),
        (T(15), T(19)),
    ]


def test_the_save_is_recorded_in_the_business_history_with_the_week(login, shop):
    owner = owner_of(shop)

    login(owner).post(hours_page(shop), week_post(monday=["09:00-13:00", "14:00-18:00"]))

    entry = LogEntry.objects.get(object_id=str(shop.pk))
    assert entry.user == owner
    assert entry.change_message.startswith(
        "Set the opening hours: Monday 09:00–13:00, 14:00–18:00; Tuesday closed;"
    )


def test_saving_the_week_unchanged_writes_nothing(login, shop):
    before = list(OpeningHours.objects.filter(business=shop).values_list("pk", "updated_at"))
    http = login(owner_of(shop))
    posted = {
        bound.html_name: bound.value() or "" for bound in http.get(hours_page(shop)).context["form"]
    }

    response = http.post(hours_page(shop), posted, follow=True)

    assert "nothing changed" in response.content.decode()
    assert (
        list(OpeningHours.objects.filter(business=shop).values_list("pk", "updated_at")) == before
    )
    assert not LogEntry.objects.exists()


# --- a week with a mistake is refused whole, the day named ---------------------------------


@pytest.mark.parametrize(
    ("days", "weekday", "message"),
    [
        pytest.param(
            {"tuesday": ["09:00-13:00", "12:00-18:00"]},
            1,
            "Tuesday: 09:00–13:00 overlaps 12:00–18:00.",
            id="overlap",
        ),
        pytest.param(
            {"wednesday": ["17:00-09:00"]},
            2,
            "Wednesday 17:00–09:00: closing time must be after opening time.",
            id="closing before opening",
        ),
        pytest.param(
            {"thursday": ["09:00-09:00"]},
            3,
            "Thursday 09:00–09:00: closing time must be after opening time.",
            id="closing at opening",
        ),
        pytest.param(
            {"friday": ["09:00-"]},
            4,
            "Friday, range 1: give both the opening and the closing time, or neither.",
            id="opening time only",
        ),
        pytest.param(
            {"saturday": ["25:00-18:00"]},
            5,
            "Saturday, opening time: “25:00” is not a time of day: hours go from 00 to 23.",
            id="hour 25",
        ),
        pytest.param(
            {"sunday": ["9h-17:00"]},
            6,
            "Sunday, opening time: “9h” is not a time: write it as HH:MM, e.g. 09:00 or 17:30.",
            id="9h",
        ),
        pytest.param(
            {"monday": ["09:00-17:75"]},
            0,
            "Monday, closing time: “17:75” is not a time of day: minutes go from 00 to 59.",
            id="minute 75",
        ),
    ],
)
def test_a_week_with_a_mistake_is_refused_with_the_day_named_and_nothing_written(
    login, shop, days, weekday, message
):
    before = saved_rows(shop)
    good_days = {day: ["08:00-12:00"] for day in DAYS if day not in days}

    response = login(owner_of(shop)).post(hours_page(shop), week_post(**good_days, **days))

    assert page_errors(response) == [message]
    assert day_errors(response, weekday) == [message]
    assert "Nothing was saved" in response.content.decode()
    assert saved_rows(shop) == before
    assert not LogEntry.objects.exists()


def test_the_writer_refuses_a_range_the_model_refuses_and_keeps_the_old_week(shop):
    # The form refuses this first; the writer holds on its own (one transaction), whoever calls.
    before = saved_rows(shop)

    with pytest.raises(ValidationError) as refused:
        opening_hours_replace(business=shop, week={0: ((T(8), T(12)),), 1: ((T(17), T(9)),)})

    assert refused.value.messages == [
        "Tuesday 17:00–09:00: Closing time must be after opening time."
    ]
    assert saved_rows(shop) == before


# --- who may -------------------------------------------------------------------------------


def test_an_owner_of_another_business_gets_a_404_and_changes_nothing(login, shop):
    elsewhere = owner_of(BusinessFactory(name="Shop B"))
    http = login(elsewhere)
    before = saved_rows(shop)

    opened = http.get(hours_page(shop))
    posted = http.post(hours_page(shop), week_post(monday=["06:00-07:00"]))

    assert (opened.status_code, posted.status_code) == (404, 404)
    assert saved_rows(shop) == before


def test_staff_read_the_week_without_boxes_and_cannot_save_it(login, shop):
    http = login(staff_of(shop))
    before = saved_rows(shop)

    page = http.get(hours_page(shop))
    posted = http.post(hours_page(shop), week_post(monday=["06:00-07:00"]))

    text = page.content.decode()
    assert page.status_code == 200
    assert "10:00–16:00" in text
    assert "Only its owners change them." in text
    assert "<input" not in text.split('id="content-main"')[1]
    assert posted.status_code == 403
    assert saved_rows(shop) == before


def test_the_business_list_links_each_business_to_its_week(login, shop):
    page = login(owner_of(shop)).get(reverse("admin:bookings_business_changelist"))

    assert f'<a href="{hours_page(shop)}">Edit the week</a>' in page.content.decode()


def test_the_business_page_sums_up_the_week_and_links_to_it_instead_of_rows(login, shop):
    page = login(owner_of(shop)).get(reverse("admin:bookings_business_change", args=[shop.pk]))

    text = page.content.decode()
    prefixes = [inline.formset.prefix for inline in page.context["inline_admin_formsets"]]
    assert "opening_hours" not in prefixes
    assert "<li>Monday 10:00–16:00</li>" in text
    assert "<li>Sunday closed</li>" in text
    assert f'<a href="{hours_page(shop)}">Edit the week</a>' in text
