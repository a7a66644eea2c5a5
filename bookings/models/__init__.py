"""The booking domain's tables. Each model's ``business_path`` names the lookup from a row to
its tenant; admin scoping and every tenant filter use it."""

from .appointments import (
    OCCUPYING_STATUSES,
    Appointment,
    AppointmentEvent,
    AppointmentEventKind,
    AppointmentStatus,
)
from .business import Business, Currency, DepositRule, Membership, Role
from .catalog import Service, TermsSource
from .clients import Client, normalize_phone
from .holds import SlotHold
from .negotiation_terms import ConcessionRule
from .schedule import BusyBlock, CalendarFeed, DateOverride, OpeningHours, Weekday

__all__ = [
    "OCCUPYING_STATUSES",
    "Appointment",
    "AppointmentEvent",
    "AppointmentEventKind",
    "AppointmentStatus",
    "Business",
    "BusyBlock",
    "CalendarFeed",
    "Client",
    "ConcessionRule",
    "Currency",
    "DateOverride",
    "DepositRule",
    "Membership",
    "OpeningHours",
    "Role",
    "Service",
    "SlotHold",
    "TermsSource",
    "Weekday",
    "normalize_phone",
]
