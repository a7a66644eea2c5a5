"""The dashboard's home leads a member to their day and their week: the calendar, and the
weekly-hours page of each of their businesses — never another business's."""

import pytest
from django.urls import reverse

from tests.factories import BusinessFactory, MembershipFactory, owner_of, staff_of

pytestmark = pytest.mark.django_db

HOME = reverse("admin:index")


def hours_url(business) -> str:
    return reverse("admin:bookings_business_hours", args=[business.pk])


@pytest.mark.parametrize("member", [owner_of, staff_of], ids=["owner", "staff"])
def test_the_home_links_to_the_calendar_and_to_the_members_own_week(login, member):
    mine, theirs = BusinessFactory(name="Studio Mine"), BusinessFactory(name="Studio Theirs")
    owner_of(theirs)

    html = login(member(mine)).get(HOME).content.decode()

    assert reverse("admin:bookings_appointment_calendar") in html
    assert f'href="{hours_url(mine)}"' in html
    assert hours_url(theirs) not in html
    assert "Studio Theirs" not in html


def test_a_member_of_two_businesses_finds_both_weeks(login):
    first, second = BusinessFactory(name="Alpha"), BusinessFactory(name="Beta")
    user = owner_of(first)
    MembershipFactory(business=second, user=user, role="owner")

    html = login(user).get(HOME).content.decode()

    assert html.index(hours_url(first)) < html.index(hours_url(second))
