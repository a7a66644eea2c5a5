from zoneinfo import ZoneInfo

from django.utils import timezone

from bookings.models import Membership

API_PREFIX = "/api/"


class BusinessTimeZoneMiddleware:
    """Dashboard times are shown and read in the signed-in user's business zone, not UTC.

    A user of several businesses sees the zone of the first; appointments themselves are stored
    as UTC instants, so the choice changes presentation only.
    """

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith(API_PREFIX):
            # The public API has no users and must not touch the session (no cookies).
            return self.get_response(request)
        zone = None
        if request.user.is_authenticated:
            zone = (
                Membership.objects.filter(user=request.user)
                .order_by("business_id")
                .values_list("business__time_zone", flat=True)
                .first()
            )
        if zone:
            timezone.activate(ZoneInfo(zone))
        else:
            timezone.deactivate()
        return self.get_response(request)
