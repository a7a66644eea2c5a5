"""The public API, version 1: the booking endpoints (bookings.api.urls) and the chat's
(agent.routes), composed here at the top so that neither app imports the other's views. Every
path under it that names no endpoint answers a JSON 404."""

from django.urls import re_path

from agent.routes import routes as chat_routes
from bookings.api.errors import not_found
from bookings.api.urls import routes as booking_routes

app_name = "api_v1"

urlpatterns = [*booking_routes, *chat_routes, re_path(r"", not_found)]
