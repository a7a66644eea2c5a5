"""The capstone's world mapped onto Ordina: a business with a 30-day refund window and a
100.00 maximum refund, and paid deposit appointments standing for the capstone's orders.

Everything is built through the real services — booking, Stripe Checkout, payment
verification, refund — against whatever Stripe settings point at (the capstone command points
them at a local fake Stripe), so the state the gates read is the state Ordina itself keeps.
"""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from django.utils import timezone

from agent.models import AppointmentReference
from agent.services import grants_set
from bookings.actors import Actor
from bookings.models import AppointmentStatus, Business, DepositRule, OpeningHours, Service, Weekday
from bookings.services import ClientDetails
from orchestration.appointment_changes import appointment_create
from orchestration.deposit_settlement import deposit_checkout_open, payment_verify
from payments.services import refund_issue

PROPOSALS = Path(__file__).with_name("proposals.jsonl")
SLUG = "mercado"
GRANTS = frozenset({"refund", "escalate_to_human", "send_message"})


@dataclass(frozen=True)
class Order:
    reference: str
    total: Decimal
    days_since_visit: int
    refunded: bool


ORDERS = (
    Order("A-1001", Decimal("50.00"), 3, refunded=False),
    Order("A-1002", Decimal("120.00"), 45, refunded=False),
    Order("A-1003", Decimal("30.00"), 5, refunded=True),
    Order("A-1005", Decimal("75.00"), 8, refunded=False),
)  # A-9999 is the model's hallucination: no appointment carries it.


def capstone_world(*, pay, now: dt.datetime | None = None) -> Business:
    """Build the business and its orders. ``pay(checkout_session_id)`` is the client paying
    at Stripe (the fake Stripe's ``pay``)."""
    now = now or timezone.now()
    business = Business.objects.create(
        slug=SLUG,
        name="Mercado",
        time_zone="UTC",
        country="PT",
        currency="EUR",
        refund_window_days=30,
        max_refund=Decimal("100.00"),
        deposit_rule=DepositRule.PERCENT,
        deposit_percent=100,
    )
    for weekday in Weekday:
        OpeningHours.objects.create(
            business=business, weekday=weekday, opens_at=dt.time(9), closes_at=dt.time(18)
        )
    grants_set(business=business, actions=GRANTS)
    for order in ORDERS:
        _paid_order(business, order, now, pay)
    return business


def _paid_order(business: Business, order: Order, now: dt.datetime, pay) -> None:
    service = Service.objects.create(
        business=business,
        name=f"Order {order.reference}",
        duration_minutes=30,
        list_price=order.total,
        price_floor=order.total,
    )
    day = (now - dt.timedelta(days=order.days_since_visit)).date()
    start = dt.datetime.combine(day, dt.time(10), tzinfo=dt.UTC)
    booked_at = start - dt.timedelta(days=1)
    appointment = appointment_create(
        service=service,
        start=start,
        client=ClientDetails(name=f"Client of {order.reference}", email="client@example.com"),
        status=AppointmentStatus.PENDING_PAYMENT,
        now=booked_at,
    ).appointment
    checkout = deposit_checkout_open(appointment=appointment, now=booked_at)
    assert checkout is not None, "the deposit is the whole price"
    pay(checkout.payment.checkout_session_id)
    payment_verify(checkout.payment, now=booked_at)
    AppointmentReference.objects.create(
        business=business, appointment=appointment, reference=order.reference
    )
    if order.refunded:
        refund_issue(
            appointment=appointment,
            amount=order.total,
            actor=Actor.system(),
            reason="refunded before the batch",
            now=now,
        )
