"""The analytics page as the dashboard serves it: who may read which business's figures, the
date range and its refusals, what is escaped, and a constant number of queries."""

import datetime as dt
import re

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.analytics.world import TO_CONFIRMED, at, other_salon_month, salon_month, walk
from tests.factories import BusinessFactory, ServiceFactory, operator, owner_of, staff_of

URL = "/admin/analytics/"
NOVEMBER = {"from": "2026-11-01", "to": "2026-11-30"}


@pytest.fixture
def world(db):
    salon, other = BusinessFactory(name="Salon A"), BusinessFactory(name="Salon B")
    haircut = ServiceFactory(business=salon, name="Haircut")
    colour = ServiceFactory(business=salon, name="<b>Colour</b>")
    salon_month(salon, haircut, colour)
    other_salon_month(other, ServiceFactory(business=other, name="Haircut elsewhere"))
    return salon, other


def funnel_counts(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<td data-step="\d">(\d+)</td>', html)]


def test_an_owner_reads_their_business_and_nothing_of_another(world, login):
    salon, other = world
    http = login(owner_of(salon))
    html = http.get(URL, NOVEMBER).content.decode()
    assert funnel_counts(html) == [7, 6, 5, 5, 5, 4, 4]
    assert "Haircut elsewhere" not in html
    assert "Salon B" not in html
    assert http.get(URL, {**NOVEMBER, "business": other.pk}).status_code == 404
    assert http.get(URL, {**NOVEMBER, "business": "x"}).status_code == 404
    assert http.get(URL, {**NOVEMBER, "business": salon.pk}).status_code == 200


def test_an_operator_reads_every_business_together_or_one(world, login):
    _salon, other = world
    http = login(operator())
    assert funnel_counts(http.get(URL, NOVEMBER).content.decode()) == [8, 7, 6, 6, 6, 5, 5]
    one = http.get(URL, {**NOVEMBER, "business": other.pk}).content.decode()
    assert funnel_counts(one) == [1, 1, 1, 1, 1, 1, 1]


def test_staff_may_not_read_the_figures(world, login):
    salon, _other = world
    assert login(staff_of(salon)).get(URL, NOVEMBER).status_code == 403


def test_the_owners_home_links_to_the_page(world, login):
    salon, _other = world
    http = login(owner_of(salon))
    assert f'href="{URL}"' in http.get("/admin/").content.decode()
    assert f'href="{URL}"' not in login(staff_of(salon)).get("/admin/").content.decode()


def test_a_service_name_is_shown_as_text(world, login):
    salon, _other = world
    html = login(owner_of(salon)).get(URL, NOVEMBER).content.decode()
    assert "&lt;b&gt;Colour&lt;/b&gt;" in html
    assert "<b>Colour</b>" not in html


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"from": "yesterday"}, "The start date is not a date like 2026-12-31."),
        ({"to": "2026-13-01"}, "The end date is not a date like 2026-12-31."),
        ({"from": "2026-12-01", "to": "2026-11-01"}, "The start date is after the end date."),
        ({"from": "2025-01-01", "to": "2026-11-30"}, "A range is at most 366 days"),
        ({"from": "9999-12-31"}, "The start date is out of range."),
    ],
)
def test_a_bad_range_is_refused_with_its_reason(world, login, query, message):
    salon, _other = world
    response = login(owner_of(salon)).get(URL, query)
    assert response.status_code == 400
    assert message in response.content.decode()


def test_the_default_period_is_the_last_30_days_in_the_business_zone(world, login):
    salon, _other = world
    http = login(owner_of(salon))
    with time_machine.travel(dt.datetime(2026, 11, 30, 23, 30, tzinfo=dt.UTC), tick=False):
        html = http.get(URL).content.decode()
    # 1 to 30 November, today included: the conversation of 30 October is not in it.
    assert "Whole days in Europe/Lisbon, 1 Nov 2026 to 30 Nov 2026." in html
    assert funnel_counts(html) == [7, 6, 5, 5, 5, 4, 4]


def page_queries(http) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert http.get(URL, NOVEMBER).status_code == 200
    return len(captured)


def test_the_page_makes_as_many_queries_at_100_conversations_as_at_10(db, login):
    salon = BusinessFactory()
    service = ServiceFactory(business=salon)
    http = login(owner_of(salon))
    for day in range(10):
        walk(salon, at(day + 1), [*TO_CONFIRMED, ("confirmed", 9)], service=service)
    few = page_queries(http)
    for day in range(90):
        walk(salon, at(day % 28 + 1, 12), [("service_chosen", 1)], service=service)
    assert page_queries(http) == few
