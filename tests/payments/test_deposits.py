"""How much deposit a booking asks, decided on plain values; and the one conversion to Stripe's
integer minor units."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bookings.models import DepositRule
from payments.deposits import deposit_due, from_minor_units, to_minor_units

PRICE = Decimal("60.00")


def due(
    *,
    price: Decimal = PRICE,
    rule: str = DepositRule.NONE,
    fixed_amount: Decimal | None = None,
    percent: int | None = None,
    service_override: Decimal | None = None,
) -> Decimal:
    return deposit_due(
        price=price,
        rule=rule,
        fixed_amount=fixed_amount,
        percent=percent,
        service_override=service_override,
    )


def test_a_business_asking_no_deposit_asks_nothing():
    assert due() == Decimal("0")


def test_a_fixed_deposit_is_that_amount():
    assert due(rule=DepositRule.FIXED, fixed_amount=Decimal("15.00")) == Decimal("15.00")


@pytest.mark.parametrize(
    ("price", "percent", "deposit"),
    [
        pytest.param(Decimal("60.00"), 20, Decimal("12.00"), id="exact"),
        pytest.param(Decimal("10.05"), 50, Decimal("5.03"), id="half a cent rounds up"),
        pytest.param(Decimal("10.01"), 50, Decimal("5.01"), id="below half a cent rounds down"),
        pytest.param(Decimal("33.33"), 15, Decimal("5.00"), id="4.9995 rounds up to 5.00"),
        pytest.param(Decimal("0.01"), 50, Decimal("0.01"), id="half of a cent is a cent"),
        pytest.param(Decimal("60.00"), 100, Decimal("60.00"), id="the whole price"),
    ],
)
def test_a_percent_deposit_rounds_half_up_to_the_cent(price, percent, deposit):
    result = due(price=price, rule=DepositRule.PERCENT, percent=percent)

    assert result == deposit
    assert result.as_tuple().exponent == -2


@pytest.mark.parametrize(
    ("rule", "fields"),
    [
        pytest.param(DepositRule.NONE, {}, id="over no business deposit"),
        pytest.param(DepositRule.FIXED, {"fixed_amount": Decimal("15.00")}, id="over a fixed one"),
        pytest.param(DepositRule.PERCENT, {"percent": 50}, id="over a percent"),
    ],
)
def test_the_services_own_deposit_wins(rule, fields):
    assert due(rule=rule, service_override=Decimal("7.50"), **fields) == Decimal("7.50")


@pytest.mark.parametrize(
    ("rule", "fields"),
    [
        pytest.param(DepositRule.FIXED, {"fixed_amount": Decimal("15.00")}, id="fixed"),
        pytest.param(DepositRule.PERCENT, {"percent": 50}, id="percent"),
    ],
)
def test_a_service_deposit_of_zero_means_none_whatever_the_business_asks(rule, fields):
    assert due(rule=rule, service_override=Decimal("0.00"), **fields) == Decimal("0")


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param({"rule": DepositRule.FIXED, "fixed_amount": Decimal("80.00")}, id="fixed"),
        pytest.param({"service_override": Decimal("99.99")}, id="service's own"),
    ],
)
def test_a_deposit_is_never_more_than_the_price(fields):
    assert due(**fields) == PRICE


def test_a_deposit_is_never_negative():
    assert due(service_override=Decimal("-5.00")) == Decimal("0")


def test_a_free_appointment_asks_no_deposit():
    assert due(price=Decimal("0.00"), rule=DepositRule.FIXED, fixed_amount=Decimal("15.00")) == 0


def test_a_rule_missing_its_figure_asks_nothing():
    # The database refuses such a business (business_deposit_rule_consistent); the policy
    # still answers something safe.
    assert due(rule=DepositRule.FIXED) == 0
    assert due(rule=DepositRule.PERCENT) == 0


@pytest.mark.parametrize(
    ("amount", "minor"),
    [
        (Decimal("12.00"), 1200),
        (Decimal("0.01"), 1),
        (Decimal("99999999.99"), 9999999999),
        (Decimal("5.005"), 501),  # half a cent rounds up, as deposits do
        (Decimal("5.004"), 500),
    ],
)
def test_amounts_go_to_stripe_in_integer_minor_units(amount, minor):
    assert to_minor_units(amount) == minor
    assert isinstance(to_minor_units(amount), int)


def test_minor_units_come_back_to_the_cent():
    assert from_minor_units(1200) == Decimal("12.00")
    assert str(from_minor_units(1)) == "0.01"


@given(st.decimals(min_value=0, max_value=Decimal("99999999.99"), places=2))
def test_minor_units_round_trip_every_amount_to_the_cent(amount):
    assert from_minor_units(to_minor_units(amount)) == amount


@given(
    price=st.decimals(min_value=0, max_value=Decimal("99999999.99"), places=2),
    percent=st.integers(1, 100),
    override=st.none() | st.decimals(min_value=0, max_value=Decimal("99999999.99"), places=2),
)
def test_any_deposit_is_between_zero_and_the_price_in_whole_cents(price, percent, override):
    result = due(price=price, rule=DepositRule.PERCENT, percent=percent, service_override=override)

    assert 0 <= result <= price
    assert result == result.quantize(Decimal("0.01"))
