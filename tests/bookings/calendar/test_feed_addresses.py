"""A feed URL is an owner's input the server fetches: only public addresses are reached, and
a refused address says nothing about what answers there — an open port, a closed one, a
silent one, a name or a literal address all get the same words, before any connection."""

import socket
from collections.abc import Iterator

import pytest

import bookings.calendar_fetch
from bookings.calendar_fetch import FeedUnreadable, fetch_feed, is_public_address
from bookings.calendar_sync import calendar_sync
from bookings.models import BusyBlock
from tests.factories import BusyBlockFactory

REFUSED = (
    "Could not read the calendar feed: the address is not on the public internet; only public "
    "addresses are fetched."
)


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

    with pytest.raises(FeedUnreadable) as refusal:
        fetch_feed(feed_server.url("owner.ics"))

    assert refusal.value.message == REFUSED
    assert feed_server.requests == []


def test_a_sync_pointed_inside_the_network_records_why_and_keeps_the_blocks(
    settings, business, connect_feed
):
    settings.CALENDAR_FEEDS_ALLOW_PRIVATE_ADDRESSES = False
    feed = connect_feed(business, "owner.ics")
    kept = BusyBlockFactory(business=business, feed=feed)

    result = calendar_sync(feed)

    assert result.error == REFUSED
    feed.refresh_from_db()
    assert feed.last_error == REFUSED
    assert list(BusyBlock.objects.filter(feed=feed)) == [kept]


# --- the same words for every refused address, and no connection to any ---------------------


@pytest.fixture
def open_port() -> Iterator[socket.socket]:
    """A port on 127.0.0.1 that accepts connections; it counts them as ``accept`` would."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.setblocking(False)
    yield listener
    listener.close()


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port on 127.0.0.1 that refuses connections: bound (so no one else takes it), never
    listening."""
    holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    holder.bind(("127.0.0.1", 0))
    yield holder.getsockname()[1]
    holder.close()


def connections_made_to(listener: socket.socket) -> int:
    # The kernel completes a connection before anyone accepts it, so even a client that gave
    # up at once leaves one here to count.
    count = 0
    while True:
        try:
            accepted, _ = listener.accept()
        except BlockingIOError:
            return count
        accepted.close()
        count += 1


@pytest.mark.parametrize(
    "where",
    [
        "open port, literal address",
        "closed port, literal address",
        "private address nothing answers",
        "host name resolving to loopback",
        "IPv6 loopback",
        "https to an open port",
    ],
)
def test_every_refused_address_gets_the_same_words_and_no_connection_is_made(
    settings, open_port, closed_port, where
):
    # Given the guard is on, and a local server listening on an open port
    settings.CALENDAR_FEEDS_ALLOW_PRIVATE_ADDRESSES = False
    port = open_port.getsockname()[1]
    url = {
        "open port, literal address": f"http://127.0.0.1:{port}/owner.ics",
        "closed port, literal address": f"http://127.0.0.1:{closed_port}/owner.ics",
        # Nothing answers there: without the check first, this would wait for the timeout.
        "private address nothing answers": f"http://10.255.255.1:{port}/owner.ics",
        "host name resolving to loopback": f"http://localhost:{port}/owner.ics",
        "IPv6 loopback": f"http://[::1]:{port}/owner.ics",
        "https to an open port": f"https://127.0.0.1:{port}/owner.ics",
    }[where]

    # When the feed is fetched
    with pytest.raises(FeedUnreadable) as refusal:
        fetch_feed(url, timeout=2)

    # Then the owner reads the same words wherever it pointed, and nothing was connected to
    assert refusal.value.message == REFUSED
    assert connections_made_to(open_port) == 0


def test_a_documentation_address_is_refused_like_any_other_that_is_not_public(settings):
    settings.CALENDAR_FEEDS_ALLOW_PRIVATE_ADDRESSES = False

    with pytest.raises(FeedUnreadable) as refusal:
        fetch_feed("http://192.0.2.1/owner.ics", timeout=0.5)  # TEST-NET-1, never routed

    assert refusal.value.message == REFUSED


# --- a name is resolved once: the address checked is the address connected to -------------


@pytest.fixture
def rebinding_name(monkeypatch) -> str:
    """A host name whose DNS answer changes under the fetch, as a rebinding attack's does: the
    first answer is 127.0.0.1 ("public" here), every later one 127.0.0.2 (inside)."""
    name = "feeds.rebinding.test"
    real_getaddrinfo = socket.getaddrinfo
    answers = iter(["127.0.0.1"])

    def resolve(host, port, *args, **kwargs):
        if host == name:
            return real_getaddrinfo(next(answers, "127.0.0.2"), port, *args, **kwargs)
        return real_getaddrinfo(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    return name


@pytest.fixture
def inner_port(feed_server) -> Iterator[socket.socket]:
    """A listener on 127.0.0.2 at the feed server's port: where the second answer leads."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.2", int(feed_server.base_url.rsplit(":", 1)[1])))
    listener.listen(8)
    listener.setblocking(False)
    yield listener
    listener.close()


def test_the_address_connected_to_is_the_one_checked_whatever_a_second_lookup_says(
    settings, monkeypatch, feed_server, rebinding_name, inner_port
):
    # Given 127.0.0.1 plays the public internet, and a name that resolves there first
    settings.CALENDAR_FEEDS_ALLOW_PRIVATE_ADDRESSES = False
    monkeypatch.setattr(
        bookings.calendar_fetch, "is_public_address", lambda address: address == "127.0.0.1"
    )
    port = feed_server.base_url.rsplit(":", 1)[1]

    # When the feed at that name is fetched
    body = fetch_feed(f"http://{rebinding_name}:{port}/owner.ics", timeout=2)

    # Then it came from the checked address, and the address the name moved to saw nothing
    assert body.startswith(b"BEGIN:VCALENDAR")
    assert [path for path, _ in feed_server.requests] == ["owner.ics"]
    assert connections_made_to(inner_port) == 0


@pytest.mark.parametrize(
    "url",
    ["http://" + "a" * 64 + ".example/owner.ics", "http://[::1/owner.ics"],
    ids=["label over 63 characters", "IPv6 address left open"],
)
def test_an_address_that_is_not_a_web_address_is_refused_with_the_reason(url):
    with pytest.raises(FeedUnreadable) as refusal:
        fetch_feed(url, timeout=1)

    assert refusal.value.message == (
        "Could not read the calendar feed: the address is not a valid web address."
    )
