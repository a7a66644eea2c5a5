"""Every database constraint of the booking models, checked twice where it matters:

* straight to the database (ORM create/update without ``full_clean``): PostgreSQL itself refuses
  the row, naming the constraint, so no writer (a script, a task, a bug) can store it;
* through the dashboard: the admin form refuses it with the constraint's own message and
  writes nothing.
"""

import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.urls import reverse

from bookings.models import (
    Appointment,
    Business,
    BusyBlock,
    Client,
    DateOverride,
    Membership,
    OpeningHours,
    Role,
    Service,
)
from tests.admin_forms import add_inline_rows, datetime_fields, form_errors, page_data
from tests.factories import (
    AppointmentFactory,
    BusinessFactory,
    BusyBlockFactory,
    ClientFactory,
    DateOverrideFactory,
    MembershipFactory,
    OpeningHoursFactory,
    ServiceFactory,
    UserFactory,
    owner_of,
)

pytestmark = pytest.mark.django_db

D = Decimal
CHRISTMAS = dt.date(2026, 12, 25)
NOON = dt.datetime(2026, 12, 2, 12, tzinfo=dt.UTC)


def refused_by_database(constraint: str):
    """Expect PostgreSQL to refuse the write, naming ``constraint`` in its error."""
    return pytest.raises(IntegrityError, match=f'"{constraint}"')


def changed_fields(instance, **fields):
    """Write ``fields`` to ``instance``'s row with a queryset update: no model code runs."""
    type(instance).objects.filter(pk=instance.pk).update(**fields)


# --- services ---------------------------------------------------------------------------------

BAD_SERVICES = [
    pytest.param(
        {"price_floor": D("60.01")},
        "service_floor_at_most_list_price",
        id="floor above list price",
    ),
    pytest.param({"price_floor": D("-0.01")}, "service_floor_not_negative", id="negative floor"),
    pytest.param(
        {"deposit_amount": D("60.01")},
        "service_deposit_within_list_price",
        id="deposit above list price",
    ),
    pytest.param(
        {"deposit_amount": D("-1.00")}, "service_deposit_within_list_price", id="negative deposit"
    ),
    pytest.param({"duration_minutes": 4}, "service_duration_5_to_720_minutes", id="duration 4"),
    pytest.param({"duration_minutes": 721}, "service_duration_5_to_720_minutes", id="duration 721"),
    pytest.param({"duration_minutes": 0}, "service_duration_5_to_720_minutes", id="duration zero"),
    pytest.param(
        {"buffer_before_minutes": 241},
        "service_buffers_at_most_240_minutes",
        id="buffer before 241",
    ),
    pytest.param(
        {"buffer_after_minutes": 241},
        "service_buffers_at_most_240_minutes",
        id="buffer after 241",
    ),
]


@pytest.mark.parametrize(("bad", "constraint"), BAD_SERVICES)
def test_bad_service_is_refused_by_the_database_on_insert(bad, constraint):
    # Given a business (list price 60.00, floor 50.00 unless the case says otherwise)
    business = BusinessFactory()

    # When a service breaking a rule is inserted without validation
    # Then the database refuses it and nothing is stored
    with refused_by_database(constraint), transaction.atomic():
        ServiceFactory(business=business, **bad)
    assert not Service.objects.exists()


@pytest.mark.parametrize(("bad", "constraint"), BAD_SERVICES)
def test_bad_service_is_refused_by_the_database_on_update(bad, constraint):
    # Given a valid service
    service = ServiceFactory(list_price=D("60.00"), price_floor=D("50.00"))

    # When a queryset update breaks a rule
    # Then the database refuses it and the row keeps its values
    with refused_by_database(constraint), transaction.atomic():
        changed_fields(service, **bad)
    service.refresh_from_db()
    assert (service.list_price, service.price_floor, service.duration_minutes) == (
        D("60.00"),
        D("50.00"),
        45,
    )


def test_service_price_lowered_below_floor_by_save_is_refused_by_the_database():
    # Given a service priced 60.00 with a floor of 50.00
    service = ServiceFactory(list_price=D("60.00"), price_floor=D("50.00"))

    # When the list price is lowered under the floor and saved without full_clean
    service.list_price = D("49.99")

    # Then the database refuses it
    with refused_by_database("service_floor_at_most_list_price"), transaction.atomic():
        service.save()


@pytest.mark.parametrize(
    "edge",
    [
        pytest.param({"price_floor": D("60.00")}, id="floor equal to list price"),
        pytest.param({"price_floor": D("0.00")}, id="zero floor"),
        pytest.param({"deposit_amount": D("60.00")}, id="deposit equal to list price"),
        pytest.param({"deposit_amount": D("0.00")}, id="zero deposit"),
        pytest.param({"duration_minutes": 5}, id="duration 5"),
        pytest.param({"duration_minutes": 720}, id="duration 720"),
        pytest.param({"buffer_before_minutes": 240, "buffer_after_minutes": 240}, id="buffers 240"),
    ],
)
def test_service_at_the_edge_of_a_rule_is_accepted_by_the_database(edge):
    ServiceFactory(list_price=D("60.00"), **edge)

    assert Service.objects.count() == 1


def test_duplicate_service_name_in_a_business_is_refused_by_the_database():
    service = ServiceFactory(name="Haircut")

    with refused_by_database("service_unique_name_per_business"), transaction.atomic():
        ServiceFactory(business=service.business, name="Haircut")


def test_same_service_name_in_another_business_is_accepted_by_the_database():
    ServiceFactory(name="Haircut")
    ServiceFactory(name="Haircut")

    assert Service.objects.filter(name="Haircut").count() == 2


def post_new_service(http, business, **fields):
    add_url = reverse("admin:bookings_service_add")
    data = page_data(http.get(add_url))
    data.update(
        business=str(business.pk),
        name="Colour",
        duration_minutes="60",
        list_price="80.00",
        price_floor="70.00",
    )
    data.update(fields)
    return http.post(add_url, data)


def test_service_form_accepts_a_valid_service(login):
    # The control for the refusals below: the same post, with nothing wrong, is saved.
    business = BusinessFactory()
    http = login(owner_of(business))

    response = post_new_service(http, business)

    assert response.status_code == 302
    assert Service.objects.get().price_floor == D("70.00")


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        pytest.param(
            {"price_floor": "80.01"},
            "The price floor cannot be above the list price.",
            id="floor above list price",
        ),
        pytest.param(
            {"price_floor": "-1.00"}, "The price floor cannot be negative.", id="negative floor"
        ),
        pytest.param(
            {"deposit_amount": "90.00"},
            "The deposit must be between 0 and the list price.",
            id="deposit above list price",
        ),
        pytest.param(
            {"duration_minutes": "4"},
            "A service lasts between 5 and 720 minutes.",
            id="duration too short",
        ),
        pytest.param(
            {"duration_minutes": "721"},
            "A service lasts between 5 and 720 minutes.",
            id="duration too long",
        ),
        pytest.param(
            {"buffer_after_minutes": "241"},
            "A buffer may be at most 240 minutes.",
            id="buffer too long",
        ),
    ],
)
def test_service_form_refuses_a_bad_service_with_the_constraint_message(login, bad, message):
    # Given an owner signed in to the dashboard
    business = BusinessFactory()
    http = login(owner_of(business))

    # When they add a service breaking a rule
    response = post_new_service(http, business, **bad)

    # Then the form is shown again with the rule's message, and nothing is saved
    assert response.status_code == 200
    assert message in form_errors(response)
    assert not Service.objects.exists()


def test_service_form_refuses_a_duplicate_name_in_the_same_business(login):
    business = BusinessFactory()
    ServiceFactory(business=business, name="Colour")
    http = login(owner_of(business))

    response = post_new_service(http, business, name="Colour")

    assert response.status_code == 200
    assert "This business already has a service with that name." in form_errors(response)
    assert Service.objects.count() == 1


# --- businesses -------------------------------------------------------------------------------

BAD_BUSINESSES = [
    pytest.param({"capacity": 0}, "business_capacity_at_least_one", id="capacity 0"),
    pytest.param({"slot_interval_minutes": 4}, "business_slot_interval_5_to_240", id="slot 4"),
    pytest.param({"slot_interval_minutes": 241}, "business_slot_interval_5_to_240", id="slot 241"),
    pytest.param({"booking_horizon_days": 0}, "business_horizon_1_to_730_days", id="horizon 0"),
    pytest.param({"booking_horizon_days": 731}, "business_horizon_1_to_730_days", id="horizon 731"),
    pytest.param({"hold_minutes": 0}, "business_hold_1_to_120_minutes", id="hold 0"),
    pytest.param({"hold_minutes": 121}, "business_hold_1_to_120_minutes", id="hold 121"),
    pytest.param({"max_refund": D("-0.01")}, "business_max_refund_not_negative", id="max refund"),
    pytest.param({"currency": "eur"}, "business_currency_iso_code", id="lowercase currency"),
    pytest.param({"currency": "EU"}, "business_currency_iso_code", id="2-letter currency"),
    pytest.param({"currency": "E1R"}, "business_currency_iso_code", id="currency with digit"),
    pytest.param({"country": "pt"}, "business_country_iso_code", id="lowercase country"),
    pytest.param({"country": "P"}, "business_country_iso_code", id="1-letter country"),
    pytest.param({"country": "P1"}, "business_country_iso_code", id="country with digit"),
]

DEPOSIT_RULE = "business_deposit_rule_consistent"
# The three shapes a deposit rule may take, each broken in every way a row can break it.
BAD_DEPOSIT_RULES = [
    pytest.param({"deposit_rule": "none", "deposit_amount": D("10.00")}, id="none with amount"),
    pytest.param({"deposit_rule": "none", "deposit_percent": 20}, id="none with percent"),
    pytest.param({"deposit_rule": "fixed", "deposit_amount": D("0.00")}, id="fixed zero"),
    pytest.param({"deposit_rule": "fixed", "deposit_amount": D("-5.00")}, id="fixed negative"),
    pytest.param(
        {"deposit_rule": "fixed", "deposit_amount": D("10.00"), "deposit_percent": 20},
        id="fixed with percent",
    ),
    pytest.param({"deposit_rule": "percent", "deposit_percent": 0}, id="percent 0"),
    pytest.param({"deposit_rule": "percent", "deposit_percent": 101}, id="percent 101"),
    pytest.param(
        {"deposit_rule": "percent", "deposit_percent": 20, "deposit_amount": D("10.00")},
        id="percent with amount",
    ),
    pytest.param({"deposit_rule": "bogus"}, id="unknown rule"),
]
# A missing amount or percent makes a bare comparison NULL, and a CHECK whose condition is NULL
# passes; the constraint spells out IS NOT NULL so these are refused too.
BAD_DEPOSIT_RULES_WITH_NULLS = [
    pytest.param({"deposit_rule": "fixed"}, id="fixed without amount"),
    pytest.param({"deposit_rule": "percent"}, id="percent without percent"),
]


@pytest.mark.parametrize(("bad", "constraint"), BAD_BUSINESSES)
def test_bad_business_is_refused_by_the_database_on_insert(bad, constraint):
    with refused_by_database(constraint), transaction.atomic():
        BusinessFactory(**bad)
    assert not Business.objects.exists()


@pytest.mark.parametrize(("bad", "constraint"), BAD_BUSINESSES)
def test_bad_business_is_refused_by_the_database_on_update(bad, constraint):
    business = BusinessFactory()

    with refused_by_database(constraint), transaction.atomic():
        changed_fields(business, **bad)


@pytest.mark.parametrize("bad", BAD_DEPOSIT_RULES)
def test_inconsistent_deposit_rule_is_refused_by_the_database(bad):
    with refused_by_database(DEPOSIT_RULE), transaction.atomic():
        BusinessFactory(**bad)
    assert not Business.objects.exists()


@pytest.mark.parametrize("bad", BAD_DEPOSIT_RULES_WITH_NULLS)
def test_deposit_rule_missing_its_value_is_refused_by_the_database(bad):
    with refused_by_database(DEPOSIT_RULE), transaction.atomic():
        BusinessFactory(**bad)


@pytest.mark.parametrize(
    "rule",
    [
        pytest.param({"deposit_rule": "none"}, id="none"),
        pytest.param({"deposit_rule": "fixed", "deposit_amount": D("0.01")}, id="fixed"),
        pytest.param({"deposit_rule": "percent", "deposit_percent": 1}, id="percent 1"),
        pytest.param({"deposit_rule": "percent", "deposit_percent": 100}, id="percent 100"),
    ],
)
def test_consistent_deposit_rule_is_accepted_by_the_database(rule):
    BusinessFactory(**rule)

    assert Business.objects.count() == 1


@pytest.mark.parametrize(
    "edge",
    [
        pytest.param({"capacity": 1}, id="capacity 1"),
        pytest.param({"slot_interval_minutes": 5}, id="slot 5"),
        pytest.param({"slot_interval_minutes": 240}, id="slot 240"),
        pytest.param({"booking_horizon_days": 730}, id="horizon 730"),
        pytest.param({"hold_minutes": 120}, id="hold 120"),
        pytest.param({"max_refund": D("0.00")}, id="max refund 0"),
    ],
)
def test_business_at_the_edge_of_a_rule_is_accepted_by_the_database(edge):
    BusinessFactory(**edge)

    assert Business.objects.count() == 1


def business_change_page(http, business):
    url = reverse("admin:bookings_business_change", args=[business.pk])
    return url, http.get(url)


def test_business_change_form_has_the_schedule_inlines(login):
    # The inline prefixes the tests below post under are the models' related names. The weekly
    # hours have a page of their own (tests/bookings/dashboard/test_hours_grid.py).
    business = BusinessFactory()
    http = login(owner_of(business))

    _, page = business_change_page(http, business)

    prefixes = [inline.formset.prefix for inline in page.context["inline_admin_formsets"]]
    assert prefixes == ["date_overrides", "reminder_settings"]


def test_business_change_form_saves_its_own_unchanged_data(login):
    # The control for the refusals below: posting the page back unchanged succeeds.
    business = BusinessFactory(capacity=2)
    OpeningHoursFactory(business=business)
    DateOverrideFactory(business=business)
    http = login(owner_of(business))
    url, page = business_change_page(http, business)

    response = http.post(url, page_data(page))

    assert response.status_code == 302
    business.refresh_from_db()
    assert business.capacity == 2
    assert OpeningHours.objects.count() == DateOverride.objects.count() == 1


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        pytest.param({"capacity": "0"}, "Capacity must be at least 1.", id="capacity 0"),
        pytest.param(
            {"slot_interval_minutes": "241"},
            "The slot interval must be between 5 and 240 minutes.",
            id="slot 241",
        ),
        pytest.param(
            {"slot_interval_minutes": "4"},
            "The slot interval must be between 5 and 240 minutes.",
            id="slot 4",
        ),
        pytest.param(
            {"booking_horizon_days": "731"},
            "The booking horizon must be between 1 and 730 days.",
            id="horizon 731",
        ),
        pytest.param(
            {"hold_minutes": "121"}, "A hold must last between 1 and 120 minutes.", id="hold 121"
        ),
        pytest.param(
            {"max_refund": "-1.00"}, "The maximum refund cannot be negative.", id="max refund"
        ),
        pytest.param(
            {"country": "pt"},
            "The country must be a two-letter ISO 3166 code.",
            id="lowercase country",
        ),
    ],
)
def test_business_form_refuses_a_bad_setting_with_the_constraint_message(login, bad, message):
    # Given an owner on their business's page
    business = BusinessFactory()
    http = login(owner_of(business))
    url, page = business_change_page(http, business)

    # When they save a setting breaking a rule
    response = http.post(url, page_data(page) | bad)

    # Then the form is shown again with the rule's message and the business is unchanged
    assert response.status_code == 200
    assert message in form_errors(response)
    business.refresh_from_db()
    assert (business.capacity, business.slot_interval_minutes, business.country) == (1, 15, "PT")


def test_business_form_refuses_an_unknown_currency(login):
    # The currency is a choice, so the form refuses it before the constraint is consulted.
    business = BusinessFactory()
    http = login(owner_of(business))
    url, page = business_change_page(http, business)

    response = http.post(url, page_data(page) | {"currency": "eur"})

    assert response.status_code == 200
    assert any("Select a valid choice" in message for message in form_errors(response))
    business.refresh_from_db()
    assert business.currency == "EUR"


DEPOSIT_MISMATCH = (
    "Deposit rule mismatch: 'No deposit' takes neither an amount nor a percent; 'Fixed amount' "
    "needs an amount above zero and no percent; 'Percent of the price' needs a percent from 1 "
    "to 100 and no amount."
)


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param({"deposit_rule": "none", "deposit_amount": "10.00"}, id="none with amount"),
        pytest.param({"deposit_rule": "fixed", "deposit_amount": "0.00"}, id="fixed zero"),
        pytest.param(
            {"deposit_rule": "fixed", "deposit_amount": ""},
            id="fixed without amount",
        ),
        pytest.param(
            {"deposit_rule": "fixed", "deposit_amount": "10.00", "deposit_percent": "20"},
            id="fixed with percent",
        ),
        pytest.param({"deposit_rule": "percent", "deposit_percent": "101"}, id="percent 101"),
        pytest.param(
            {"deposit_rule": "percent", "deposit_percent": ""},
            id="percent without percent",
        ),
        pytest.param(
            {"deposit_rule": "percent", "deposit_percent": "20", "deposit_amount": "5.00"},
            id="percent with amount",
        ),
    ],
)
def test_business_form_refuses_an_inconsistent_deposit_rule(login, bad):
    business = BusinessFactory()
    http = login(owner_of(business))
    url, page = business_change_page(http, business)

    response = http.post(url, page_data(page) | bad)

    assert response.status_code == 200
    assert DEPOSIT_MISMATCH in form_errors(response)
    business.refresh_from_db()
    assert (business.deposit_rule, business.deposit_amount, business.deposit_percent) == (
        "none",
        None,
        None,
    )


# --- opening hours ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "constraint"),
    [
        pytest.param(
            {"opens_at": dt.time(17), "closes_at": dt.time(9)},
            "opening_hours_close_after_open",
            id="closing before opening",
        ),
        pytest.param(
            {"opens_at": dt.time(9), "closes_at": dt.time(9)},
            "opening_hours_close_after_open",
            id="closing at opening",
        ),
        pytest.param({"weekday": 7}, "opening_hours_weekday_0_to_6", id="weekday 7"),
    ],
)
def test_bad_opening_hours_are_refused_by_the_database(bad, constraint):
    business = BusinessFactory()

    with refused_by_database(constraint), transaction.atomic():
        OpeningHoursFactory(business=business, **bad)
    assert not OpeningHours.objects.exists()


def test_opening_hours_moved_to_weekday_7_are_refused_by_the_database():
    hours = OpeningHoursFactory()

    with refused_by_database("opening_hours_weekday_0_to_6"), transaction.atomic():
        changed_fields(hours, weekday=7)


def test_two_opening_hours_starting_together_are_refused_by_the_database():
    hours = OpeningHoursFactory(weekday=2, opens_at=dt.time(9), closes_at=dt.time(13))

    with refused_by_database("opening_hours_unique_start"), transaction.atomic():
        OpeningHoursFactory(
            business=hours.business, weekday=2, opens_at=dt.time(9), closes_at=dt.time(12)
        )


# Bad weekly hours posted from the dashboard are refused on the week's own page:
# tests/bookings/dashboard/test_hours_grid.py.


# --- date overrides ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param({"opens_at": None, "closes_at": dt.time(13)}, id="closing time only"),
        pytest.param({"opens_at": dt.time(13), "closes_at": dt.time(9)}, id="closing before"),
        pytest.param({"opens_at": dt.time(9), "closes_at": dt.time(9)}, id="closing at opening"),
    ],
)
def test_bad_date_override_is_refused_by_the_database(bad):
    business = BusinessFactory()

    with refused_by_database("date_override_closed_or_valid_range"), transaction.atomic():
        DateOverrideFactory(business=business, **bad)
    assert not DateOverride.objects.exists()


def test_date_override_with_an_opening_time_only_is_refused_by_the_database():
    business = BusinessFactory()

    with refused_by_database("date_override_closed_or_valid_range"), transaction.atomic():
        DateOverrideFactory(business=business, opens_at=dt.time(9), closes_at=None)


def test_second_closure_on_a_date_is_refused_by_the_database():
    closure = DateOverrideFactory(date=CHRISTMAS)

    with refused_by_database("date_override_one_closure_per_date"), transaction.atomic():
        DateOverrideFactory(business=closure.business, date=CHRISTMAS)


def test_closures_on_the_same_date_in_two_businesses_are_accepted_by_the_database():
    DateOverrideFactory(date=CHRISTMAS)
    DateOverrideFactory(date=CHRISTMAS)

    assert DateOverride.objects.filter(date=CHRISTMAS).count() == 2


def test_two_special_hours_starting_together_are_refused_by_the_database():
    special = DateOverrideFactory(date=CHRISTMAS, opens_at=dt.time(9), closes_at=dt.time(12))

    with refused_by_database("date_override_unique_start"), transaction.atomic():
        DateOverrideFactory(
            business=special.business, date=CHRISTMAS, opens_at=dt.time(9), closes_at=dt.time(11)
        )


def test_special_hours_in_two_ranges_on_one_date_are_accepted_by_the_database():
    business = BusinessFactory()
    DateOverrideFactory(business=business, opens_at=dt.time(9), closes_at=dt.time(12))
    DateOverrideFactory(business=business, opens_at=dt.time(14), closes_at=dt.time(18))

    assert DateOverride.objects.count() == 2


def date_override_row(date="2026-12-24", opens_at="", closes_at="", note=""):
    return {"date": date, "opens_at": opens_at, "closes_at": closes_at, "note": note}


RANGE_MESSAGE = (
    "Leave both times empty for a closed day, or give a closing time after the opening time."
)


@pytest.mark.parametrize(
    "row",
    [
        pytest.param(date_override_row(closes_at="13:00"), id="closing time only"),
        pytest.param(date_override_row(opens_at="13:00", closes_at="09:00"), id="closing before"),
        pytest.param(date_override_row(opens_at="09:00", closes_at="09:00"), id="closing at"),
        pytest.param(
            date_override_row(opens_at="09:00"),
            id="opening time only",
        ),
    ],
)
def test_business_form_refuses_a_date_override_with_a_bad_range(login, row):
    business = BusinessFactory()
    http = login(owner_of(business))
    url, page = business_change_page(http, business)

    response = http.post(url, add_inline_rows(page_data(page), "date_overrides", row))

    assert response.status_code == 200
    assert RANGE_MESSAGE in form_errors(response)
    assert not DateOverride.objects.exists()


def test_business_form_refuses_a_second_closure_of_a_closed_date(login):
    # Given Christmas already marked closed
    business = BusinessFactory()
    DateOverrideFactory(business=business, date=CHRISTMAS)
    http = login(owner_of(business))
    url, page = business_change_page(http, business)

    # When the owner adds another closure for Christmas
    data = add_inline_rows(page_data(page), "date_overrides", date_override_row(date="2026-12-25"))
    response = http.post(url, data)

    # Then the form refuses it and Christmas keeps its one closure
    assert response.status_code == 200
    assert "This date is already marked closed." in form_errors(response)
    assert DateOverride.objects.count() == 1


def test_business_form_refuses_two_closures_of_one_date_in_one_save(login):
    # Given a business with no overrides
    business = BusinessFactory()
    http = login(owner_of(business))
    url, page = business_change_page(http, business)

    # When the owner adds two closures for Christmas in the same save
    closure = date_override_row(date="2026-12-25")
    response = http.post(url, add_inline_rows(page_data(page), "date_overrides", closure, closure))

    # Then the form refuses them (rather than the database failing the request)
    assert response.status_code == 200
    assert form_errors(response)
    assert not DateOverride.objects.exists()


# --- busy blocks ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ends_at",
    [
        pytest.param(NOON - dt.timedelta(minutes=1), id="ending before start"),
        pytest.param(NOON, id="ending at start"),
    ],
)
def test_busy_block_not_ending_after_start_is_refused_by_the_database(ends_at):
    business = BusinessFactory()

    with refused_by_database("busy_block_ends_after_start"), transaction.atomic():
        BusyBlockFactory(business=business, starts_at=NOON, ends_at=ends_at)
    assert not BusyBlock.objects.exists()


def test_busy_block_form_refuses_a_block_ending_before_it_starts(login):
    business = BusinessFactory()
    http = login(owner_of(business))
    add_url = reverse("admin:bookings_busyblock_add")
    data = page_data(http.get(add_url))
    data.update(
        business=str(business.pk),
        summary="Dentist",
        **datetime_fields("starts_at", dt.datetime(2026, 12, 1, 11)),  # noqa: DTZ001 - wall clock
        **datetime_fields("ends_at", dt.datetime(2026, 12, 1, 10)),  # noqa: DTZ001
    )

    response = http.post(add_url, data)

    assert response.status_code == 200
    assert "A busy block must end after it starts." in form_errors(response)
    assert not BusyBlock.objects.exists()


# --- appointments -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "constraint"),
    [
        pytest.param(
            {"starts_at": NOON, "ends_at": NOON - dt.timedelta(minutes=1)},
            "appointment_ends_after_start",
            id="ending before start",
        ),
        pytest.param(
            {"starts_at": NOON, "ends_at": NOON},
            "appointment_ends_after_start",
            id="ending at start",
        ),
        pytest.param({"price": D("-0.01")}, "appointment_price_not_negative", id="negative price"),
        pytest.param({"status": "lost"}, "appointment_status_known", id="unknown status"),
        pytest.param(
            {"idempotency_key": ""}, "appointment_idempotency_key_not_empty", id="empty key"
        ),
    ],
)
def test_bad_appointment_is_refused_by_the_database(bad, constraint):
    business = BusinessFactory()

    with refused_by_database(constraint), transaction.atomic():
        AppointmentFactory(business=business, **bad)
    assert not Appointment.objects.exists()


@pytest.mark.parametrize(
    ("bad", "constraint"),
    [
        pytest.param({"ends_at": NOON}, "appointment_ends_after_start", id="ending at start"),
        pytest.param({"price": D("-1.00")}, "appointment_price_not_negative", id="negative price"),
        pytest.param({"status": "lost"}, "appointment_status_known", id="unknown status"),
        pytest.param(
            {"idempotency_key": ""}, "appointment_idempotency_key_not_empty", id="empty key"
        ),
    ],
)
def test_appointment_updated_to_break_a_rule_is_refused_by_the_database(bad, constraint):
    appointment = AppointmentFactory(starts_at=NOON)

    with refused_by_database(constraint), transaction.atomic():
        changed_fields(appointment, **bad)


def test_duplicate_idempotency_key_in_a_business_is_refused_by_the_database():
    # Given a booking made with a client's idempotency key
    first = AppointmentFactory(idempotency_key="req-42")

    # When a second booking of the same business reuses the key
    # Then the database refuses it: a retry must find the first booking, not make another
    with refused_by_database("appointment_unique_idempotency_key"), transaction.atomic():
        AppointmentFactory(business=first.business, idempotency_key="req-42")
    assert Appointment.objects.count() == 1


def test_same_idempotency_key_in_another_business_is_accepted_by_the_database():
    AppointmentFactory(idempotency_key="req-42")
    AppointmentFactory(idempotency_key="req-42")

    assert Appointment.objects.filter(idempotency_key="req-42").count() == 2


def test_many_appointments_without_idempotency_key_are_accepted_by_the_database():
    business = BusinessFactory()
    AppointmentFactory.create_batch(3, business=business, idempotency_key=None)

    assert Appointment.objects.filter(idempotency_key__isnull=True).count() == 3


def test_duplicate_management_token_is_refused_by_the_database():
    first = AppointmentFactory(manage_token_hash="a" * 64)

    with refused_by_database("appointment_unique_manage_token"), transaction.atomic():
        AppointmentFactory(business=first.business, manage_token_hash="a" * 64)


# Booking through the dashboard form is covered in test_admin_appointments.py: the form books
# through the core's service, which computes the end and refuses bad prices and times.


# --- clients ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "constraint"),
    [
        pytest.param({"email": "", "phone": ""}, "client_has_email_or_phone", id="no contact"),
        pytest.param({"phone": "912345678"}, "client_phone_e164", id="national number"),
        pytest.param({"phone": "+351 912 345 678"}, "client_phone_e164", id="spaces"),
        pytest.param({"phone": "+0912345678"}, "client_phone_e164", id="leading zero"),
        pytest.param({"phone": "+12345"}, "client_phone_e164", id="too short"),
        pytest.param({"phone": "00351912345678"}, "client_phone_e164", id="00 prefix"),
    ],
)
def test_bad_client_is_refused_by_the_database(bad, constraint):
    business = BusinessFactory()

    with refused_by_database(constraint), transaction.atomic():
        ClientFactory(business=business, **bad)
    assert not Client.objects.exists()


def test_client_with_a_phone_and_no_email_is_accepted_by_the_database():
    ClientFactory(email="", phone="+351912345678")

    assert Client.objects.get().phone == "+351912345678"


def test_client_email_differing_only_in_case_is_refused_by_the_database():
    # Given a client ana@example.com
    existing = ClientFactory(email="ana@example.com")

    # When the same business gets a client ANA@Example.com, written without validation
    # Then the database refuses it: a returning client is the same row, whatever the case
    with refused_by_database("client_unique_email_per_business"), transaction.atomic():
        ClientFactory(business=existing.business, email="ANA@Example.com")
    assert Client.objects.count() == 1


def test_same_client_email_in_another_business_is_accepted_by_the_database():
    ClientFactory(email="ana@example.com")
    ClientFactory(email="ANA@example.com")

    assert Client.objects.filter(email__iexact="ana@example.com").count() == 2


def test_duplicate_client_phone_in_a_business_is_refused_by_the_database():
    existing = ClientFactory(phone="+351912345678")

    with refused_by_database("client_unique_phone_per_business"), transaction.atomic():
        ClientFactory(business=existing.business, email="", phone="+351912345678")


def test_same_client_phone_in_another_business_is_accepted_by_the_database():
    ClientFactory(phone="+351912345678")
    ClientFactory(phone="+351912345678")

    assert Client.objects.filter(phone="+351912345678").count() == 2


def test_many_clients_without_email_or_without_phone_are_accepted_by_the_database():
    # The uniqueness of email and phone only holds for the ones given.
    business = BusinessFactory()
    ClientFactory(business=business, email="", phone="+351912345678")
    ClientFactory(business=business, email="", phone="+351912345679")
    ClientFactory.create_batch(2, business=business, phone="")

    assert Client.objects.count() == 4


def test_client_updated_to_have_no_contact_is_refused_by_the_database():
    client = ClientFactory(email="ana@example.com", phone="")

    with refused_by_database("client_has_email_or_phone"), transaction.atomic():
        changed_fields(client, email="")


def post_new_client(http, business, **fields):
    add_url = reverse("admin:bookings_client_add")
    data = page_data(http.get(add_url))
    data.update(business=str(business.pk), name="Ana", email="", phone="")
    data.update(fields)
    return http.post(add_url, data)


@pytest.mark.parametrize(
    ("existing", "new", "message"),
    [
        pytest.param(
            None,
            {},
            "A client needs an email address or a phone number.",
            id="no contact",
        ),
        pytest.param(
            {"email": "ana@example.com"},
            {"email": "ANA@Example.com"},
            "This business already has a client with that email.",
            id="email differing in case",
        ),
        pytest.param(
            {"email": "", "phone": "+351912345678"},
            {"phone": "+351912345678"},
            "This business already has a client with that phone.",
            id="same phone",
        ),
        pytest.param(
            {"email": "", "phone": "+351912345678"},
            {"phone": "912 345 678"},
            "This business already has a client with that phone.",
            id="same phone written nationally",
        ),
    ],
)
def test_client_form_refuses_a_client_breaking_a_rule(login, existing, new, message):
    business = BusinessFactory(country="PT")
    if existing is not None:
        ClientFactory(business=business, **existing)
    before = Client.objects.count()
    http = login(owner_of(business))

    response = post_new_client(http, business, **new)

    assert response.status_code == 200
    assert message in form_errors(response)
    assert Client.objects.count() == before


def test_client_form_accepts_an_email_used_by_another_business(login):
    ClientFactory(email="ana@example.com")
    business = BusinessFactory()
    http = login(owner_of(business))

    response = post_new_client(http, business, email="ana@example.com")

    assert response.status_code == 302
    assert Client.objects.filter(business=business, email="ana@example.com").exists()


# --- memberships ------------------------------------------------------------------------------


def test_second_role_for_a_user_at_a_business_is_refused_by_the_database():
    membership = MembershipFactory(role=Role.OWNER)

    with refused_by_database("membership_one_role_per_user_and_business"), transaction.atomic():
        MembershipFactory(user=membership.user, business=membership.business, role=Role.STAFF)
    assert Membership.objects.count() == 1


def test_user_with_roles_at_two_businesses_is_accepted_by_the_database():
    membership = MembershipFactory()
    MembershipFactory(user=membership.user)

    assert Membership.objects.filter(user=membership.user).count() == 2


def test_membership_form_refuses_a_second_role_at_the_same_business(login):
    # Memberships are granted by Ordina's administrators (owners may only read them).
    membership = MembershipFactory(role=Role.OWNER)
    admin_user = UserFactory(is_superuser=True)
    http = login(admin_user)
    add_url = reverse("admin:bookings_membership_add")
    data = page_data(http.get(add_url))
    data.update(user=str(membership.user.pk), business=str(membership.business.pk), role="staff")

    response = http.post(add_url, data)

    assert response.status_code == 200
    assert "This user already has a role at this business." in form_errors(response)
    assert Membership.objects.count() == 1
    assert get_user_model().objects.count() == 2
