"""The owner's negotiation terms as stored: which terms a service's offers are answered by
(its own, the business's default, or none), and the refusal of terms the arithmetic cannot use —
on the form field at fault by ``clean()``, and by the database for any other writer."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F

from bookings.models import Business, ConcessionRule, Service, TermsSource
from bookings.negotiation import Rule, Terms
from bookings.selectors import negotiation_enabled, negotiation_terms
from tests.factories import BusinessFactory, ServiceFactory

pytestmark = pytest.mark.django_db

D = Decimal


def field_errors(instance) -> dict[str, list[str]]:
    with pytest.raises(ValidationError) as excinfo:
        instance.full_clean()
    return excinfo.value.message_dict


# --- which terms answer an offer ---------------------------------------------------------------


def test_a_service_following_the_business_is_answered_by_the_business_default_terms():
    business = BusinessFactory(
        negotiable=True,
        concession_rule=ConcessionRule.STEPS,
        concession_step_percent=D("25"),
        concession_max_rounds=4,
        last_minute_hours=6,
    )
    service = ServiceFactory(business=business, list_price=D("80"), price_floor=D("60"))

    terms = negotiation_terms(service)

    assert terms == Terms(
        list_price=D("80.00"),
        floor=D("60.00"),
        rule=Rule.STEPS,
        rounding=D("5.00"),
        step_amount=None,
        step_percent=D("25.00"),
        max_rounds=4,
        last_minute_hours=6,
    )


def test_a_service_with_its_own_terms_is_answered_by_them_not_the_business_default():
    business = BusinessFactory(negotiable=True, concession_rule=ConcessionRule.FIXED)
    service = ServiceFactory(
        business=business,
        negotiation_terms=TermsSource.OWN,
        negotiable=True,
        concession_rule=ConcessionRule.HALFWAY,
        concession_rounding=D("2.50"),
        concession_max_rounds=2,
    )

    terms = negotiation_terms(service)

    assert terms is not None
    assert (terms.rule, terms.rounding, terms.max_rounds) == (Rule.HALFWAY, D("2.50"), 2)
    assert (terms.list_price, terms.floor) == (D("60.00"), D("50.00"))


def test_a_service_that_turns_negotiation_off_is_not_negotiated_though_the_business_is():
    business = BusinessFactory(negotiable=True)
    service = ServiceFactory(business=business, negotiation_terms=TermsSource.OWN)

    assert negotiation_terms(service) is None


def test_a_service_negotiates_by_its_own_terms_where_the_business_does_not():
    business = BusinessFactory(negotiable=False)
    service = ServiceFactory(business=business, negotiation_terms=TermsSource.OWN, negotiable=True)

    assert negotiation_terms(service) is not None


def test_a_service_following_a_business_that_does_not_negotiate_is_not_negotiated():
    service = ServiceFactory(business=BusinessFactory(negotiable=False), negotiable=True)

    assert negotiation_terms(service) is None


def test_new_businesses_and_services_do_not_negotiate_until_the_owner_turns_it_on():
    service = ServiceFactory()

    assert negotiation_terms(service) is None
    assert negotiation_enabled(service.business) is False


# --- whether a business takes offers at all ----------------------------------------------------


def test_a_business_takes_offers_when_a_bookable_service_follows_its_negotiable_default():
    business = BusinessFactory(negotiable=True)
    ServiceFactory(business=business)

    assert negotiation_enabled(business) is True


def test_a_business_takes_offers_when_one_service_negotiates_by_its_own_terms():
    business = BusinessFactory(negotiable=False)
    ServiceFactory(business=business)
    ServiceFactory(business=business, negotiation_terms=TermsSource.OWN, negotiable=True)

    assert negotiation_enabled(business) is True


def test_a_negotiable_default_no_service_follows_takes_no_offers():
    business = BusinessFactory(negotiable=True)
    ServiceFactory(business=business, negotiation_terms=TermsSource.OWN, negotiable=False)

    assert negotiation_enabled(business) is False


def test_a_service_that_cannot_be_booked_does_not_open_negotiation():
    business = BusinessFactory(negotiable=True)
    ServiceFactory(business=business, is_active=False)

    assert negotiation_enabled(business) is False


def test_another_business_negotiating_service_does_not_open_negotiation_here():
    business = BusinessFactory(negotiable=False)
    ServiceFactory(business=business)
    ServiceFactory(negotiation_terms=TermsSource.OWN, negotiable=True)

    assert negotiation_enabled(business) is False


def test_whether_a_business_takes_offers_is_one_query(django_assert_num_queries):
    business = BusinessFactory(negotiable=True)
    ServiceFactory.create_batch(3, business=business)

    with django_assert_num_queries(1):
        negotiation_enabled(business)


# --- unusable terms are refused on the field at fault ------------------------------------------


@pytest.mark.parametrize(
    ("terms", "field", "message"),
    [
        pytest.param(
            {"concession_max_rounds": 0},
            "concession_max_rounds",
            "Allow at least one round of counter-offers.",
            id="no rounds",
        ),
        pytest.param(
            {"concession_rounding": D("0")},
            "concession_rounding",
            "Meeting halfway rounds to a step that must be more than 0.",
            id="halfway rounding 0",
        ),
        pytest.param(
            {"concession_rule": ConcessionRule.STEPS, "concession_step_amount": D("-5")},
            "concession_step_amount",
            "The step must be more than 0.",
            id="negative step",
        ),
        pytest.param(
            {"concession_rule": ConcessionRule.STEPS, "concession_step_percent": D("120")},
            "concession_step_percent",
            "The step's percentage must be more than 0 and at most 100.",
            id="percent above 100",
        ),
        pytest.param(
            {"concession_rule": ConcessionRule.STEPS},
            "concession_step_amount",
            "Concede in steps of an amount or of a percentage (one of them).",
            id="steps of nothing",
        ),
        pytest.param(
            {
                "concession_rule": ConcessionRule.STEPS,
                "concession_step_amount": D("5"),
                "concession_step_percent": D("10"),
            },
            "concession_step_amount",
            "Concede in steps of an amount or of a percentage (one of them).",
            id="steps of both",
        ),
    ],
)
@pytest.mark.parametrize("model", [Business, Service])
def test_unusable_terms_are_refused_on_the_field_at_fault(model, terms, field, message):
    if model is Business:
        row = BusinessFactory.build(**terms)
    else:
        row = ServiceFactory.build(business=BusinessFactory(), **terms)

    assert field_errors(row)[field] == [message]


def test_a_floor_above_the_list_price_is_refused_on_the_floor():
    service = ServiceFactory.build(
        business=BusinessFactory(), list_price=D("40"), price_floor=D("45")
    )

    assert field_errors(service)["price_floor"] == [
        "The price floor cannot be above the list price."
    ]


def test_usable_terms_pass_clean():
    service = ServiceFactory.build(
        business=BusinessFactory(),
        negotiation_terms=TermsSource.OWN,
        negotiable=True,
        concession_rule=ConcessionRule.STEPS,
        concession_step_amount=D("7.50"),
        last_minute_hours=2,
    )

    service.full_clean()


# --- the database refuses them from any writer -------------------------------------------------


@pytest.mark.parametrize(
    ("change", "constraint"),
    [
        pytest.param({"concession_max_rounds": 0}, "rounds_at_least_one", id="rounds"),
        pytest.param({"concession_rounding": D("0")}, "rounding_positive", id="rounding"),
        pytest.param({"concession_step_amount": D("0")}, "step_positive", id="step"),
        pytest.param({"concession_step_percent": D("0")}, "percent_0_to_100", id="percent 0"),
        pytest.param({"concession_step_percent": D("100.01")}, "percent_0_to_100", id="pct>100"),
        pytest.param({"concession_rule": ConcessionRule.STEPS}, "steps_one_measure", id="steps"),
        pytest.param({"last_minute_hours": 0}, "last_minute_at_least_one_hour", id="last-min"),
        pytest.param({"concession_rule": "haggle"}, "concession_rule_known", id="rule"),
    ],
)
@pytest.mark.parametrize("model", [Business, Service])
def test_the_database_refuses_unusable_terms_from_a_writer_that_skips_clean(
    model, change, constraint
):
    row = ServiceFactory()
    rows = model.objects.filter(pk=row.business_id if model is Business else row.pk)

    with transaction.atomic(), pytest.raises(IntegrityError, match=constraint):
        rows.update(**change)


def test_the_database_refuses_a_service_floor_above_its_list_price():
    service = ServiceFactory()

    with transaction.atomic(), pytest.raises(IntegrityError, match="floor_at_most_list_price"):
        Service.objects.filter(pk=service.pk).update(price_floor=F("list_price") + 1)
