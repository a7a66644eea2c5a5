"""The OpenAPI schema says what the API enforces. The served schema (GET /api/schema/) is judged
as a client's validator judges it (jsonschema-rs: ECMA-262 patterns, RFC 3339 formats): a value
it admits is never refused as invalid (400), and a value it refuses, the API refuses too."""

import sys

import jsonschema_rs
import pytest
from django.test import Client as HttpClient
from rest_framework.exceptions import ValidationError

from api.appointments import AppointmentCreateApi
from api.conversations import ConversationConfirmApi, ConversationMessageApi

from .salon import TUESDAY_9
from .widget import availability, book

# Every whitespace of either dialect is in the Basic Multilingual Plane; past it, a sample.
# Surrogates are left out: not text, a JSON string cannot carry one alone.
CHARACTERS = [*range(0xD800), *range(0xE000, 0x10000), 0x10000, 0x1F600, sys.maxunicode]


@pytest.fixture(scope="module")
def schema() -> dict:
    response = HttpClient().get("/api/schema/?format=json")
    assert response.status_code == 200
    return response.json()


def body_field(schema: dict, component: str, name: str) -> dict:
    return schema["components"]["schemas"][component]["properties"][name]


def query_parameter(schema: dict, path: str, name: str) -> dict:
    (parameter,) = [p for p in schema["paths"][path]["get"]["parameters"] if p["name"] == name]
    return parameter["schema"]


def admits(field_schema: dict, value) -> bool:
    return jsonschema_rs.validator_for(field_schema, validate_formats=True).is_valid(value)


# What the schema says.

BOOKING_START = ("AppointmentRequest", "HoldRequest", "RescheduleRequest")


def test_required_texts_are_non_blank_in_the_schema_and_no_text_may_hold_a_nul(schema):
    name = body_field(schema, "AppointmentRequest", "name")
    text = body_field(schema, "ChatMessageRequest", "text")
    card = body_field(schema, "ConfirmRequest", "card")

    assert (name["minLength"], name["maxLength"]) == (1, 120)
    assert (text["minLength"], text["maxLength"]) == (1, 2000)
    assert "minLength" not in card  # "" is a Confirm with nothing shown: 409, not 400
    assert card["maxLength"] == 64
    for field in (name, text):
        assert not admits(field, " \t\n\u3000")
        assert admits(field, " Ana ")
    for field in (name, text, card):
        assert not admits(field, "Ana\x00")


@pytest.mark.parametrize("component", BOOKING_START)
def test_instants_are_rfc_3339_in_the_years_1970_to_2999_in_the_schema(schema, component):
    start = body_field(schema, component, "start")

    assert start["format"] == "date-time"
    assert start["maxLength"] == 64
    assert admits(start, "1970-01-01T00:00:00Z")
    assert admits(start, "2999-12-31T23:59:59.999999+14:00")
    assert not admits(start, "1969-12-31T23:59:59Z")
    assert not admits(start, "3000-01-01T00:00:00Z")


@pytest.mark.parametrize("name", ["from", "to"])
def test_days_are_in_the_years_1970_to_2999_in_the_schema(schema, name):
    day = query_parameter(schema, "/api/v1/businesses/{slug}/availability/", name)

    assert day["format"] == "date"
    assert admits(day, "1970-01-01")
    assert admits(day, "2999-12-31")
    assert not admits(day, "1969-12-31")
    assert not admits(day, "3000-01-01")


def test_a_booking_asks_an_email_or_a_phone_in_the_schema(schema):
    request = schema["components"]["schemas"]["AppointmentRequest"]
    booking = {"service": 1, "start": "2026-12-01T09:00:00Z", "name": "Ana"}

    assert admits(request, booking | {"email": "ana@example.com"})
    assert admits(request, booking | {"phone": "912 345 678"})
    assert not admits(request, booking)
    assert not admits(request, booking | {"email": "", "phone": " "})


# The schema's text rules are the fields' own, character by character: the schema's dialect
# and Python disagree on what whitespace is, so a pattern like \S would not do.


@pytest.mark.parametrize(
    ("component", "name", "field"),
    [
        ("AppointmentRequest", "name", AppointmentCreateApi.InputSerializer().fields["name"]),
        ("ChatMessageRequest", "text", ConversationMessageApi.InputSerializer().fields["text"]),
        ("ConfirmRequest", "card", ConversationConfirmApi.InputSerializer().fields["card"]),
    ],
    ids=["booking name", "chat text", "confirm card"],
)
def test_every_character_the_schema_admits_alone_the_field_takes_and_no_other(
    schema, component, name, field
):
    validator = jsonschema_rs.validator_for(body_field(schema, component, name))

    def field_takes(text: str) -> bool:
        try:
            field.run_validation(text)
        except ValidationError:
            return False
        return True

    disagreements = [
        f"U+{code:04X}"
        for code in CHARACTERS
        if validator.is_valid(chr(code)) != field_takes(chr(code))
    ]

    assert disagreements == []


# What the API does with the schema's boundary values: no 400 for what the schema admits, a 400
# naming the field for what it refuses.


def refused_as_invalid(response, field: str) -> bool:
    if response.status_code != 400:
        return False
    assert field in response.json()["errors"], response.json()
    return True


@pytest.mark.parametrize(
    ("value", "admitted"),
    [
        ("A", True),
        ("x" * 120, True),
        (" " + "x" * 119, True),
        ("\ufeff", True),  # not whitespace to Python, though ECMA-262's \s has it
        ("x" * 121, False),
        ("", False),
        ("   ", False),
        ("\u3000", False),
        ("\x1c", False),  # whitespace to Python, though ECMA-262's \s lacks it
        ("Ana\x00", False),
    ],
)
def test_the_booking_name_is_refused_exactly_when_the_schema_refuses_it(
    schema, api, salon, value, admitted
):
    response = book(api, salon, TUESDAY_9, name=value)

    assert admits(body_field(schema, "AppointmentRequest", "name"), value) is admitted
    assert refused_as_invalid(response, "name") is not admitted
    if admitted:
        assert response.status_code == 201


@pytest.mark.parametrize(
    ("value", "admitted"),
    [
        ("1970-01-01T00:00:00Z", True),
        ("1970-01-01T00:30:00+01:00", True),  # the year as written: 1969 in UTC
        ("2999-12-31T23:59:59Z", True),
        ("2999-12-31T23:00:00-05:00", True),  # the year as written: 3000 in UTC
        ("2026-12-01T09:00:00.123456789Z", True),
        ("1969-12-31T23:59:59Z", False),
        ("3000-01-01T00:00:00Z", False),
        ("0001-01-01T00:00:00+14:00", False),
        ("2026-12-01T09:00+00:00", False),  # ISO 8601, but RFC 3339 wants the seconds
        ("2026-12-01 09:00:00+00:00", False),
        ("20261201T090000Z", False),
        ("2026-12-01t09:00:00z", False),
        ("2026-12-01T09:00:60Z", False),
        ("2026-12-01T09:00:00." + "0" * 50 + "Z", False),  # longer than 64 characters
    ],
)
def test_a_booking_start_is_refused_exactly_when_the_schema_refuses_it(
    schema, api, salon, value, admitted
):
    response = book(api, salon, value)

    assert admits(body_field(schema, "AppointmentRequest", "start"), value) is admitted
    assert refused_as_invalid(response, "start") is not admitted
    if admitted:
        assert response.status_code == 409  # not an open slot: alternatives, not a 400


@pytest.mark.parametrize(
    ("value", "admitted"),
    [
        ("1970-01-01", True),
        ("2999-12-31", True),
        ("1969-12-31", False),
        ("3000-01-01", False),
        ("20261201", False),
        ("2026-W49-2", False),
        ("2026-02-30", False),
    ],
)
def test_an_availability_day_is_refused_exactly_when_the_schema_refuses_it(
    schema, api, salon, value, admitted
):
    response = availability(api, salon, value)

    path = "/api/v1/businesses/{slug}/availability/"
    assert admits(query_parameter(schema, path, "from"), value) is admitted
    assert refused_as_invalid(response, "from") is not admitted
    if admitted:
        assert response.status_code == 200


@pytest.fixture
def conversation(api, salon, settings) -> str:
    settings.ORDINA_MODEL = "offline"
    response = api.post(f"{salon.base}/conversations/")
    assert response.status_code == 201
    return response.json()["token"]


@pytest.mark.parametrize(
    ("value", "admitted"),
    [
        ("a", True),
        ("x" * 2000, True),
        ("x" * 2001, False),
        (" ", False),
        ("\u2028", False),
        ("\x85", False),  # whitespace to Python, though ECMA-262's \s lacks it
        ("hi\x00", False),
    ],
)
def test_a_chat_message_is_refused_exactly_when_the_schema_refuses_it(
    schema, api, conversation, value, admitted
):
    response = api.post(
        f"/api/v1/conversations/{conversation}/messages/",
        {"text": value},
        content_type="application/json",
    )

    assert admits(body_field(schema, "ChatMessageRequest", "text"), value) is admitted
    assert refused_as_invalid(response, "text") is not admitted
    if admitted:
        assert response.status_code == 200


@pytest.mark.parametrize(
    ("value", "admitted"),
    [("", True), ("x" * 64, True), ("x" * 65, False), ("card\x00", False)],
)
def test_a_confirm_card_is_refused_exactly_when_the_schema_refuses_it(
    schema, api, conversation, value, admitted
):
    response = api.post(
        f"/api/v1/conversations/{conversation}/confirm/",
        {"card": value},
        content_type="application/json",
        headers={"Idempotency-Key": "confirm-key-0001"},
    )

    assert admits(body_field(schema, "ConfirmRequest", "card"), value) is admitted
    assert refused_as_invalid(response, "card") is not admitted
    if admitted:
        assert response.status_code == 409  # nothing shown to confirm yet
