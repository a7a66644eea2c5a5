"""The actor strings written before actors were typed, read as typed actors — for the data
migrations that convert them (bookings 0007, payments 0002) and for nothing else.

Before, history rows and refunds named their actor as free text: "client", "owner:<user id>"
(written for owners and staff alike), "assistant" and "agent" (both the assistant), "stripe",
"payments" and "reconciliation" (facts from Stripe), "sweep" and "system" (scheduled work),
"capstone" (the capstone's setup). ``typed_legacy_actor`` is pure: the caller says which role
a user id has; ``convert_rows`` applies it to a migration's historical model.
"""

from collections.abc import Callable
from typing import Any

from django.conf import settings

from bookings.actors import ActorKind

LEGACY_KINDS: dict[str, ActorKind] = {
    "client": ActorKind.CLIENT,
    "assistant": ActorKind.ASSISTANT,
    "agent": ActorKind.ASSISTANT,
    "stripe": ActorKind.PAYMENTS,
    "payments": ActorKind.PAYMENTS,
    "reconciliation": ActorKind.PAYMENTS,
    "sweep": ActorKind.SYSTEM,
    "system": ActorKind.SYSTEM,
    "capstone": ActorKind.SYSTEM,
}
PERSON_PREFIX = "owner:"


def typed_legacy_actor(
    text: str, *, role_of: Callable[[int], str | None]
) -> tuple[ActorKind, int | None, bool]:
    """``(kind, user id, exact)`` for an old actor string. ``role_of(user_id)`` gives the role
    the user had ("owner", "staff", "operator"), or None when the account no longer exists.
    ``exact`` is False when something was lost — a deleted account, or a string no writer
    used — and the caller should keep the old string beside the row."""
    if text in LEGACY_KINDS:
        return LEGACY_KINDS[text], None, True
    if text.startswith(PERSON_PREFIX) and text[len(PERSON_PREFIX) :].isdigit():
        user_id = int(text[len(PERSON_PREFIX) :])
        role = role_of(user_id)
        if role is None:
            return ActorKind.OWNER, None, False  # what was recorded; the account is gone
        return ActorKind(role), user_id, True
    return ActorKind.SYSTEM, None, False


def legacy_actor_text(kind: str, user_id: int | None) -> str:
    """The old string for a typed actor (to undo the migration)."""
    if kind in (ActorKind.OWNER, ActorKind.STAFF, ActorKind.OPERATOR):
        return f"{PERSON_PREFIX}{user_id}" if user_id is not None else "owner:?"
    return {ActorKind.PAYMENTS: "stripe"}.get(ActorKind(kind), str(kind))


def role_finder(apps: Any, business_id: int) -> Callable[[int], str | None]:
    """For a migration: user id → the role that user acts in at ``business_id`` now (their
    membership's; an Ordina administrator without one is an operator), None for an account
    that no longer exists."""
    Membership = apps.get_model("bookings", "Membership")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))

    def role_of(user_id: int) -> str | None:
        membership = Membership.objects.filter(user_id=user_id, business_id=business_id).first()
        if membership is not None:
            return membership.role
        user = User.objects.filter(pk=user_id).first()
        if user is None:
            return None
        return ActorKind.OPERATOR if user.is_superuser else ActorKind.OWNER

    return role_of


def convert_rows(model: Any, apps: Any) -> None:
    """For a migration: type the actor of every row of the historical ``model`` (it has the old
    ``actor``, ``business_id`` and the new ``actor_kind``/``actor_user``), one UPDATE per
    distinct (actor, business). Where something was lost and the model has ``data``, the old
    string stays there as ``actor_was``."""
    keeps_data = any(field.name == "data" for field in model._meta.fields)
    pairs = model.objects.values_list("actor", "business_id").distinct().order_by()
    for text, business_id in pairs:
        kind, user_id, exact = typed_legacy_actor(text, role_of=role_finder(apps, business_id))
        rows = model.objects.filter(actor=text, business_id=business_id)
        if exact or not keeps_data:
            rows.update(actor_kind=kind, actor_user_id=user_id)
            continue
        # Each row written once: a second UPDATE of a row in the same transaction queues
        # PostgreSQL's deferred foreign-key checks, which would then forbid the ALTER TABLE
        # that follows in the migration.
        for pk, data in rows.values_list("pk", "data"):
            model.objects.filter(pk=pk).update(
                actor_kind=kind, actor_user_id=user_id, data={**data, "actor_was": text}
            )
