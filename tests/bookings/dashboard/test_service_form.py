"""The service form: one page in sections (what it is, time, price, negotiation, deposit), each
box saying what it means — above all what the floor guarantees and how a service's deposit
combines with its business's rule — and each refusal shown on the box at fault."""

from decimal import Decimal

import pytest
from django.urls import reverse

from bookings.models import DepositRule, Service
from tests.admin_forms import page_data
from tests.factories import BusinessFactory, ServiceFactory, owner_of

pytestmark = pytest.mark.django_db

D = Decimal


def add_page() -> str:
    return reverse("admin:bookings_service_add")


def change_page(service) -> str:
    return reverse("admin:bookings_service_change", args=[service.pk])


def new_service(business, **changes) -> dict[str, str]:
    """The add form as an owner fills it in, with ``changes`` on top."""
    return {
        "business": str(business.pk),
        "name": "Colour",
        "description": "",
        "is_active": "on",
        "duration_minutes": "90",
        "buffer_before_minutes": "0",
        "buffer_after_minutes": "15",
        "list_price": "80.00",
        "price_floor": "65.00",
        "negotiation_terms": "business",
        "concession_rule": "halfway",
        "concession_rounding": "5.00",
        "concession_max_rounds": "3",
        "deposit_amount": "",
        "_save": "Save",
    } | changes


def field_errors(response) -> dict[str, list[str]]:
    assert response.status_code == 200, "the form was expected back with errors"
    return dict(response.context["adminform"].form.errors)


def test_the_form_is_in_sections_in_the_order_an_owner_thinks_of_a_service(login):
    business = BusinessFactory()

    page = login(owner_of(business)).get(add_page())

    sections = [(fieldset.name, list(fieldset.fields)) for fieldset in page.context["adminform"]]
    assert [name for name, _ in sections] == [
        "What it is",
        "Time",
        "Price",
        "Negotiation",
        "Deposit",
    ]
    assert sections[2][1] == ["list_price", "price_floor"]
    assert sections[4][1] == ["deposit_amount"]


def test_the_floor_and_the_deposit_say_what_they_guarantee(login):
    business = BusinessFactory(deposit_rule=DepositRule.PERCENT, deposit_percent=20)
    service = ServiceFactory(business=business)

    page = login(owner_of(business)).get(change_page(service))

    form = page.context["adminform"].form
    text = page.content.decode()
    assert form.fields["price_floor"].help_text.startswith(
        "The lowest price this service is ever booked at: the assistant never agrees to a "
        "price below it, and every booking below it is refused"
    )
    assert "It is never told to a client as a floor" in form.fields["price_floor"].help_text
    assert "Empty: the business's deposit rule applies." in form.fields["deposit_amount"].help_text
    assert "paid by card through Stripe when the client books" in text
    assert f"{business}'s rule now: 20% of the price agreed." in text
    assert "Kept free after each visit (clean-up), up to 240 minutes." in text


def test_an_owner_creates_a_service_with_a_floor(login):
    business = BusinessFactory()

    response = login(owner_of(business)).post(add_page(), new_service(business))

    assert response.status_code == 302
    service = Service.objects.get(business=business)
    assert (service.name, service.list_price, service.price_floor) == ("Colour", D("80"), D("65"))
    assert (service.duration_minutes, service.buffer_after_minutes) == (90, 15)


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        pytest.param(
            {"price_floor": "85.00"},
            "price_floor",
            "The price floor cannot be above the list price.",
            id="floor above list",
        ),
        pytest.param(
            {"deposit_amount": "90.00"},
            "deposit_amount",
            "The deposit must be between 0 and the list price.",
            id="deposit above list",
        ),
        pytest.param(
            {"duration_minutes": "3"},
            "duration_minutes",
            "A service lasts between 5 and 720 minutes.",
            id="duration 3",
        ),
        pytest.param(
            {"buffer_before_minutes": "300"},
            "buffer_before_minutes",
            "A buffer may be at most 240 minutes.",
            id="buffer 300",
        ),
    ],
)
def test_a_refused_service_shows_why_on_the_box_at_fault_and_is_not_saved(
    login, changes, field, message
):
    business = BusinessFactory()

    response = login(owner_of(business)).post(add_page(), new_service(business, **changes))

    assert field_errors(response) == {field: [message]}
    assert not Service.objects.exists()


def test_a_second_service_of_the_same_name_is_refused_on_the_name(login):
    business = BusinessFactory()
    ServiceFactory(business=business, name="Colour")

    response = login(owner_of(business)).post(add_page(), new_service(business))

    assert field_errors(response) == {
        "name": ["This business already has a service with that name."]
    }


def test_an_owner_cannot_add_a_service_to_another_business(login):
    business, elsewhere = BusinessFactory(), BusinessFactory(name="Elsewhere")

    response = login(owner_of(business)).post(add_page(), new_service(elsewhere))

    assert list(field_errors(response)) == ["business"]
    assert not Service.objects.exists()


def test_an_unchanged_service_saves_as_it_was(login):
    # The control for the refusals above: the form as shown posts back cleanly.
    business = BusinessFactory()
    service = ServiceFactory(business=business, deposit_amount=D("10.00"))
    http = login(owner_of(business))

    response = http.post(change_page(service), page_data(http.get(change_page(service))))

    assert response.status_code == 302
