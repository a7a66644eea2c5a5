"""Schemathesis against the served schema, through the real WSGI application: every operation,
with schema-valid and schema-violating input, never answers 5xx, never sets a cookie, and
answers only the statuses, content types and bodies its schema documents; and a schema-valid
request is never refused as invalid (400), once what no schema can judge (which phone numbers
exist, a day range's order and length) is made right. Most generated cases are aimed at a
known world (its business, service, open slots, live management tokens), so the happy paths are
reached too, not only the 404s of random names."""

import datetime as dt
from contextlib import contextmanager
from dataclasses import dataclass

import hypothesis
import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections
from hypothesis import strategies as st
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from api.availability import LONGEST_RANGE_DAYS
from bookings.services import ClientDetails, appointment_create
from ordina.wsgi import application

from .salon import TUESDAY_9, salon_in


@dataclass(frozen=True)
class KnownWorld:
    slug: str
    service: int
    starts: list[str]  # open slots, as availability writes them
    days: list[dt.date]
    tokens: list[str]  # of live appointments


@contextmanager
def connection_kept_open():
    """Django closes the connection when a real WSGI request ends (its test client does not);
    that would end the test's transaction, and with it the test data."""
    for signal in (signals.request_started, signals.request_finished):
        signal.disconnect(close_old_connections)
    try:
        yield
    finally:
        for signal in (signals.request_started, signals.request_finished):
            signal.connect(close_old_connections)


@pytest.fixture
def known_world(db, frozen_now) -> KnownWorld:
    salon = salon_in()
    tokens = [
        appointment_create(
            service=salon.service,
            start=TUESDAY_9 + dt.timedelta(days=days),
            client=ClientDetails("Rui", "rui@example.com"),
        ).manage_token
        for days in (7, 8, 9)
    ]
    starts = [(TUESDAY_9 + dt.timedelta(minutes=15 * n)).isoformat() for n in range(30)]
    days = [TUESDAY_9.date() + dt.timedelta(days=n) for n in range(14)]
    return KnownWorld(salon.business.slug, salon.service.pk, starts, days, tokens)


@pytest.fixture
def unthrottled_wsgi(settings):
    # Hundreds of requests from one address in a frozen minute: lift the rate limit.
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"public": "1000000/minute"},
    }
    with connection_kept_open():
        yield


# Loaded when the module is collected: schemathesis's lazy fixture loader does not run on
# pytest 9 (it writes Node._nodeid, which pytest 9 no longer has).
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application).include(
    path_regex="^/api/v1/"
)


def aim_at_known_world(case, data, world: KnownWorld) -> None:
    """Three cases in four are aimed at the world: they name its business, service and
    tokens, and, by further coin tosses, its open slots, days and a valid contact. The rest
    keep what was generated (mostly unknown names: 404s). A component generated to violate
    the schema is left alone, so the server must still refuse it."""
    # Hypothesis leans to the simplest draw (0, False): let that one mean "aim".
    if data.draw(st.integers(0, 3)) == 3:
        return

    def toss() -> bool:
        return not data.draw(st.booleans())

    def aimable(location: ParameterLocation, component) -> dict:
        negative = case.meta is not None and case.meta.is_negative_at(location)
        return component if isinstance(component, dict) and not negative else {}

    path = aimable(ParameterLocation.PATH, case.path_parameters)
    if "slug" in path:
        path["slug"] = world.slug
    if "token" in path:
        path["token"] = data.draw(st.sampled_from(world.tokens))
    query = aimable(ParameterLocation.QUERY, case.query)
    if "service" in query:
        query["service"] = world.service
    if "from" in query and toss():
        first = data.draw(st.sampled_from(world.days))
        query["from"] = first.isoformat()
        query["to"] = (first + dt.timedelta(days=data.draw(st.integers(0, 6)))).isoformat()
    body = aimable(ParameterLocation.BODY, case.body)
    if "service" in body:
        body["service"] = world.service
    if "start" in body and toss():
        body["start"] = data.draw(st.sampled_from(world.starts))
    if "name" in body and toss():
        body.update(name="Ana Silva", email="ana@example.com", phone="")


def sets_no_cookie(ctx, response, case) -> None:
    """Public endpoints keep no state in the client: no session, no CSRF token."""
    assert "set-cookie" not in response.headers, f"{case.operation.label} set a cookie"


@schema.parametrize()
@schema.given(data=st.data())
@hypothesis.settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=list(hypothesis.HealthCheck),
)
def test_no_operation_answers_with_a_server_error(case, data, known_world, unthrottled_wsgi):
    aim_at_known_world(case, data, known_world)

    case.call_and_validate(
        # A schema cannot say which phone numbers or day ranges are valid, so a schema-valid
        # request may rightly be refused; every other built-in check applies.
        excluded_checks=[positive_data_acceptance],
        additional_checks=[sets_no_cookie],
    )


# Schema-valid requests only, each with every check on (positive_data_acceptance included): a
# request the schema admits is never refused as invalid. Two things a schema cannot say are made
# right first: which phone numbers exist, and a day range's order and length.
schema_valid = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application).include(
    path_regex="^/api/v1/"
)
schema_valid.config.generation.update(modes=[GenerationMode.POSITIVE])


def beyond_the_schema(case) -> None:
    """A phone becomes one that exists; a day range runs from `from` for at most the 62 days
    availability answers (or is the one day `from`, where that would pass the year 2999)."""
    body = case.body if isinstance(case.body, dict) else {}
    if "phone" in body:
        body["phone"] = "912 345 678"
    query = case.query if isinstance(case.query, dict) else {}
    if "from" in query and "to" in query:
        first, last = dt.date.fromisoformat(query["from"]), dt.date.fromisoformat(query["to"])
        if not 0 <= (last - first).days < LONGEST_RANGE_DAYS:
            query["to"] = query["from"]


@schema_valid.parametrize()
@schema_valid.given(data=st.data())
@hypothesis.settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=list(hypothesis.HealthCheck),
)
def test_no_schema_valid_request_is_refused_as_invalid(case, data, known_world, unthrottled_wsgi):
    aim_at_known_world(case, data, known_world)
    beyond_the_schema(case)

    case.call_and_validate(additional_checks=[sets_no_cookie])
