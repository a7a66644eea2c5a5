"""The hosted booking page, ``/b/<slug>/``: one business's chat with its assistant and its
"pick a time" view, in the business's language.

The view only finds the business and hands the page what it shows before any script runs
(its name, its services) and what the script needs to start (``script_settings``). It renders
nothing of any conversation: the script reads that from the public API with the token it keeps
in the browser, so no transcript ever sits in an HTML response. The same page is where Stripe
Checkout sends the client back (``?payment=returned|cancelled``), and the page the embed opens
in its iframe: who may frame it is pages.embed's decision (``framable_by_embedding_sites``).
"""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone, translation

from api.lookups import SLUG
from bookings.models import Business
from pages.embed.framing import framable_by_embedding_sites

from .settings_for_script import bookable_services_with_deposits, script_settings
from .strings import progress_steps, script_strings


@framable_by_embedding_sites
def booking_page(request: HttpRequest, slug: str) -> HttpResponse:
    business = Business.objects.filter(slug=slug).first() if SLUG.fullmatch(slug) else None
    if business is None:
        return render(request, "pages/not_found.html", status=404)
    with translation.override(business.language):
        services = bookable_services_with_deposits(business=business)
        context = {
            "business": business,
            "services": services,
            "settings_for_script": script_settings(
                business=business, services=services, now=timezone.now()
            ),
            "strings": script_strings(),
            "steps": progress_steps(),
        }
        return render(request, "pages/booking.html", context)
