"""Guessing a dashboard password is stopped (django-axes, as configured in settings): after five
wrong passwords for one account from one address, even the right password does not sign in
from there for fifteen minutes, and the page says so in words an owner understands. Other
accounts, and the same account from elsewhere, are unaffected; a success clears the count.

Axes is off in the test settings (Django's test client signs in without a request); these
tests switch it on and sign in through the real admin login form.
"""

import datetime as dt

import pytest
import time_machine
from django.test import Client as HttpClient
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory

NOW = dt.datetime(2026, 12, 1, 9, tzinfo=dt.UTC)
OWNER_ADDRESS = "203.0.113.7"
LOCKED_OUT = "Too many failed sign-ins for this account from this address."


@pytest.fixture(autouse=True)
def lockout_on(settings):
    settings.AXES_ENABLED = True


@pytest.fixture
def clock():
    with time_machine.travel(NOW, tick=False) as traveller:
        yield traveller


def sign_in(username: str, password: str, address: str = OWNER_ADDRESS):
    """Posts the admin's login form from ``address``: the response, and whether it signed in."""
    http = HttpClient(REMOTE_ADDR=address)
    response = http.post(
        reverse("admin:login"),
        {"username": username, "password": password, "next": reverse("admin:index")},
    )
    signed_in = http.get(reverse("admin:index")).status_code == 200
    return response, signed_in


def fail(username: str, times: int, address: str = OWNER_ADDRESS) -> None:
    for _ in range(times):
        sign_in(username, "not the password", address)


@pytest.mark.django_db
def test_after_25_wrong_passwords_the_right_one_does_not_sign_in(clock):
    owner = UserFactory()
    fail(owner.username, 25)

    response, signed_in = sign_in(owner.username, PASSWORD)

    assert not signed_in
    assert response.status_code == 429
    page = response.content.decode()
    assert LOCKED_OUT in page
    assert "paused for 15 minutes" in page
    assert "Try again in 15 minutes" in page
    assert response["Retry-After"] == str(15 * 60)


@pytest.mark.django_db
def test_the_fifth_wrong_password_locks_and_a_success_clears_the_count(clock):
    owner = UserFactory()

    fail(owner.username, 4)
    _, signed_in_after_four = sign_in(owner.username, PASSWORD)
    fail(owner.username, 4)
    _, signed_in_after_four_more = sign_in(owner.username, PASSWORD)
    fail(owner.username, 5)
    _, signed_in_after_five = sign_in(owner.username, PASSWORD)

    assert signed_in_after_four
    assert signed_in_after_four_more  # eight in all, but the success between cleared them
    assert not signed_in_after_five


@pytest.mark.django_db
def test_the_right_password_signs_in_again_after_the_cool_off(clock):
    owner = UserFactory()
    fail(owner.username, 25)

    clock.shift(dt.timedelta(minutes=14))
    _, signed_in_early = sign_in(owner.username, PASSWORD)
    clock.shift(dt.timedelta(minutes=1, seconds=1))
    response, signed_in = sign_in(owner.username, PASSWORD)

    assert not signed_in_early
    assert signed_in
    assert response.status_code == 302


@pytest.mark.django_db
def test_another_account_and_another_address_are_unaffected(clock):
    owner, colleague = UserFactory(), UserFactory()
    fail(owner.username, 25)

    _, colleague_signed_in = sign_in(colleague.username, PASSWORD)
    _, owner_signed_in_elsewhere = sign_in(owner.username, PASSWORD, address="198.51.100.20")
    _, owner_signed_in_here = sign_in(owner.username, PASSWORD)

    assert colleague_signed_in
    assert owner_signed_in_elsewhere
    assert not owner_signed_in_here
