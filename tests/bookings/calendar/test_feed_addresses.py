"""A feed URL is an owner's input the server fetches: only public addresses are reached."""

import pytest

from bookings.calendar_fetch import FeedUnreadable, fetch_feed, is_public_address
from bookings.calendar_sync import calendar_sync
from bookings.models import BusyBlock
from tests.factories import BusyBlockFactory


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.1.2.3",
        "172.16.0.9",
        "192.168.1.1",
        "169.254.169.254",  # cloud metadata
        "100.64.0.1",
        "0.0.0.0",  # noqa: S104
        "::1",
        "fe80::1",
        "fd00::1",
        "::ffff:127.0.0.1",
        "224.0.0.1",
    ],
)
def test_loopback_private_link_local_and_multicast_addresses_are_not_public(address):
    assert not is_public_address(address)


@pytest.mark.parametrize("address", ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"])
def test_internet_addresses_are_public(address):
    assert is_public_address(address)


def test_fetching_from_a_private_address_is_refused_before_anything_is_sent(settings, feed_server):
    settings.CALENDAR_FEEDS_ALLOW_PRIVATE_ADDRESSES = False

    with pytest.raises(FeedUnreadable, match="not a public internet address"):
        fetch_feed(feed_server.url("owner.ics"))

    assert feed_server.requests == []


def test_a_sync_pointed_inside_the_network_records_why_and_keeps_the_blocks(
    settings, business, connect_feed
):
    settings.CALENDAR_FEEDS_ALLOW_PRIVATE_ADDRESSES = False
    feed = connect_feed(business, "owner.ics")
    kept = BusyBlockFactory(business=business, feed=feed)

    result = calendar_sync(feed)

    assert "not a public internet address" in result.error
    feed.refresh_from_db()
    assert "not a public internet address" in feed.last_error
    assert list(BusyBlock.objects.filter(feed=feed)) == [kept]
