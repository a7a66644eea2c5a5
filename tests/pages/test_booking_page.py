"""The hosted booking page as the server answers it: a page per business in its language, a
404 page for any other address, and HTML that holds nothing of any conversation (the script
reads that from the API with the token the browser keeps)."""

import datetime as dt
import json
import re
from decimal import Decimal

import pytest
import time_machine
from django.test import Client as HttpClient

from bookings.models import DepositRule
from tests.factories import BusinessFactory, ServiceFactory

pytestmark = pytest.mark.django_db


def json_block(html: str, block_id: str):
    tag = rf'<script id="{block_id}" type="application/json">(.*?)</script>'
    found = re.search(tag, html, re.S)
    assert found, block_id
    return json.loads(found.group(1))


@pytest.fixture
def salon():
    business = BusinessFactory(name="Studio Lumen", time_zone="Pacific/Auckland", currency="EUR")
    ServiceFactory(business=business, name="Haircut", list_price=Decimal("60.00"))
    ServiceFactory(business=business, name="Retired", is_active=False)
    return business


@pytest.mark.parametrize("slug", ["no-such-business", "x" * 61, "bad%20slug", "%00"])
def test_an_address_naming_no_business_is_the_404_page(salon, slug):
    response = HttpClient().get(f"/b/{slug}/")

    assert response.status_code == 404
    assert "This page could not be found" in response.content.decode()
    assert "Studio Lumen" not in response.content.decode()


def test_the_page_shows_the_business_and_its_bookable_services(salon):
    response = HttpClient().get(f"/b/{salon.slug}/")

    assert response.status_code == 200
    assert response.context["business"] == salon
    assert [service.name for service in response.context["services"]] == ["Haircut"]
    html = response.content.decode()
    assert '<h1 class="business-name">Studio Lumen</h1>' in html
    assert "Haircut · 45 min · €60.00" in html
    assert "Retired" not in html


def test_the_script_is_told_the_business_today_in_its_own_zone_and_each_deposit(salon):
    salon.deposit_rule, salon.deposit_percent = DepositRule.PERCENT, 20
    salon.save()
    ServiceFactory(business=salon, name="Beard trim", deposit_amount=Decimal("0.00"))
    # 11:30 UTC on 30 November is already 1 December in Auckland.
    with time_machine.travel(dt.datetime(2026, 11, 30, 11, 30, tzinfo=dt.UTC), tick=False):
        html = HttpClient().get(f"/b/{salon.slug}/").content.decode()

    told = json_block(html, "booking-settings")
    assert (told["slug"], told["today"], told["currency"]) == (salon.slug, "2026-12-01", "EUR")
    assert told["lastDay"] == "2027-01-30"  # the default horizon: 60 days
    deposits = {service["name"]: service["deposit"] for service in told["services"]}
    assert deposits == {"Beard trim": "0.00", "Haircut": "12.00"}


def test_the_page_speaks_the_business_language(salon):
    salon.language = "pt"
    salon.save()

    html = HttpClient().get(f"/b/{salon.slug}/").content.decode()

    assert '<html lang="pt">' in html


def test_the_script_has_its_words_from_the_page_and_no_inline_code(salon):
    html = HttpClient().get(f"/b/{salon.slug}/").content.decode()

    words = json_block(html, "booking-strings")
    assert words["bookingConfirmed"] == "Your booking is confirmed"
    scripts = re.findall(r"<script\b[^>]*>", html)
    executable = [tag for tag in scripts if 'type="application/json"' not in tag]
    assert executable == [
        '<script type="module" src="/static/pages/booking/main.js">',
        '<script type="module" src="/static/pages/embedded.js">',
    ]
    assert not re.search(r"\son[a-z]+=", html)
    assert " style=" not in html


def test_the_page_holds_nothing_of_a_conversation(salon):
    api = HttpClient()
    started = api.post(f"/api/v1/businesses/{salon.slug}/conversations/").json()

    html = HttpClient().get(f"/b/{salon.slug}/").content.decode()

    assert started["token"] not in html
    assert started["reply"]["text"] not in html


@pytest.mark.parametrize("came_back", ["returned", "cancelled"])
def test_stripe_sends_the_client_back_to_this_page(salon, came_back):
    response = HttpClient().get(f"/b/{salon.slug}/", {"payment": came_back})

    assert response.status_code == 200
    assert response.templates[0].name == "pages/booking.html"


def test_the_page_loads_only_from_its_own_server_and_may_run_no_inline_script(salon):
    response = HttpClient().get(f"/b/{salon.slug}/")

    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "connect-src 'self'" in policy
    assert "unsafe" not in policy
    assert '<meta name="referrer" content="no-referrer">' in response.content.decode()
