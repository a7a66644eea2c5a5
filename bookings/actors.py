"""Who changed an appointment or moved money: a typed actor, one kind per kind of actor.

Every history row (``AppointmentEvent``) and every refund names its actor as a kind and, for a
person of the business or of Ordina, their user account. Callers pass an ``Actor`` built by one
of the constructors below, never a string, so the same actor is the same kind everywhere (the
assistant is ``assistant`` whether it cancels in a chat or proposes a refund).

This module decides what an actor is and how it reads; it does not look anyone up. Which role a
dashboard user acts in is read from their membership by the caller (``bookings.dashboard_acting``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import models


class ActorKind(models.TextChoices):
    # A client: through the widget, a management link, or the Confirm in a chat.
    CLIENT = "client", "The client"
    # People, each with their user account: an owner or a staff member of the business (from
    # their membership there), or one of Ordina's administrators acting in the dashboard.
    OWNER = "owner", "Owner"
    STAFF = "staff", "Staff"
    OPERATOR = "operator", "Ordina"
    # The assistant in a chat, whatever it does there (cancel, move, refund).
    ASSISTANT = "assistant", "The assistant"
    # What Stripe reported about a payment: a verified webhook, or reconciliation asking Stripe
    # directly; also a deposit released because Stripe could not open its checkout.
    PAYMENTS = "payments", "Stripe"
    # Ordina's own scheduled work: a deposit whose time ran out, released by the sweep.
    SYSTEM = "system", "Ordina (scheduled)"


PEOPLE = frozenset({ActorKind.OWNER, ActorKind.STAFF, ActorKind.OPERATOR})
# A membership role (bookings.models.Role values) → the kind its member acts as.
ROLE_KINDS = {"owner": ActorKind.OWNER, "staff": ActorKind.STAFF}


@dataclass(frozen=True)
class Actor:
    """A kind, and the user id for people (owner, staff, operator). Only people carry a user.

    A person without a user id exists only in history written before actors were typed, when
    their account had since been deleted; the constructors below never make one.
    """

    kind: ActorKind
    user_id: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", ActorKind(self.kind))  # refuses an unknown kind
        if self.user_id is not None and self.kind not in PEOPLE:
            raise ValueError(f"A {self.kind.label.lower()} actor has no user account.")

    @classmethod
    def client(cls) -> Actor:
        return cls(ActorKind.CLIENT)

    @classmethod
    def assistant(cls) -> Actor:
        return cls(ActorKind.ASSISTANT)

    @classmethod
    def payments(cls) -> Actor:
        return cls(ActorKind.PAYMENTS)

    @classmethod
    def system(cls) -> Actor:
        return cls(ActorKind.SYSTEM)

    @classmethod
    def of_user(cls, user: Any, role: str) -> Actor:
        """A person acting in ``role``: ``owner`` or ``staff`` (their membership's role at the
        business they act on), or ``operator`` (one of Ordina's administrators)."""
        kind = ActorKind.OPERATOR if role == ActorKind.OPERATOR else ROLE_KINDS.get(role)
        if kind is None:
            raise ValueError(f"Unknown role {role!r}: a person acts as owner, staff or operator.")
        if user is None or user.pk is None:
            raise ValueError("A person acting needs a saved user account.")
        return cls(kind, user.pk)

    def fields(self) -> dict[str, Any]:
        """The model fields that store this actor (``actor_kind``, ``actor_user_id``)."""
        return {"actor_kind": self.kind, "actor_user_id": self.user_id}


# The default actor of the core's public writers (booking, moving, cancelling): the client.
# Anyone else says who they are.
CLIENT = Actor.client()


def actor_label(kind: str, username: str | None) -> str:
    """How the dashboard shows an actor: "Staff: maria", "The assistant", "Stripe"."""
    kind = ActorKind(kind)
    if kind not in PEOPLE:
        return kind.label
    return f"{kind.label}: {username}" if username else f"{kind.label} (account removed)"
