"""Owners set their negotiation terms on the dashboard — a default on the business, an override
on a service — with each rule explained where it is chosen, refused with a clear reason on the
field at fault, and only ever on their own business. The appointment list shows what each
booking was agreed at against the list price of the day, and the discount given."""

from decimal import Decimal

import pytest
from django.http import HttpResponse
from django.urls import reverse

from bookings.models import Appointment, ConcessionRule, TermsSource
from bookings.negotiation import Rule
from bookings.selectors import negotiation_terms
from bookings.services import ClientDetails, appointment_create
from tests.admin_forms import page_data
from tests.bookings.conftest import WEDNESDAY, lisbon
from tests.factories import AppointmentFactory, BusinessFactory, ServiceFactory, owner_of

pytestmark = pytest.mark.django_db

D = Decimal


def service_page(service) -> str:
    return reverse("admin:bookings_service_change", args=[service.pk])


def business_page(business) -> str:
    return reverse("admin:bookings_business_change", args=[business.pk])


def post_changed(http, url: str, **changes) -> HttpResponse:
    """Post the page at ``url`` as a browser would, with only ``changes`` edited."""
    data = page_data(http.get(url)) | {name: str(value) for name, value in changes.items()}
    if changes.get("negotiable") is False:
        del data["negotiable"]  # an unticked box is not sent
    return http.post(url, data | {"_save": "Save"})


def field_errors(response) -> dict[str, list[str]]:
    assert response.status_code == 200, "the form was expected back with errors"
    return dict(response.context["adminform"].form.errors)


# --- the owner sets terms ----------------------------------------------------------------------


def test_an_owner_gives_a_service_its_own_terms_and_offers_are_answered_by_them(login, salon):
    service = ServiceFactory(business=salon, list_price=D("80"), price_floor=D("60"))

    response = post_changed(
        login(owner_of(salon)),
        service_page(service),
        negotiation_terms=TermsSource.OWN,
        negotiable="on",
        concession_rule=ConcessionRule.STEPS,
        concession_step_amount="5.00",
        concession_max_rounds=2,
        last_minute_hours=4,
    )

    assert response.status_code == 302
    service.refresh_from_db()
    terms = negotiation_terms(service)
    assert terms is not None
    assert (terms.rule, terms.step_amount, terms.max_rounds) == (Rule.STEPS, D("5.00"), 2)
    assert (terms.floor, terms.last_minute_hours) == (D("60.00"), 4)


def test_an_owner_sets_the_business_default_and_services_following_it_negotiate(login, salon):
    service = ServiceFactory(business=salon)

    response = post_changed(
        login(owner_of(salon)),
        business_page(salon),
        negotiable="on",
        concession_rule=ConcessionRule.HALFWAY,
        concession_rounding="2.50",
    )

    assert response.status_code == 302
    service.refresh_from_db()
    terms = negotiation_terms(service)
    assert terms is not None
    assert (terms.rule, terms.rounding) == (Rule.HALFWAY, D("2.50"))


def test_the_service_page_explains_each_rule_and_what_the_floor_guarantees(login, salon):
    service = ServiceFactory(business=salon)

    page = login(owner_of(salon)).get(service_page(service)).content.decode()

    assert ">Price</h2>" in page
    assert ">Negotiation</h2>" in page
    assert "no price below it is agreed or booked" in page
    assert (
        "Meet halfway: each counter is halfway between the client's offer and the current "
        "ask, rounded up to the rounding step, never below the floor." in page
    )
    assert "Fixed: it does not move" in page
    assert "Steps: each counter lowers the ask by the step amount" in page


def test_the_service_list_says_how_each_service_negotiates(login):
    business = BusinessFactory(negotiable=True, concession_rule=ConcessionRule.HALFWAY)
    ServiceFactory(business=business, name="Cut")
    ServiceFactory(
        business=business,
        name="Colour",
        negotiation_terms=TermsSource.OWN,
        negotiable=True,
        concession_rule=ConcessionRule.STEPS,
        concession_step_percent=D("20"),
    )
    ServiceFactory(business=business, name="Shave", negotiation_terms=TermsSource.OWN)

    page = login(owner_of(business)).get(reverse("admin:bookings_service_changelist"))

    cells = {
        row.name: page.context["cl"].model_admin.negotiation(row)
        for row in page.context["cl"].result_list
    }
    assert cells == {
        "Cut": "Meet halfway (business's terms)",
        "Colour": "Steps toward the floor (own terms)",
        "Shave": "Off",
    }
    assert "Steps toward the floor (own terms)" in page.content.decode()


# --- unusable terms come back with the reason on the field -------------------------------------


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        pytest.param(
            {"list_price": "40.00", "price_floor": "45.00"},
            "price_floor",
            "The price floor cannot be above the list price.",
            id="floor above list",
        ),
        pytest.param(
            {"concession_rule": ConcessionRule.STEPS, "concession_step_amount": "0"},
            "concession_step_amount",
            "The step must be more than 0.",
            id="step 0",
        ),
        pytest.param(
            {"concession_max_rounds": "0"},
            "concession_max_rounds",
            "Allow at least one round of counter-offers.",
            id="no rounds",
        ),
        pytest.param(
            {"concession_rule": ConcessionRule.STEPS, "concession_step_percent": "150"},
            "concession_step_percent",
            "The step's percentage must be more than 0 and at most 100.",
            id="percent above 100",
        ),
        pytest.param(
            {"concession_rule": ConcessionRule.HALFWAY, "concession_rounding": "0"},
            "concession_rounding",
            "Meeting halfway rounds to a step that must be more than 0.",
            id="rounding 0",
        ),
    ],
)
def test_unusable_service_terms_come_back_on_the_field_at_fault_and_nothing_is_saved(
    login, salon, changes, field, message
):
    service = ServiceFactory(business=salon)
    before = negotiation_terms_row(service)

    response = post_changed(
        login(owner_of(salon)), service_page(service), negotiation_terms=TermsSource.OWN, **changes
    )

    assert field_errors(response) == {field: [message]}
    assert negotiation_terms_row(service) == before


def test_unusable_business_terms_come_back_on_the_field_at_fault(login, salon):
    response = post_changed(
        login(owner_of(salon)),
        business_page(salon),
        negotiable="on",
        concession_rule=ConcessionRule.STEPS,
    )

    assert field_errors(response) == {
        "concession_step_amount": [
            "Concede in steps of an amount or of a percentage (one of them)."
        ]
    }
    salon.refresh_from_db()
    assert not salon.negotiable


def negotiation_terms_row(service) -> tuple:
    service.refresh_from_db()
    return (
        service.list_price,
        service.price_floor,
        service.negotiation_terms,
        service.concession_rule,
        service.concession_max_rounds,
    )


# --- only the owner's own business -------------------------------------------------------------


def test_an_owner_cannot_open_or_change_another_business_service_terms(login, salon):
    elsewhere = ServiceFactory(business=BusinessFactory(name="Elsewhere"), name="Their cut")
    http = login(owner_of(salon))

    opened = http.get(service_page(elsewhere))
    posted = http.post(
        service_page(elsewhere),
        {"negotiation_terms": TermsSource.OWN, "negotiable": "on", "price_floor": "0"},
    )
    listed = http.get(reverse("admin:bookings_service_changelist")).content.decode()

    assert (opened.status_code, posted.status_code) == (404, 404)
    elsewhere.refresh_from_db()
    assert (elsewhere.negotiation_terms, elsewhere.price_floor) == (TermsSource.BUSINESS, D("50"))
    assert "Their cut" not in listed


# --- the discount each booking was given -------------------------------------------------------


def test_a_booking_keeps_the_list_price_of_its_day_after_the_owner_changes_it(
    salon, haircut, frozen_now
):
    appointment = appointment_create(
        service=haircut,
        start=lisbon(WEDNESDAY, "10:00"),
        client=ClientDetails("Ana", "ana@example.com"),
        price=D("52.00"),
    ).appointment

    haircut.list_price = D("70.00")
    haircut.save()

    appointment.refresh_from_db()
    assert (appointment.list_price, appointment.price) == (D("60.00"), D("52.00"))
    assert appointment.discount == D("8.00")


def test_the_appointment_list_shows_list_price_price_paid_and_discount(
    login, salon, haircut, frozen_now
):
    appointment_create(
        service=haircut,
        start=lisbon(WEDNESDAY, "10:00"),
        client=ClientDetails("Ana", "ana@example.com"),
        price=D("52.00"),
    )

    page = login(owner_of(salon)).get(reverse("admin:bookings_appointment_changelist"))

    row = page.context["cl"].result_list[0]
    text = page.content.decode()
    assert (row.list_price, row.price) == (D("60.00"), D("52.00"))
    assert "list price at booking" in text.lower()
    assert "8.00 EUR" in text


def test_the_appointment_page_shows_the_discount_given(login, salon, haircut, frozen_now):
    appointment = appointment_create(
        service=haircut,
        start=lisbon(WEDNESDAY, "10:00"),
        client=ClientDetails("Ana", "ana@example.com"),
        price=D("50.00"),
    ).appointment

    page = login(owner_of(salon)).get(
        reverse("admin:bookings_appointment_change", args=[appointment.pk])
    )

    assert "10.00 EUR" in page.content.decode()


@pytest.mark.parametrize(
    ("choice", "expected"),
    [
        pytest.param("yes", {"discounted"}, id="negotiated"),
        pytest.param("no", {"full price"}, id="at list price"),
        pytest.param("unrecorded", {"before snapshots"}, id="unrecorded"),
    ],
)
def test_the_negotiated_filter_picks_bookings_below_their_list_price(
    login, salon, haircut, choice, expected
):
    for note, list_price, price in [
        ("discounted", D("60"), D("55")),
        ("full price", D("60"), D("60")),
        ("before snapshots", None, D("60")),
    ]:
        AppointmentFactory(
            business=salon, service=haircut, list_price=list_price, price=price, notes=note
        )

    page = login(owner_of(salon)).get(
        reverse("admin:bookings_appointment_changelist"), {"negotiated": choice}
    )

    assert {row.notes for row in page.context["cl"].result_list} == expected


def test_an_appointment_at_or_above_the_list_price_shows_no_discount(salon, haircut):
    appointment = AppointmentFactory(
        business=salon, service=haircut, list_price=D("60"), price=D("65")
    )

    assert appointment.discount == D("0")
    assert Appointment.objects.get().discount == D("0")
