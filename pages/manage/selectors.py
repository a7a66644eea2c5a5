"""Reads for the appointment page: the appointment a token opens, and the facts the page words
— its deposit, the business's refund terms, what the refund policy would let the business
refund today, whether the client may still change it, how often it has changed. Reads only:
every change goes through ``bookings.services``.
"""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from api.lookups import appointment_for_token_or_404
from bookings.lifecycle import change_refusal
from bookings.models import Appointment, AppointmentEvent, AppointmentEventKind, AppointmentStatus
from payments.deposits import deposit_due
from payments.models import Payment, PaymentStatus
from payments.refund_policy import RefundRequest, refund_refusal
from payments.services.refunds import refund_state

from .terms import RefundPolicy, refund_deadline
from .wording import Deposit

# The changes a calendar that imported the appointment must take over from a newer copy.
CALENDAR_CHANGES = (AppointmentEventKind.RESCHEDULED, AppointmentEventKind.CANCELLED)


@dataclass(frozen=True)
class ManagedAppointment:
    appointment: Appointment
    deposit: Deposit | None
    pay_url: str  # where a deposit still awaited can be paid now; "" otherwise
    policy: RefundPolicy
    refundable_now: Decimal  # what the refund policy lets the business refund today
    refund_deadline: dt.datetime
    change_refusal: str | None  # why the client may not cancel or move it now; None: they may

    @property
    def changeable(self) -> bool:
        return self.change_refusal is None

    @property
    def time_zone(self) -> str:
        return self.appointment.business.time_zone


def appointment_for_token(token: str, *, now: dt.datetime) -> Appointment:
    """The appointment, or Http404 — the same for an unknown, malformed or expired token."""
    return appointment_for_token_or_404(token, now=now)


def managed(appointment: Appointment, *, now: dt.datetime) -> ManagedAppointment:
    business = appointment.business
    payment = Payment.objects.filter(appointment=appointment).first()
    deposit = (
        None
        if payment is None
        else Deposit(
            amount=payment.amount,
            currency=payment.currency,
            status=payment.status,
            refunded=payment.amount_refunded,
            expires_at=payment.expires_at,
        )
    )
    service = appointment.service
    asks_deposits = deposit_due(
        price=appointment.price,
        rule=business.deposit_rule,
        fixed_amount=business.deposit_amount,
        percent=business.deposit_percent,
        service_override=service.deposit_amount,
    ) > Decimal("0")
    return ManagedAppointment(
        appointment=appointment,
        deposit=deposit,
        pay_url=_pay_url(appointment, payment, now),
        policy=RefundPolicy(
            business=business.name,
            currency=business.currency,
            window_days=business.refund_window_days,
            max_refund=business.max_refund,
            asks_deposits=asks_deposits,
        ),
        refundable_now=_refundable_now(appointment, payment, now),
        refund_deadline=refund_deadline(
            visit_ends_at=appointment.ends_at, window_days=business.refund_window_days
        ),
        change_refusal=change_refusal(appointment.status, appointment.starts_at, now),
    )


def _pay_url(appointment: Appointment, payment: Payment | None, now: dt.datetime) -> str:
    awaiting = appointment.status == AppointmentStatus.PENDING_PAYMENT
    if not awaiting or payment is None or payment.status != PaymentStatus.PENDING:
        return ""
    if payment.expires_at <= now:
        return ""
    return payment.checkout_url


def _refundable_now(appointment: Appointment, payment: Payment | None, now: dt.datetime) -> Decimal:
    """The most one refund could give back today under the business's policy: what is left,
    capped at its maximum — if the policy lets that refund go out at all."""
    if payment is None:
        return Decimal("0")
    left = payment.amount - payment.amount_refunded
    cap = appointment.business.max_refund
    wanted = left if cap is None else min(left, cap)
    if wanted <= 0:
        return Decimal("0")
    if refund_refusal(RefundRequest(wanted, now), refund_state(appointment, payment)):
        return Decimal("0")
    return wanted


def calendar_sequence(appointment: Appointment) -> int:
    """The iCalendar SEQUENCE: how many times the appointment was moved or cancelled. Its
    history is append-only, so the number only grows, as calendars require."""
    return AppointmentEvent.objects.filter(
        appointment=appointment, kind__in=CALENDAR_CHANGES
    ).count()
