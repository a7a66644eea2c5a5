"""Owners connect a calendar in the dashboard; synced busy blocks are not editable there."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from bookings.models import BusyBlock, CalendarFeed
from tests.factories import BusyBlockFactory, owner_of


def test_a_webcal_link_is_stored_as_https(business):
    feed = CalendarFeed(business=business, url="webcal://calendar.example/owner/basic.ics")

    feed.full_clean()

    assert feed.url == "https://calendar.example/owner/basic.ics"


@pytest.mark.parametrize("url", ["ftp://calendar.example/a.ics", "file:///etc/passwd"])
def test_a_feed_address_must_be_http_or_https(business, url):
    with pytest.raises(ValidationError) as refusal:
        CalendarFeed(business=business, url=url).full_clean()

    assert "url" in refusal.value.message_dict


def test_synced_blocks_are_read_only_and_hand_entered_ones_editable(login, business):
    feed = CalendarFeed.objects.create(business=business, url="https://calendar.example/a.ics")
    synced = BusyBlockFactory(business=business, feed=feed, summary="From the calendar")
    by_hand = BusyBlockFactory(business=business, summary="Lunch")
    http = login(owner_of(business))

    synced_page = http.get(reverse("admin:bookings_busyblock_change", args=[synced.pk]))
    hand_page = http.get(reverse("admin:bookings_busyblock_change", args=[by_hand.pk]))
    delete = http.post(
        reverse("admin:bookings_busyblock_delete", args=[synced.pk]), {"post": "yes"}
    )

    assert synced_page.context["has_change_permission"] is False
    assert hand_page.context["has_change_permission"] is True
    assert delete.status_code == 403
    assert BusyBlock.objects.filter(pk=synced.pk).exists()
