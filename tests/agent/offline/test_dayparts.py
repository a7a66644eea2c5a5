"""Dayparts by the business's own opening hours: "the afternoon" of a clinic open 09:00–13:00
and 15:00–19:00 is 15:00–19:00, in English and in Spanish; a day without hours reads the fixed
windows (morning 09–12, afternoon 12–17, evening 17–20)."""

from datetime import datetime, time
from typing import cast

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from agent.conversation.facts import message_reading
from agent.models import Conversation
from agent.offline import read_message
from agent.offline.dayparts import FIXED_DAYPARTS, dayparts_from_opening, weekly_dayparts
from bookings.models import Business, OpeningHours
from tests.factories import BusinessFactory

MADRID_NOW = datetime.fromisoformat("2026-11-25T09:00:00+01:00")  # Wednesday 09:00 in Madrid
SPLIT = [(time(9), time(13)), (time(15), time(19))]


def test_a_split_day_reads_its_morning_and_afternoon_sessions():
    windows = dayparts_from_opening(SPLIT)

    assert windows["morning"] == (time(9), time(13))
    assert windows["afternoon"] == (time(15), time(19))
    assert windows["midday"] == (time(12), time(13))
    # No open time from 19:00: the evening is closed, read as its closed stretch 19:00–20:00.
    assert windows["evening"] == (time(19), time(20))


def test_a_long_day_is_cut_at_noon_and_at_seven():
    windows = dayparts_from_opening([(time(10), time(20, 30))])

    assert windows["morning"] == (time(10), time(12))
    assert windows["afternoon"] == (time(12), time(19))
    assert windows["evening"] == windows["tonight"] == (time(19), time(20, 30))


def test_an_afternoon_only_day_keeps_the_fixed_morning():
    windows = dayparts_from_opening([(time(14), time(18))])

    assert windows["morning"] == FIXED_DAYPARTS["morning"]
    assert windows["afternoon"] == (time(14), time(18))


def test_a_daypart_closed_on_a_day_with_hours_is_its_closed_stretch_not_open_time():
    """A morning-only day (09–13): "the afternoon" is not the fixed 12–17 holding the 12:00
    morning slot, but 13:00–17:00, in which nothing is open."""
    windows = dayparts_from_opening([(time(9), time(13))])

    assert windows["afternoon"] == (time(13), time(17))
    assert windows["evening"] == FIXED_DAYPARTS["evening"]  # no open time overlaps it


def test_a_day_without_hours_reads_the_fixed_windows():
    assert dayparts_from_opening([]) == FIXED_DAYPARTS


def test_the_week_has_windows_only_for_the_days_with_hours():
    week = weekly_dayparts(
        [(4, time(15), time(19)), (4, time(9), time(13)), (0, time(9), time(17))]
    )

    assert set(week) == {0, 4}
    assert week[4]["afternoon"] == (time(15), time(19))
    assert week[0]["afternoon"] == (time(12), time(17))


@pytest.mark.parametrize(
    ("message", "language", "expected"),
    [
        ("el viernes por la tarde", "es", ("2026-11-27T15:00", "2026-11-27T19:00")),
        ("Friday afternoon", "en", ("2026-11-27T15:00", "2026-11-27T19:00")),
        ("el viernes por la mañana", "es", ("2026-11-27T09:00", "2026-11-27T13:00")),
        # Sunday has no hours: the fixed afternoon.
        ("el domingo por la tarde", "es", ("2026-11-29T12:00", "2026-11-29T17:00")),
    ],
)
def test_read_message_reads_a_daypart_in_that_days_opening_hours(message, language, expected):
    clinic_week = weekly_dayparts(
        (day, opens, closes) for day in range(5) for opens, closes in SPLIT
    )

    (request,) = read_message(
        message,
        now=MADRID_NOW,
        time_zone=MADRID_NOW.tzinfo,  # type: ignore[arg-type]
        country="ES",
        services=[],
        language=language,
        dayparts=clinic_week,
    ).times

    start, end = (datetime.fromisoformat(stamp + "+01:00") for stamp in expected)
    assert (request.start, request.end) == (start, end)


# --- wired through the conversation's facts ---------------------------------------------------


def clinic_conversation(*, hours: bool, language: str = "es") -> Conversation:
    clinic = cast(
        Business, BusinessFactory(time_zone="Europe/Madrid", country="ES", language=language)
    )
    if hours:
        for weekday in range(5):
            for opens, closes in SPLIT:
                OpeningHours.objects.create(
                    business=clinic, weekday=weekday, opens_at=opens, closes_at=closes
                )
    return Conversation.objects.create(business=clinic, token_hash=f"c{hours}", language=language)


def window(reading) -> tuple[str, str]:
    (request,) = reading.times
    return f"{request.start:%H:%M}", f"{request.end:%H:%M}"


@pytest.mark.django_db
def test_a_clinics_afternoon_is_its_afternoon_session():
    conversation = clinic_conversation(hours=True)

    reading = message_reading(conversation, "el viernes por la tarde", MADRID_NOW)

    assert window(reading) == ("15:00", "19:00")


@pytest.mark.django_db
def test_a_business_without_hours_reads_the_fixed_afternoon():
    conversation = clinic_conversation(hours=False)

    reading = message_reading(conversation, "el viernes por la tarde", MADRID_NOW)

    assert window(reading) == ("12:00", "17:00")


@pytest.mark.django_db
def test_the_message_is_read_in_the_conversations_language():
    conversation = clinic_conversation(hours=True, language="en")
    conversation.language = "es"
    conversation.save()

    assert message_reading(conversation, "mañana", MADRID_NOW).times
    assert not message_reading(conversation, "tomorrow", MADRID_NOW).times


@pytest.mark.django_db
def test_reading_the_opening_hours_costs_one_query_however_many_there_are():
    with_hours, without = clinic_conversation(hours=True), clinic_conversation(hours=False)

    def queries(conversation: Conversation) -> int:
        conversation.refresh_from_db()
        conversation.business.refresh_from_db()
        with CaptureQueriesContext(connection) as captured:
            message_reading(conversation, "el viernes por la tarde", MADRID_NOW)
        return len(captured)

    assert queries(with_hours) == queries(without)


def test_the_afternoon_of_a_morning_only_day_holds_no_morning_time():
    friday_mornings = weekly_dayparts([(4, time(9), time(13))])

    (request,) = read_message(
        "el viernes por la tarde",
        now=MADRID_NOW,
        time_zone=MADRID_NOW.tzinfo,  # type: ignore[arg-type]
        country="ES",
        services=[],
        language="es",
        dayparts=friday_mornings,
    ).times

    assert (f"{request.start:%H:%M}", f"{request.end:%H:%M}") == ("13:00", "17:00")
