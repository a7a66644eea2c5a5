""" "Ask the assistant about this appointment": from the client's own manage page, a chat with
the business's assistant about that appointment, chosen already, so they can ask "move it to
Friday" or "is it paid?" without a code.

The manage token proves the appointment — whoever holds it can already cancel or move it on the
manage page — but not its client: anyone who books with an address is sent a link. So the chat
may act on this appointment alone; it is not linked to the client and reaches none of their
other bookings (a code to the address on file does that).

The manage token must not reach the booking page, so the press is a POST (the token stays in
the manage page's own path, which sends no Referer), and the booking page is handed only the
new conversation's token, in a cookie that:
- is scoped to that business's booking page (``Path=/b/<slug>/``) and lives two minutes;
- is ``SameSite=Strict``, and the press is refused when the browser says it came from another
  site, so no other site can plant its own verified chat in a visitor's page;
- is read and deleted by the page's script, which keeps the token the way it keeps any
  conversation's (store.js) — never in a URL, a log line or a Referer.
"""

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from agent.verification.service import conversation_start_for_appointment
from bookings.models import Appointment, AppointmentStatus

from .responses import private
from .selectors import appointment_for_token
from .views import in_business_terms

# The booking page's script reads this cookie once (pages/static/pages/booking/store.js).
HANDOFF_COOKIE = "ordina_conversation"
HANDOFF_SECONDS = 120
# What a browser says of where a press came from (Sec-Fetch-Site); none: typed, or no header.
OWN_SITE = {"same-origin", "none"}
# An appointment that is gone from the calendar has nothing left to ask about in a chat.
GONE = {AppointmentStatus.CANCELLED, AppointmentStatus.EXPIRED}


@private
@csrf_exempt
@require_POST
def ask_the_assistant(request: HttpRequest, token: str) -> HttpResponse:
    now = timezone.now()
    appointment = appointment_for_token(token, now=now)
    if _from_another_site(request):
        return _refused(request, appointment, token, status=403)
    if appointment.status in GONE:
        return _refused(request, appointment, token, status=409)
    _conversation, conversation_token = conversation_start_for_appointment(
        appointment=appointment, now=now
    )
    slug = appointment.business.slug
    page = reverse("booking-page", kwargs={"slug": slug})
    response = HttpResponseRedirect(page, status=303)
    response.set_cookie(
        HANDOFF_COOKIE,
        conversation_token,
        max_age=HANDOFF_SECONDS,
        path=page,
        secure=request.is_secure(),
        httponly=False,  # the page's script takes it over
        samesite="Strict",
    )
    return response


def _from_another_site(request: HttpRequest) -> bool:
    """Whether the browser says the press came from another site: by Sec-Fetch-Site, or, from
    a browser that sends none, by an Origin that is not ours (the view is CSRF-exempt: the
    manage token in its path is the key)."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        return site not in OWN_SITE
    origin = request.headers.get("Origin")
    return origin is not None and origin != f"{request.scheme}://{request.get_host()}"


def _refused(
    request: HttpRequest, appointment: Appointment, token: str, *, status: int
) -> HttpResponse:
    business = appointment.business
    with in_business_terms(appointment):
        if status == 403:
            why = gettext(
                "The assistant can be opened only from this appointment's own page. Open the "
                "link from your confirmation email and press the button there."
            )
        else:
            why = gettext(
                "This appointment is no longer booked, so there is nothing to ask the "
                "assistant about it. You can book again."
            )
        context = {
            "business": business,
            "business_name": business.name,
            "why": why,
            "page_url": reverse("manage:page", kwargs={"token": token}),
            "booking_url": reverse("booking-page", kwargs={"slug": business.slug}),
        }
        return render(request, "pages/manage_assistant_refused.html", context, status=status)
