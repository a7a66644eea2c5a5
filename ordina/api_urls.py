"""The public API, version 1: the booking endpoints (api.booking_urls) and the chat's
(api.chat_urls), composed here at the top so that neither app imports the other's views. Every
path under it that names no endpoint answers a JSON 404."""

from django.urls import re_path

from api.booking_urls import routes as booking_routes
from api.chat_urls import routes as chat_routes
from api.errors import not_found

app_name = "api_v1"

urlpatterns = [*booking_routes, *chat_routes, re_path(r"", not_found)]
