"""Every new business gets its assistant's default grants, however it is created.

A business is created in the dashboard, by ``Business.objects.create`` in a command or a
script, by a fixture, by an import. Without grants its assistant can do nothing, and nothing
says why — a new business would not work until someone found the hidden step. The booking
core must not know about the assistant (it sits below it), so the assistant listens for the
core's creations here rather than the core calling up into it; a post-save receiver is the one
place every ORM writer passes. (``bulk_create`` does not send it: no writer of businesses
uses it.)
"""

from __future__ import annotations

from typing import Any

from bookings.models import Business


def grant_defaults_to_new_business(
    sender: type[Business], instance: Business, created: bool, raw: bool = False, **_: Any
) -> None:
    if not created or raw:  # loading a fixture writes its own grants, if it has any
        return
    from agent.services import grants_set  # the app registry is ready when this runs

    grants_set(business=instance)
