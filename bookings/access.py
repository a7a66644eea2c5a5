"""Who may do what in the dashboard, decided from plain values: a role at a business, a model
label and an action. No database here; ``bookings.scoped_admin`` applies it to requests."""

from collections.abc import Iterable, Mapping
from enum import StrEnum

OPERATORS_GROUP = "Operators"


class Action(StrEnum):
    VIEW = "view"
    ADD = "add"
    CHANGE = "change"
    DELETE = "delete"


READ = frozenset({Action.VIEW})
EDIT = frozenset({Action.VIEW, Action.ADD, Action.CHANGE})
FULL = frozenset(Action)

# What each membership role (bookings.models.Role values) may do with its own business's rows.
# Anything not listed is refused. Appointments are never deleted (they are cancelled, so their
# history stays); memberships are granted by Ordina, not by owners, who would otherwise need to
# browse every user account.
ROLE_GRANTS: Mapping[str, Mapping[str, frozenset[Action]]] = {
    "owner": {
        "bookings.business": frozenset({Action.VIEW, Action.CHANGE}),
        "bookings.membership": READ,
        "bookings.openinghours": FULL,
        "bookings.dateoverride": FULL,
        "bookings.busyblock": FULL,
        "bookings.calendarfeed": FULL,
        "bookings.slothold": READ,
        "bookings.service": FULL,
        "bookings.client": EDIT,
        "bookings.appointment": EDIT,
        "bookings.appointmentevent": READ,
        "reminders.reminder": READ,
        "reminders.remindersetting": FULL,
        # Payments' rows are never edited by hand; CHANGE here means "may refund".
        "payments.payment": frozenset({Action.VIEW, Action.CHANGE}),
        "payments.refund": READ,
        # The assistant's grants are the owner's decision; its audit log is only ever read.
        "agent.agentgrant": FULL,
        "agent.auditentry": READ,
        # CHANGE here means "may reply in the conversation"; its record is never edited.
        "agent.conversation": frozenset({Action.VIEW, Action.CHANGE}),
        # A conversation's transcript, on its page: what was said is never edited.
        "agent.message": READ,
        "agent.guardrewrite": READ,
        # What the assistant may talk from: the owner's to write, as the business's own words.
        "knowledge.knowledgesource": FULL,
        # The booking funnel and its money figures (analytics/): the owner's to read.
        "analytics.funnel": READ,
    },
    "staff": {
        "bookings.business": READ,
        "bookings.openinghours": READ,
        "bookings.dateoverride": READ,
        "bookings.busyblock": FULL,
        "bookings.calendarfeed": READ,
        "bookings.slothold": READ,
        "bookings.service": READ,
        "bookings.client": EDIT,
        "bookings.appointment": EDIT,
        "bookings.appointmentevent": READ,
        "reminders.reminder": READ,
        "reminders.remindersetting": READ,
        "agent.agentgrant": READ,
        "agent.auditentry": READ,
        "agent.conversation": frozenset({Action.VIEW, Action.CHANGE}),  # may reply
        "agent.message": READ,
        "agent.guardrewrite": READ,
        "knowledge.knowledgesource": READ,
    },
}

# Audit data Ordina's operators browse across every business, and only read.
OPERATOR_READABLE: frozenset[str] = frozenset(
    {
        "bookings.appointmentevent",
        "payments.webhookevent",
        "agent.auditentry",
        "agent.guardrewrite",
    }
)


def role_allows(role: str | None, model_label: str, action: Action) -> bool:
    if role is None:
        return False
    return action in ROLE_GRANTS.get(role, {}).get(model_label, frozenset())


def operator_allows(model_label: str, action: Action) -> bool:
    return action == Action.VIEW and model_label in OPERATOR_READABLE


def businesses_allowing(
    roles: Mapping[int, str], model_label: str, actions: Iterable[Action]
) -> set[int]:
    """The ids of the businesses where ``roles`` (business id → role) allow any of ``actions``."""
    wanted = tuple(actions)
    return {
        business_id
        for business_id, role in roles.items()
        if any(role_allows(role, model_label, action) for action in wanted)
    }
