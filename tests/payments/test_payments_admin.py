"""Payments in the dashboard: owners see only their own business's deposits and refunds and
refund what is left through the policy (against the fake Stripe); Stripe's deliveries are for
Ordina's operators and superusers, read-only for everyone."""

from decimal import Decimal

import pytest
from django.contrib import messages
from django.urls import reverse

from bench.harness import open_salon
from bookings.actors import Actor, ActorKind
from bookings.models import Business, Service
from payments.models import Payment, PaymentStatus, Refund, WebhookEvent, WebhookOutcome
from tests.bookings.conftest import WEDNESDAY, lisbon
from tests.factories import (
    BusinessFactory,
    ServiceFactory,
    UserFactory,
    operator,
    owner_of,
    staff_of,
)

from .test_refunds import deposit_booked, refund, refunds_sent

# The refund action runs through Django 6.1's action API; its deprecated path must not be taken.
pytestmark = pytest.mark.filterwarnings(
    "error::django.utils.deprecation.RemovedInDjango2028Warning"
)

ELEVEN_AM = lisbon(WEDNESDAY, "11:00")
NEVER_COMPLETED = "This payment was never completed, so there is nothing to refund."
FULLY_REFUNDED = "This payment has already been fully refunded."


def admin_url(model, page: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{page}", args=args)


def other_salon() -> tuple[Business, Service]:
    business = open_salon(time_zone="Europe/Lisbon", capacity=1, min_notice_minutes=60)
    return business, ServiceFactory(business=business, name="Colour", duration_minutes=60)


@pytest.fixture
def paid(fake_stripe, salon, haircut, frozen_now) -> Payment:
    """The salon's Wednesday 10:00 haircut, its 12.00 EUR deposit paid."""
    return deposit_booked(fake_stripe, salon, haircut)


@pytest.fixture
def foreign_paid(fake_stripe, frozen_now) -> Payment:
    """Another business's paid deposit, at the same fake Stripe."""
    return deposit_booked(fake_stripe, *other_salon())


def refund_action(http, *payments: Payment):
    return http.post(
        admin_url(Payment, "changelist"),
        {
            "action": "refund_in_full",
            "_selected_action": [payment.pk for payment in payments],
            "index": "0",
        },
        follow=True,
    )


def shown(response) -> list[tuple[int, str]]:
    return [(message.level, message.message) for message in response.context["messages"]]


# --- owners and their business's payments -----------------------------------------------------


def test_owner_lists_only_own_business_payments_and_refunds(paid, foreign_paid, login):
    refund(paid, "2.00")
    refund(foreign_paid, "3.00")
    http = login(owner_of(paid.business))

    payments = http.get(admin_url(Payment, "changelist")).context["cl"].result_list
    refunds = http.get(admin_url(Refund, "changelist")).context["cl"].result_list
    foreign = http.get(admin_url(Payment, "change", foreign_paid.pk))

    assert [payment.pk for payment in payments] == [paid.pk]
    assert [made.payment_id for made in refunds] == [paid.pk]
    assert foreign.status_code == 404


def test_owner_reads_a_payment_but_never_edits_adds_or_deletes_one(paid, login):
    http = login(owner_of(paid.business))

    page = http.get(admin_url(Payment, "change", paid.pk))
    responses = [
        http.post(admin_url(Payment, "change", paid.pk), {"status": "refunded"}),
        http.get(admin_url(Payment, "add")),
        http.post(admin_url(Payment, "delete", paid.pk), {"post": "yes"}),
    ]

    assert page.status_code == 200
    assert page.context["has_change_permission"] is False
    assert [response.status_code for response in responses] == [403, 403, 403]
    paid.refresh_from_db()
    assert paid.status == PaymentStatus.PAID


def test_staff_see_no_payments(paid, login):
    response = login(staff_of(paid.business)).get(admin_url(Payment, "changelist"))

    assert response.status_code == 403


# --- "refund what is left" --------------------------------------------------------------------


def test_owner_is_offered_the_refund_action(paid, login):
    response = login(owner_of(paid.business)).get(admin_url(Payment, "changelist"))

    choices = dict(response.context["action_form"].fields["action"].choices)
    assert choices["refund_in_full"] == "Refund what is left of the selected deposits"


def test_refund_action_refunds_own_deposit_through_the_policy_and_never_another_tenants(
    paid, foreign_paid, fake_stripe, login
):
    owner = owner_of(paid.business)

    response = refund_action(login(owner), paid, foreign_paid)

    assert response.status_code == 200
    paid.refresh_from_db()
    foreign_paid.refresh_from_db()
    assert (paid.status, paid.amount_refunded) == (PaymentStatus.REFUNDED, Decimal("12.00"))
    assert foreign_paid.status == PaymentStatus.PAID
    [made] = Refund.objects.all()
    assert (made.payment, made.amount, made.actor) == (
        paid,
        Decimal("12.00"),
        Actor(ActorKind.OWNER, owner.pk),
    )
    [sent] = refunds_sent(fake_stripe)
    assert sent["headers"]["Idempotency-Key"] == made.idempotency_key
    assert shown(response) == [
        (messages.SUCCESS, f"Refunded 12.00 EUR of the deposit for {paid.appointment}.")
    ]


def test_refund_action_refunds_what_is_left_after_a_partial_refund(paid, fake_stripe, login):
    refund(paid, "5.00")

    refund_action(login(owner_of(paid.business)), paid)

    assert [sent["form"]["amount"] for sent in refunds_sent(fake_stripe)] == ["500", "700"]
    paid.refresh_from_db()
    assert paid.status == PaymentStatus.REFUNDED


def test_refund_action_repeated_is_refused_by_state_with_the_policys_reason(
    paid, fake_stripe, login
):
    http = login(owner_of(paid.business))
    refund_action(http, paid)

    again = refund_action(http, paid)

    assert shown(again) == [(messages.WARNING, f"Deposit for {paid.appointment}: {FULLY_REFUNDED}")]
    assert len(refunds_sent(fake_stripe)) == 1
    assert Refund.objects.count() == 1


def test_refund_action_on_an_unpaid_deposit_shows_the_policys_reason(
    fake_stripe, salon, haircut, frozen_now, login
):
    pending = deposit_booked(fake_stripe, salon, haircut, start=ELEVEN_AM, paid=False)

    response = refund_action(login(owner_of(salon)), pending)

    assert shown(response) == [
        (messages.WARNING, f"Deposit for {pending.appointment}: {NEVER_COMPLETED}")
    ]
    assert refunds_sent(fake_stripe) == []
    assert not Refund.objects.exists()


def test_refund_action_with_stripe_down_records_nothing_and_says_so(paid, fake_stripe, login):
    fake_stripe.fail_next = 3  # the SDK's first try and both retries

    response = refund_action(login(owner_of(paid.business)), paid)

    [(level, text)] = shown(response)
    assert level == messages.ERROR
    assert text.startswith(f"Deposit for {paid.appointment}: Stripe refused the refund")
    assert not Refund.objects.exists()
    paid.refresh_from_db()
    assert paid.status == PaymentStatus.PAID


def test_superuser_refunds_any_business_deposit(paid, foreign_paid, fake_stripe, login):
    refund_action(login(UserFactory(is_superuser=True)), paid, foreign_paid)

    assert set(Payment.objects.values_list("status", flat=True)) == {PaymentStatus.REFUNDED}
    assert len(refunds_sent(fake_stripe)) == 2


# --- Stripe's deliveries: operators and superusers, read-only -----------------------------------


@pytest.fixture
def delivery(db) -> WebhookEvent:
    return WebhookEvent.objects.create(
        stripe_event_id="evt_test_000001",
        type="checkout.session.completed",
        payload={"id": "evt_test_000001", "type": "checkout.session.completed"},
        outcome=WebhookOutcome.PROCESSED,
    )


@pytest.mark.parametrize(
    "who",
    [
        pytest.param(lambda: operator(), id="operator"),
        pytest.param(lambda: UserFactory(is_superuser=True), id="superuser"),
    ],
)
def test_operators_and_superusers_read_stripes_deliveries(who, delivery, login):
    http = login(who())

    listed = http.get(admin_url(WebhookEvent, "changelist"))
    page = http.get(admin_url(WebhookEvent, "change", delivery.pk))

    assert listed.status_code == 200
    assert [event.pk for event in listed.context["cl"].result_list] == [delivery.pk]
    assert page.status_code == 200
    assert page.context["has_change_permission"] is False


@pytest.mark.parametrize(
    "who",
    [
        pytest.param(lambda: operator(), id="operator"),
        pytest.param(lambda: UserFactory(is_superuser=True), id="superuser"),
    ],
)
def test_nobody_adds_changes_or_deletes_a_delivery(who, delivery, login):
    http = login(who())

    responses = [
        http.post(admin_url(WebhookEvent, "change", delivery.pk), {"outcome": "failed"}),
        http.get(admin_url(WebhookEvent, "add")),
        http.get(admin_url(WebhookEvent, "delete", delivery.pk)),
        http.post(admin_url(WebhookEvent, "delete", delivery.pk), {"post": "yes"}),
        http.post(
            admin_url(WebhookEvent, "changelist"),
            {"action": "delete_selected", "_selected_action": [delivery.pk], "post": "yes"},
        ),
    ]

    assert [response.status_code for response in responses[:4]] == [403, 403, 403, 403]
    # No delete action is offered: the changelist answers without deleting anything.
    assert responses[4].status_code == 200
    delivery.refresh_from_db()
    assert delivery.outcome == WebhookOutcome.PROCESSED


@pytest.mark.parametrize(
    "who",
    [
        pytest.param(lambda business: owner_of(business), id="owner"),
        pytest.param(lambda business: staff_of(business), id="staff"),
        pytest.param(lambda business: UserFactory(is_staff=True), id="staff user, no business"),
    ],
)
def test_owners_and_staff_never_see_stripes_deliveries(who, delivery, login):
    http = login(who(BusinessFactory()))

    responses = [
        http.get(admin_url(WebhookEvent, "changelist")),
        http.get(admin_url(WebhookEvent, "change", delivery.pk)),
    ]

    assert [response.status_code for response in responses] == [403, 403]
