"""The offline model reads Spanish: what a client of a Madrid clinic writes, read from the
Spanish reading table.

Given a clinic in Madrid (Spain) on Wednesday 25 November 2026 at 15:00, when a client writes
in Spanish — with or without accents — then ``read_message(language="es")`` reports the times,
contacts, money, intent, services, name and requests the message contains, as it does for an
English message; and the offline model reads "a person", "la primera" and "mi cita" in Spanish.
"""

from dataclasses import replace
from datetime import date, datetime
from decimal import Decimal
from functools import partial
from zoneinfo import ZoneInfo

import pytest

from agent.llm.base import ConversationView, ServiceFact, TurnContext
from agent.offline import Intent, Money, read_message
from agent.offline.model import OfflineModel

MADRID = ZoneInfo("Europe/Madrid")
NOW = datetime(2026, 11, 25, 15, 0, tzinfo=MADRID)  # a Wednesday, winter time (UTC+1)
SERVICES = [
    (1, "Fisioterapia"), (2, "Masaje deportivo"), (3, "Corte de pelo"), (4, "Depilación"),
    (5, "Manicura"),
]  # fmt: skip


def read(text: str, *, services=SERVICES, booked_on=None):
    return read_message(
        text,
        now=NOW,
        time_zone=MADRID,
        country="ES",
        services=services,
        language="es",
        booked_on=booked_on,
    )


def at(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp).replace(tzinfo=MADRID)


def spans(text: str) -> list[tuple[datetime, datetime | None]]:
    return [(req.start, None if req.exact else req.end) for req in read(text).times]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("hoy", [("2026-11-25 15:00", "2026-11-26 00:00")]),  # what is left of today
        ("mañana", [("2026-11-26 00:00", "2026-11-27 00:00")]),
        ("manana", [("2026-11-26 00:00", "2026-11-27 00:00")]),
        ("pasado mañana", [("2026-11-27 00:00", "2026-11-28 00:00")]),
        ("el jueves", [("2026-11-26 00:00", "2026-11-27 00:00")]),
        ("el miércoles", [("2026-12-02 00:00", "2026-12-03 00:00")]),  # today excluded
        ("este miércoles a las 6 de la tarde", [("2026-11-25 18:00", None)]),  # today
        ("el próximo viernes", [("2026-11-27 00:00", "2026-11-28 00:00")]),
        ("este viernes", [("2026-11-27 00:00", "2026-11-28 00:00")]),
        ("el 4 de diciembre", [("2026-12-04 00:00", "2026-12-05 00:00")]),
        ("4/12", [("2026-12-04 00:00", "2026-12-05 00:00")]),
        ("la semana que viene", [("2026-11-30 00:00", "2026-12-07 00:00")]),
        ("la próxima semana", [("2026-11-30 00:00", "2026-12-07 00:00")]),
        ("el martes de la semana que viene", [("2026-12-01 00:00", "2026-12-02 00:00")]),
        ("el fin de semana", [("2026-11-28 00:00", "2026-11-30 00:00")]),
        ("dentro de 3 días", [("2026-11-28 00:00", "2026-11-29 00:00")]),
        ("en 3 días", [("2026-11-28 00:00", "2026-11-29 00:00")]),
        ("el día 4", [("2026-12-04 00:00", "2026-12-05 00:00")]),
    ],
)  # fmt: skip
def test_spanish_days_are_read_in_the_business_zone(message, expected):
    want = [(at(start), at(end) if end else None) for start, end in expected]
    assert spans(message) == want


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # "mañana" alone is tomorrow; "por la mañana" is the morning, of the next day it is
        # still ahead (15:00 now: tomorrow).
        ("por la mañana", [("2026-11-26 09:00", "2026-11-26 12:00")]),
        ("mañana por la mañana", [("2026-11-26 09:00", "2026-11-26 12:00")]),
        ("el viernes por la manana", [("2026-11-27 09:00", "2026-11-27 12:00")]),
        ("por la tarde", [("2026-11-25 15:00", "2026-11-25 17:00")]),  # clipped to now
        ("mañana por la tarde", [("2026-11-26 12:00", "2026-11-26 17:00")]),
        ("por la noche", [("2026-11-25 17:00", "2026-11-25 20:00")]),
        ("a mediodía", [("2026-11-26 12:00", "2026-11-26 15:00")]),
        ("esta tarde", [("2026-11-25 15:00", "2026-11-25 17:00")]),
        ("esta noche", [("2026-11-25 17:00", "2026-11-25 20:00")]),
    ],
)  # fmt: skip
def test_spanish_dayparts_are_windows(message, expected):
    want = [(at(start), at(end)) for start, end in expected]
    assert spans(message) == want


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("a las 10", "2026-11-26 10:00"),  # 10:00 today has passed
        ("a las 10:30", "2026-11-26 10:30"),
        ("10:30", "2026-11-26 10:30"),
        ("a las 4", "2026-11-25 16:00"),  # business hours: 1–7 are the afternoon
        ("a las cuatro y media", "2026-11-25 16:30"),
        ("a las once", "2026-11-26 11:00"),
        ("a las cinco y cuarto", "2026-11-25 17:15"),
        ("a las seis menos cuarto", "2026-11-25 17:45"),
        ("a la una", "2026-11-26 13:00"),
        ("a las 17h", "2026-11-25 17:00"),
        ("a las 5 de la tarde", "2026-11-25 17:00"),
        ("a las 10 de la mañana", "2026-11-26 10:00"),  # the morning, not tomorrow's day
        ("a las 9 de la noche", "2026-11-25 21:00"),
        ("mañana a las 3", "2026-11-26 15:00"),
        ("el viernes a las 10 y media", "2026-11-27 10:30"),
        ("el jueves a las 12 del mediodía", "2026-11-26 12:00"),
        ("las 9 y media", "2026-11-26 09:30"),
    ],
)
def test_spanish_clock_times_are_exact(message, expected):
    assert spans(message) == [(at(expected), None)]


@pytest.mark.parametrize(
    ("message", "service_ids"),
    [
        ("quiero fisio", (1,)),
        ("una sesión de fisioterapia", (1,)),
        ("un masaje el viernes", (2,)),
        ("masajes", (2,)),
        ("quiero un corte", (3,)),
        ("Depilacion por favor", (4,)),
        ("depilación", (4,)),
        ("me quiero cortar el pelo", (3,)),
        ("hola", ()),
    ],
)
def test_spanish_services_are_matched_by_name_synonym_and_without_accents(message, service_ids):
    assert read(message).service_ids == service_ids


def test_a_service_name_without_accents_matches_a_message_with_them():
    assert read("una depilación", services=[(9, "Depilacion")]).service_ids == (9,)


@pytest.mark.parametrize(
    ("message", "intent"),
    [
        ("sí", Intent.YES), ("si", Intent.YES), ("Sí, perfecto", Intent.YES),
        ("vale", Intent.YES), ("de acuerdo", Intent.YES), ("perfecto", Intent.YES),
        ("claro", Intent.YES), ("genial", Intent.YES),
        ("confirmo", Intent.CONFIRM), ("confírmalo", Intent.CONFIRM),
        ("resérvalo", Intent.CONFIRM), ("sí, confirmo", Intent.CONFIRM),
        ("no", Intent.NO), ("no gracias", Intent.NO), ("no, gracias", Intent.NO),
        ("no quiero cancelar", Intent.NO),
        ("cancela", Intent.CANCEL), ("cancélala", Intent.CANCEL),
        ("quiero cancelar", Intent.CANCEL), ("quería cancelar mi cita", Intent.CANCEL),
        ("anula la cita", Intent.CANCEL),
        ("oye, no quiero cancelar", None),
        ("hola", None),
    ],
)  # fmt: skip
def test_spanish_answers_are_read_as_intents(message, intent):
    assert read(message).intent == intent


@pytest.mark.parametrize(
    ("message", "emails", "phones"),
    [
        ("mi correo es ana@x.es", ("ana@x.es",), ()),
        ("mi teléfono es 612 345 678", (), ("+34612345678",)),
        ("mi móvil: 612345678", (), ("+34612345678",)),
        ("el 4 de diciembre a las 10", (), ()),
    ],
)
def test_contacts_are_read_in_spanish_sentences(message, emails, phones):
    reading = read(message)
    assert (reading.emails, reading.phones) == (emails, phones)


def test_digits_given_as_a_phone_that_are_none_are_a_bad_phone():
    assert read("mi teléfono es 12").bad_phones == ("12",)


@pytest.mark.parametrize(
    ("message", "name"),
    [
        ("me llamo Ana Pérez", "Ana Pérez"),
        ("soy Ana Pérez", "Ana Pérez"),
        ("Ana Pérez", "Ana Pérez"),
        ("me llamo Lucía", "Lucía"),
        ("la tercera", None),
        ("soy el dueño", None),
        ("hola buenas", None),
        ("Gracias", None),
    ],
)
def test_names_are_read_with_their_spanish_leads(message, name):
    assert read(message).name == name


@pytest.mark.parametrize(
    ("message", "amounts"),
    [
        ("30 euros", [Money(Decimal("30"), "EUR")]),
        ("30€", [Money(Decimal("30"), "EUR")]),
        ("€30", [Money(Decimal("30"), "EUR")]),
        ("te doy 30", [Money(Decimal("30"), None)]),
        ("¿lo dejas en 40?", [Money(Decimal("40"), None)]),
        ("pago 35", [Money(Decimal("35"), None)]),
        ("¿me lo haces por 45?", [Money(Decimal("45"), None)]),
        ("a las 5 de la tarde", []),
        ("para 2 personas", []),
    ],
)
def test_spanish_price_offers_are_read_as_amounts(message, amounts):
    assert list(read(message).amounts) == amounts


@pytest.mark.parametrize(
    ("message", "money_back"),
    [
        ("devolución de 20 euros", [Money(Decimal("20"), "EUR")]),
        ("quiero que me devolváis el depósito", []),
        ("pagué 15€ de señal", [Money(Decimal("15"), "EUR")]),
    ],
)
def test_money_asked_back_is_no_price_offer(message, money_back):
    reading = read(message)
    assert (list(reading.money_back), reading.amounts) == (money_back, ())


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        ("quiero cancelar", {"cancel"}),
        ("anular mi cita", {"cancel"}),
        ("quiero cambiar la cita", {"move"}),
        ("¿se puede mover al jueves?", {"move"}),
        ("aplazar la cita", {"move"}),
        ("¿hay otro día?", {"move"}),
        ("mejor otra hora", {"move"}),
        ("cámbiala a las 12", {"move"}),
        ("pásala a las 12", {"move"}),
        ("quiero una devolución", {"refund"}),
        ("reembolso", {"refund"}),
        ("quiero que me devolváis el depósito", {"refund"}),
        ("devuélveme el dinero", {"refund"}),
        ("no quiero cancelar", set()),
        ("mi móvil es 612345678", set()),
        ("adelante", set()),
    ],
)
def test_a_returning_clients_spanish_requests_are_read(message, requests):
    assert read(message).requests == requests


def test_a_move_to_a_bare_hour_is_to_that_hour_of_the_booked_day():
    booked_on = date(2026, 11, 27)

    assert [r.start for r in read("pásala a las 12", booked_on=booked_on).times] == [
        at("2026-11-27 12:00")
    ]
    assert [r.start for r in read("muévela a 4", booked_on=booked_on).times] == [
        at("2026-11-27 16:00")
    ]


@pytest.mark.parametrize(
    "message",
    [
        "¿tenéis parking?", "tenéis parking", "¿Qué precio tiene?", "cuánto cuesta",
        "cuanto cuesta xfa", "¿dónde estáis?", "donde estais", "hay hueco el viernes",
        "se puede pagar con tarjeta", "puedo ir a las 5", "¿mañana a las 10?",
        "el viernes o el sábado", "me podéis decir el horario", "cómo llego", "¿mañana a las 10",
    ],
)  # fmt: skip
def test_a_spanish_question_is_never_routine(message):
    reading = read(message)
    assert reading.is_question
    assert not reading.is_routine


@pytest.mark.parametrize(
    "message",
    [
        "Ana Pérez", "me llamo Lucía", "ana@x.es", "mi correo es ana@x.es", "612 345 678",
        "mi teléfono es 612 345 678", "sí", "vale", "no gracias", "confirmo", "a las 10",
        "mañana a las 11 por favor", "el viernes a las 10, gracias", "el jueves por la tarde",
    ],
)  # fmt: skip
def test_a_bare_spanish_answer_is_routine(message):
    assert read(message).is_routine


@pytest.mark.parametrize(
    "message",
    [
        "quiero fisio",
        "30 euros",
        "dueño",
        "mañana a las 10 pero llegaré tarde",
        "vale, y el parking",
    ],
)
def test_anything_else_in_spanish_is_not_routine(message):
    assert not read(message).is_routine


def test_a_language_without_a_reading_table_is_refused():
    with pytest.raises(ValueError, match="reading table"):
        read_message("bonjour", now=NOW, time_zone=MADRID, country="FR", services=[], language="fr")


# --- what the offline model reads in the message itself ---------------------------------------

CORTE = ServiceFact(id=3, name="Corte de pelo", minutes=30, price=Decimal("20"), currency="EUR")
FRIDAY_TEN, FRIDAY_ELEVEN, FRIDAY_NOON = (at(f"2026-11-27 {hour}:00") for hour in (10, 11, 12))


def spanish_turn(message: str, **view) -> TurnContext:
    conversation = ConversationView(
        state="offering",
        service=CORTE,
        offered=(FRIDAY_TEN, FRIDAY_ELEVEN, FRIDAY_NOON),
        missing=("name",),
    )
    return TurnContext(
        business="Clínica Sol",
        time_zone="Europe/Madrid",
        language="es",
        currency="EUR",
        now=NOW,
        services=(CORTE,),
        conversation=replace(conversation, **view),
        message=message,
        reading=read(message, services=[(3, "Corte de pelo")]),
        actions=("offer_slots", "hold_slot", "collect_contact", "escalate_to_human"),
        history=(),
        knowledge="",
    )


@pytest.mark.parametrize(
    ("message", "start"),
    [
        ("la primera", FRIDAY_TEN), ("el primero", FRIDAY_TEN), ("la segunda", FRIDAY_ELEVEN),
        ("la tercera", FRIDAY_NOON), ("la última", FRIDAY_NOON), ("la opción 2", FRIDAY_ELEVEN),
        ("Opción 3 por favor", FRIDAY_NOON),
    ],
)  # fmt: skip
def test_a_spanish_pick_holds_that_offered_time(message, start):
    proposed = OfflineModel().propose(spanish_turn(message))

    assert proposed.proposals == (
        {"action": "hold_slot", "service": "3", "start": start.isoformat()},
    )


@pytest.mark.parametrize(
    "message",
    ["quiero hablar con una persona", "un humano, por favor", "hablar con alguien",
     "¿puedo hablar con el encargado?", "pásame con atención al cliente"],
)  # fmt: skip
def test_asking_in_spanish_for_a_person_escalates(message):
    proposed = OfflineModel().propose(spanish_turn(message))

    assert [step["action"] for step in proposed.proposals] == ["escalate_to_human"]


def test_a_table_for_one_person_is_no_ask_for_a_person():
    proposed = OfflineModel().propose(spanish_turn("una cita para una persona"))

    assert "escalate_to_human" not in [step["action"] for step in proposed.proposals]


def test_a_pick_names_no_service_even_one_whose_name_starts_with_it():
    """'la primera' picks the first time offered; it is not the clinic's 'Primera consulta'."""
    services = [(1, "Fisioterapia"), (2, "Primera consulta")]
    read = partial(read_message, now=NOW, time_zone=MADRID, country="ES", language="es")

    assert read("la primera", services=services).service_ids == ()
    assert read("quería una primera consulta", services=services).service_ids == (2,)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("el 27 a las 10", [("2026-11-27 10:00", None)]),
        ("el 3 por la tarde", [("2026-12-03 12:00", "2026-12-03 17:00")]),
        ("¿me la puede pasar al 3 a las 10?", [("2026-12-03 10:00", None)]),
        ("a las 10 del 2", [("2026-12-02 10:00", None)]),
        ("el 2", [("2026-12-02 00:00", "2026-12-03 00:00")]),
        # Hours and counts are not days of the month.
        ("a las 3", [("2026-11-26 15:00", None)]),
        ("el 3 de la tarde", [("2026-11-25 15:00", "2026-11-25 17:00")]),
        ("el 45", []),
    ],
)
def test_a_bare_day_of_the_month_is_the_next_such_day(message, expected):
    assert spans(message) == [(at(start), end and at(end)) for start, end in expected]


def test_a_bare_day_of_the_month_is_the_day_a_booking_moves_to():
    [moved] = read("cámbiala al 30 a las 11", booked_on=date(2026, 11, 27)).times

    assert (moved.start, moved.exact) == (at("2026-11-30 11:00"), True)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("a las 2:30 de la tarde", "2026-11-26 14:30"),
        ("a las 5:30 de la tarde", "2026-11-25 17:30"),
        ("mañana a las 7:30 de la tarde", "2026-11-26 19:30"),
        ("pásala a las 5:30 de la tarde", "2026-11-25 17:30"),
        ("a las 9:15 de la noche", "2026-11-25 21:15"),
        ("mañana a las 11:45 de la mañana", "2026-11-26 11:45"),
        ("a las 12.30", "2026-11-26 12:30"),
        ("mañana a las 5.30 de la tarde", "2026-11-26 17:30"),
    ],
)
def test_the_half_of_the_day_after_hours_and_minutes_says_which_half(message, expected):
    assert spans(message) == [(at(expected), None)]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("¿tienen algo antes de las 12?", [("2026-11-26 00:00", "2026-11-26 12:00")]),
        ("el viernes antes de las 10:30", [("2026-11-27 00:00", "2026-11-27 10:30")]),
        ("el viernes hasta las 11", [("2026-11-27 00:00", "2026-11-27 11:00")]),
        ("el viernes después de las 10", [("2026-11-27 10:00", "2026-11-28 00:00")]),
        ("el viernes a partir de las 11", [("2026-11-27 11:00", "2026-11-28 00:00")]),
        ("a partir de las 5 de la tarde", [("2026-11-25 17:00", "2026-11-26 00:00")]),
        # "Until 11 I can't" is after 11.
        ("el viernes hasta las 11 no puedo", [("2026-11-27 11:00", "2026-11-28 00:00")]),
        # A time said not to suit is not asked for: the day is.
        ("el viernes, pero no a las 10", [("2026-11-27 00:00", "2026-11-28 00:00")]),
        ("el viernes a las 10", [("2026-11-27 10:00", None)]),
    ],
)
def test_a_boundary_is_a_window_on_its_day_and_a_refused_time_is_not_asked_for(message, expected):
    assert spans(message) == [(at(start), end and at(end)) for start, end in expected]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("el miércoles 2 de diciembre a las 10", [("2026-12-02 10:00", None)]),
        ("el domingo 28 de marzo", [("2027-03-28 00:00", "2027-03-29 00:00")]),
        ("el lunes 30/11", [("2026-11-30 00:00", "2026-12-01 00:00")]),
    ],
)
def test_a_weekday_before_a_date_is_that_dates_not_another_day(message, expected):
    assert spans(message) == [(at(start), end and at(end)) for start, end in expected]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("las 2:30 por la tarde", "2026-11-26 14:30"),
        ("a las 9 por la noche", "2026-11-25 21:00"),
        ("mañana a las 10 por la mañana", "2026-11-26 10:00"),
    ],
)
def test_por_la_tarde_after_a_clock_says_its_half_of_the_day(message, expected):
    assert spans(message) == [(at(expected), None)]


def test_asking_for_it_to_be_passed_to_a_day_is_a_move_to_that_day():
    reading = read("¿me la puede pasar al 3 a las 10?", booked_on=date(2026, 11, 27))

    assert reading.requests == frozenset({"move"})
    assert [(each.start, each.exact) for each in reading.times] == [(at("2026-12-03 10:00"), True)]


def test_from_one_clock_until_another_is_one_window_between_them():
    assert spans("el viernes desde las 10 hasta las 12") == [
        (at("2026-11-27 10:00"), at("2026-11-27 12:00"))
    ]
