"""The offline model's reading of client messages: what each message contains, nothing decided.

Given a business in Lisbon (Portugal) on Wednesday 25 November 2026 at 15:00, when a client
writes a message, then ``read_message`` reports the times, contacts, money, intent, service and
name it contains — as aware datetimes in the business's zone.
"""

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from agent.offline import Intent, Money, read_message

LISBON = ZoneInfo("Europe/Lisbon")
NOW = datetime(2026, 11, 25, 15, 0, tzinfo=LISBON)  # a Wednesday, winter time (UTC+0)
SERVICES = [(1, "Haircut"), (2, "Beard trim"), (3, "Manicure"), (4, "Coloração"), (5, "Pedicure")]


def read(text: str, *, now: datetime = NOW, country: str = "PT", zone: ZoneInfo = LISBON):
    return read_message(text, now=now, time_zone=zone, country=country, services=SERVICES)


def at(stamp: str, zone: ZoneInfo = LISBON) -> datetime:
    return datetime.fromisoformat(stamp).replace(tzinfo=zone)


def spans(text: str) -> list[tuple[datetime, datetime | None]]:
    return [(req.start, None if req.exact else req.end) for req in read(text).times]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("tomorrow afternoon", [("2026-11-26 12:00", "2026-11-26 17:00")]),
        ("next Tuesday at 3pm", [("2026-12-01 15:00", None)]),
        ("on the 3rd", [("2026-12-03 00:00", "2026-12-04 00:00")]),
        ("Friday morning", [("2026-11-27 09:00", "2026-11-27 12:00")]),
        ("3 December at 14:30", [("2026-12-03 14:30", None)]),
        ("December 3rd at 2:30pm", [("2026-12-03 14:30", None)]),
        ("any time next week", [("2026-11-30 00:00", "2026-12-07 00:00")]),
        ("tomorrow at 10:00", [("2026-11-26 10:00", None)]),
        ("is Friday 3pm free?", [("2026-11-27 15:00", None)]),
        ("friday evening please", [("2026-11-27 17:00", "2026-11-27 20:00")]),
        ("tonight?", [("2026-11-25 17:00", "2026-11-25 20:00")]),
        ("this afternoon", [("2026-11-25 15:00", "2026-11-25 17:00")]),  # clipped to now
        ("3pm", [("2026-11-26 15:00", None)]),  # 15:00 today has begun: tomorrow
        ("at 4", [("2026-11-25 16:00", None)]),  # "at 4" in business hours is 16:00
        ("at 10", [("2026-11-26 10:00", None)]),
        ("14h30", [("2026-11-26 14:30", None)]),
        ("tmrw at 5pm", [("2026-11-26 17:00", None)]),
        ("tomorow at 5", [("2026-11-26 17:00", None)]),
        ("sunday at 10", [("2026-11-29 10:00", None)]),
        ("wednesday", [("2026-12-02 00:00", "2026-12-03 00:00")]),  # today excluded
        ("this wednesday at 6pm", [("2026-11-25 18:00", None)]),
        ("tuesday next week", [("2026-12-01 00:00", "2026-12-02 00:00")]),
        ("the day after tomorrow at noon", [("2026-11-27 12:00", None)]),
        ("in 3 days", [("2026-11-28 00:00", "2026-11-29 00:00")]),
        ("19/12 at 11am", [("2026-12-19 11:00", None)]),
        ("5 jan morning", [("2027-01-05 09:00", "2027-01-05 12:00")]),
        ("the 2nd", [("2026-12-02 00:00", "2026-12-03 00:00")]),
        ("monday or tuesday afternoon", [
            ("2026-11-30 12:00", "2026-11-30 17:00"), ("2026-12-01 12:00", "2026-12-01 17:00"),
        ]),
        ("tomorrow at 3 or 4pm", [("2026-11-26 15:00", None), ("2026-11-26 16:00", None)]),
        ("I can pay 75 at 3pm tomorrow", [("2026-11-26 15:00", None)]),
        ("Can I come thursday at 9.30am", [("2026-11-26 09:30", None)]),
        ("this weekend", [("2026-11-28 00:00", "2026-11-30 00:00")]),
        ("my number is 912 345 678", []),
        ("can you do 75?", []),
        ("$75.50", []),
        ("hello", []),
    ],
)  # fmt: skip
def test_requested_times_are_read_in_the_business_zone(message, expected):
    want = [(at(start), at(end) if end else None) for start, end in expected]
    assert spans(message) == want


def test_a_wall_time_the_day_after_spring_forward_is_summer_time():
    eve_of_spring_forward = datetime(2027, 3, 27, 18, 0, tzinfo=LISBON)

    (request,) = read("tomorrow at 10:00", now=eve_of_spring_forward).times

    assert request.start == at("2027-03-28 10:00")
    assert request.start.utcoffset() == timedelta(hours=1)  # 10:00 WEST is 09:00 UTC
    assert request.start.tzname() == "WEST"


def test_a_wall_time_the_day_after_fall_back_is_winter_time():
    eve_of_fall_back = datetime(2026, 10, 24, 18, 0, tzinfo=LISBON)

    (request,) = read("tomorrow afternoon", now=eve_of_fall_back).times

    assert request.start.utcoffset() == timedelta(0)
    assert request.end - request.start == timedelta(hours=5)


def test_a_skipped_wall_time_moves_forward_out_of_the_gap():
    eve_of_spring_forward = datetime(2027, 3, 27, 18, 0, tzinfo=LISBON)

    (request,) = read("tomorrow at 1:30am", now=eve_of_spring_forward).times

    assert request.start == datetime(2027, 3, 28, 1, 30, tzinfo=UTC)
    assert (request.start.hour, request.start.minute, request.start.tzname()) == (2, 30, "WEST")


@pytest.mark.parametrize(
    ("message", "emails"),
    [
        ("ana@example.com", ("ana@example.com",)),
        ("my email is Ana.Silva+spa@mail.example.pt.", ("ana.silva+spa@mail.example.pt",)),
        ("email: joao@exemplo.pt thanks", ("joao@exemplo.pt",)),
        ("ana@example", ()),
        ("ana@@example.com", ()),
        ("reach me at a@b.co or c@d.io", ("a@b.co", "c@d.io")),
    ],
)
def test_emails_are_read_and_validated(message, emails):
    assert read(message).emails == emails


@pytest.mark.parametrize(
    ("message", "country", "phones"),
    [
        ("my number is 912 345 678", "PT", ("+351912345678",)),
        ("912345678", "PT", ("+351912345678",)),
        ("+351 912 345 678", "PT", ("+351912345678",)),
        ("call me on 00351 213 456 789", "PT", ("+351213456789",)),
        ("(415) 555-2671", "US", ("+14155552671",)),
        ("+44 7911 123456 please", "PT", ("+447911123456",)),
        ("I can pay 75 at 3pm tomorrow", "PT", ()),
        ("3 December at 14:30", "PT", ()),
        ("12345", "PT", ()),
    ],
)
def test_phone_numbers_are_normalised_to_e164_in_the_business_country(message, country, phones):
    assert read(message, country=country).phones == phones


@pytest.mark.parametrize(
    ("message", "amounts"),
    [
        ("can you do 75?", [("75", None)]),
        ("€80", [("80", "EUR")]),
        ("80 euros", [("80", "EUR")]),
        ("$75.50", [("75.50", "USD")]),
        ("how about 60€", [("60", "EUR")]),
        ("I can pay 75 at 3pm tomorrow", [("75", None)]),
        ("would you take 70,50 eur", [("70.50", "EUR")]),
        ("my budget is £40", [("40", "GBP")]),
        ("tomorrow at 3", []),
        ("I can do 2 people at 3", []),
        ("its for 2", []),
        ("the 3rd at 4pm", []),
        ("my number is 912 345 678", []),
    ],
)
def test_money_amounts_are_read_as_decimals_with_an_optional_currency(message, amounts):
    assert list(read(message).amounts) == [Money(Decimal(a), c) for a, c in amounts]


@pytest.mark.parametrize(
    ("message", "intent"),
    [
        ("yes", Intent.YES),
        ("Sure!", Intent.YES),
        ("ok", Intent.YES),
        ("Yes please, tomorrow at 3", Intent.YES),
        ("sounds good", Intent.YES),
        ("Confirm", Intent.CONFIRM),
        ("confirm.", Intent.CONFIRM),
        ("book it", Intent.CONFIRM),
        ("no", Intent.NO),
        ("Nope", Intent.NO),
        ("no thanks", Intent.NO),
        ("cancel", Intent.CANCEL),
        ("I need to cancel my appointment", Intent.CANCEL),
        ("is it ok to bring my kid?", None),
        ("nothing else", None),
        ("Ana Silva", None),
    ],
)
def test_yes_no_confirm_and_cancel_are_read(message, intent):
    assert read(message).intent == intent


@pytest.mark.parametrize(
    ("message", "service_ids"),
    [
        ("I'd like a haircut", (1,)),
        ("two HAIRCUTS please", (1,)),
        ("beard trim tomorrow", (2,)),
        ("do you do beards?", (2,)),
        ("coloracao", (4,)),
        ("Coloração on friday", (4,)),
        ("manicure and pedicure", (3, 5)),
        ("a massage", ()),
    ],
)
def test_services_are_matched_by_their_names_without_case_accents_or_plurals(message, service_ids):
    assert read(message).service_ids == service_ids


@pytest.mark.parametrize(
    ("message", "name"),
    [
        ("Ana Silva", "Ana Silva"),
        ("ana silva", "Ana Silva"),
        ("João Pereira-Santos", "João Pereira-Santos"),
        ("my name is maria d'almeida", "Maria D'almeida"),
        ("Ana", "Ana"),
        ("parking", None),
        ("I'm late", None),
        ("Late", None),
        ("I'm Beatriz", "Beatriz"),
        ("hello there", None),
        ("Ana Silva, tomorrow at 3", None),
        ("Friday", None),
        ("Haircut", None),
        ("yes", None),
    ],
)
def test_a_bare_name_is_read_only_when_the_message_is_only_a_name(message, name):
    assert read(message).name == name


# --- a move to a time, with a booking made -------------------------------------------------------

FRIDAY = date(2026, 11, 27)  # the booking's day


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("can we move it to 12 instead?", "2026-11-27T12:00"),
        ("can we move it to 12:00 instead?", "2026-11-27T12:00"),
        ("move it to 4 please", "2026-11-27T16:00"),
        ("could I reschedule to 9:30?", "2026-11-27T09:30"),
        ("move it to Saturday at 11", "2026-11-28T11:00"),  # a day named is that day
    ],
)
def test_a_move_to_a_time_with_no_day_is_on_the_bookings_day(text, expected):
    reading = read_message(
        text, now=NOW, time_zone=LISBON, country="PT", services=SERVICES, booked_on=FRIDAY
    )

    assert [(req.start, req.exact) for req in reading.times] == [(at(expected), True)]


@pytest.mark.parametrize(
    "text", ["a table to 4", "can we move it to 12 instead?", "from 2 to 4 people"]
)
def test_a_bare_hour_after_to_is_no_time_without_a_booking_being_moved(text):
    assert read(text).times == ()


def test_a_bare_hour_after_to_is_no_time_when_the_booking_is_not_being_moved():
    reading = read_message(
        "we'll be 2 to 4 people",
        now=NOW,
        time_zone=LISBON,
        country="PT",
        services=SERVICES,
        booked_on=FRIDAY,
    )
    assert reading.times == ()


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("friday after 10am", [("2026-11-27 10:00", "2026-11-28 00:00")]),
        ("friday before noon", [("2026-11-27 00:00", "2026-11-27 12:00")]),
        ("friday until 11am", [("2026-11-27 00:00", "2026-11-27 11:00")]),
        ("friday until 11am i can't", [("2026-11-27 11:00", "2026-11-28 00:00")]),
        ("friday but not at 10", [("2026-11-27 00:00", "2026-11-28 00:00")]),
        ("friday at 10", [("2026-11-27 10:00", None)]),
    ],
)
def test_a_boundary_is_a_window_on_its_day_and_a_refused_time_is_not_asked_for(message, expected):
    assert spans(message) == [(at(start), end and at(end)) for start, end in expected]


def test_a_weekday_before_a_date_is_that_dates_not_another_day():
    assert spans("Friday, 4 December at 10am") == [(at("2026-12-04 10:00"), None)]


def test_from_one_clock_until_another_is_one_window_between_them():
    assert spans("friday from 9am until 11am") == [(at("2026-11-27 09:00"), at("2026-11-27 11:00"))]
