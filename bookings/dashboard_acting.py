"""Who a dashboard user acts as at a business: the role of their membership there (an owner is
an owner, a staff member is staff), or an Ordina operator for a superuser who has none. Every
dashboard write into the booking core or payments names its actor through here."""

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from bookings.actors import Actor, ActorKind
from bookings.models import Role
from bookings.scoped_admin import tenant_access


def dashboard_actor(request: HttpRequest, business_id: int) -> Actor:
    """The actor ``request.user`` is at ``business_id`` (read once per request with the rest of
    their roles). Raises PermissionDenied for a user with no standing there — the scoping has
    already refused them, so reaching this is a bug, not a case to record vaguely."""
    role = tenant_access(request).roles.get(business_id)
    if role is not None:
        return Actor.of_user(request.user, role)
    if request.user.is_superuser:
        return Actor.of_user(request.user, ActorKind.OPERATOR)
    raise PermissionDenied("You have no role at this business.")


def offers_walk_ins(request: HttpRequest) -> bool:
    """Whether the user's add form offers the walk-in override: they own some business. Which
    business a booking is for is chosen in the form; the core checks they own that one."""
    return Role.OWNER in tenant_access(request).roles.values()
