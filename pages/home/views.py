"""The server's front door, ``/``: what this address is, for a client who typed it and for an
owner looking for the dashboard. It names no business: booking pages are reached by the link a
business shares, and the list of businesses on a server is theirs to publish, not ours."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def front_door(request: HttpRequest) -> HttpResponse:
    return render(request, "pages/home.html")
