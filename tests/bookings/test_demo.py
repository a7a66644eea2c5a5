import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.db.models import F
from django.test import Client as HttpClient
from django.urls import reverse

from bookings.demo import next_christmas, seed_demo
from bookings.models import Business, DateOverride, OpeningHours, Service

TODAY = dt.date(2026, 11, 29)


@pytest.mark.django_db
def test_demo_owner_signs_in_and_sees_the_salon_services():
    setup = seed_demo(today=TODAY, owner_password="demo pass 123")

    http = HttpClient()
    assert http.login(username=setup.owner_username, password="demo pass 123")
    response = http.get(reverse("admin:bookings_service_changelist"))

    assert response.status_code == 200
    names = {service.name for service in response.context["cl"].result_list}
    assert names == {"Haircut", "Colour", "Beard trim"}


@pytest.mark.django_db
def test_running_the_demo_twice_resets_it_instead_of_duplicating():
    seed_demo(today=TODAY, owner_password="first")
    counts = (OpeningHours.objects.count(), DateOverride.objects.count(), Service.objects.count())

    setup = seed_demo(today=TODAY, owner_password="second")

    assert Business.objects.count() == 1
    assert (
        OpeningHours.objects.count(),
        DateOverride.objects.count(),
        Service.objects.count(),
    ) == counts
    owner = get_user_model().objects.get(username=setup.owner_username)
    assert owner.check_password("second")


@pytest.mark.django_db
def test_demo_has_a_closure_special_hours_a_floor_and_a_deposit_rule():
    setup = seed_demo(today=TODAY)
    business = setup.business

    closed = DateOverride.objects.get(business=business, date=setup.closed_on)
    assert closed.is_closed
    special = DateOverride.objects.get(business=business, date=setup.special_hours_on)
    assert not special.is_closed
    assert business.services.filter(price_floor__lt=F("list_price")).exists()
    assert business.deposit_rule == "percent"
    assert len(setup.owner_password) >= 16


@pytest.mark.parametrize(
    ("today", "christmas"),
    [
        (dt.date(2026, 11, 29), dt.date(2026, 12, 25)),
        (dt.date(2026, 12, 25), dt.date(2027, 12, 25)),
        (dt.date(2026, 12, 31), dt.date(2027, 12, 25)),
    ],
)
def test_the_demo_closure_is_the_next_christmas_after_today(today, christmas):
    assert next_christmas(today) == christmas
