"""Fetching a connected calendar's feed over the network, for ``bookings.calendar_sync``.

The URL is an owner's input that the server fetches, so the fetch is fenced: http(s) only,
redirects included; a time limit for each read and for the whole answer; a size cap; and no
connection to loopback, private, link-local or otherwise non-public addresses. For the first
request and for every redirect the host name is resolved once, every address it resolves to
is checked, and only a checked address is connected to (no second lookup that a DNS answer
could change in between); TLS still verifies the certificate against the host name.

A refused address is refused before any packet is sent to it, with one message whatever the
address, the port or the name: an owner's URL must not become a scanner that tells open
internal ports from closed ones. Tests that serve feeds from 127.0.0.1 allow private
addresses with CALENDAR_FEEDS_ALLOW_PRIVATE_ADDRESSES.

``fetch_public`` is that fence for any owner-supplied URL (the knowledge base's pages use it
with their own Accept header, User-Agent and size cap); ``fetch_feed`` is the calendar's call.
There is one fence: a second copy would be a second place to forget a rule.
"""

import http.client
import ipaddress
import socket
import ssl
import time
from dataclasses import dataclass
from typing import Any
from urllib.error import HTTPError, URLError
from urllib.parse import urlsplit
from urllib.request import (
    HTTPDefaultErrorHandler,
    HTTPErrorProcessor,
    HTTPHandler,
    HTTPRedirectHandler,
    HTTPSHandler,
    OpenerDirector,
    ProxyHandler,
    Request,
    UnknownHandler,
)

from django.conf import settings

FETCH_TIMEOUT_SECONDS = 15.0
MAX_FEED_BYTES = 5 * 1024 * 1024
USER_AGENT = "Ordina-CalendarSync/1.0 (+busy times for online booking)"


# --- what a sync may fail with -----------------------------------------------------------------


class CalendarFeedError(Exception):
    """A feed that cannot be synced; ``message`` is what the owner reads."""

    prefix = ""

    def __init__(self, detail: str) -> None:
        self.message = f"{self.prefix}{detail}"
        super().__init__(self.message)


class FeedUnreadable(CalendarFeedError):
    prefix = "Could not read the calendar feed: "


class FeedInvalid(CalendarFeedError):
    prefix = "The calendar feed is not valid iCalendar: "


class FeedTooBusy(CalendarFeedError):
    prefix = "The calendar feed cannot be imported: "


# --- where a feed may be fetched from ------------------------------------------------------


class ForbiddenAddress(OSError):
    """The feed's server is not on the public internet."""


# The same words for every refused address: naming the address, the port or how the connection
# went would tell an owner what answers inside the network.
NOT_PUBLIC = "the address is not on the public internet; only public addresses are fetched."


def is_public_address(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def _connect_public_only(
    address: tuple[str, int], timeout: float | None = None, source_address: Any = None
) -> socket.socket:
    """A connection to ``address`` (host, port), made only after every address the host name
    resolves to has been checked, and only to one of those checked addresses."""
    host, port = address
    resolved = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    private_allowed = getattr(settings, "CALENDAR_FEEDS_ALLOW_PRIVATE_ADDRESSES", False)
    # Any non-public answer refuses the name: if one address fails to connect, the next is
    # tried, so a name mixing public and private addresses would reach inside.
    if not private_allowed and not all(is_public_address(str(entry[4][0])) for entry in resolved):
        raise ForbiddenAddress(NOT_PUBLIC)
    return _connect_to_first(resolved, timeout=timeout, source_address=source_address)


def _connect_to_first(
    resolved: list[tuple[Any, ...]], *, timeout: float | None, source_address: Any
) -> socket.socket:
    # socket.create_connection with the addresses already resolved: it would resolve the name
    # again, and a second DNS answer need not be the one that was checked.
    last_error: OSError = OSError("the server name resolved to no address")
    for family, kind, protocol, _, socket_address in resolved:
        sock = socket.socket(family, kind, protocol)
        try:
            if isinstance(timeout, int | float):
                sock.settimeout(timeout)
            if source_address:
                sock.bind(source_address)
            sock.connect(socket_address)
        except OSError as error:
            sock.close()
            last_error = error
            continue
        return sock
    raise last_error


class _GuardedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._create_connection = _connect_public_only


class _GuardedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # The address is checked before TLS starts, so nothing is sent to a refused one; TLS
        # then wraps the pinned connection with the URL's host name (self.host) for SNI and
        # the certificate check, as if the name had been connected to.
        self._create_connection = _connect_public_only


class _GuardedHTTPHandler(HTTPHandler):
    def http_open(self, req):
        return self.do_open(_GuardedHTTPConnection, req)


class _GuardedHTTPSHandler(HTTPSHandler):
    def __init__(self) -> None:
        self._tls = ssl.create_default_context()
        super().__init__(context=self._tls)

    def https_open(self, req):
        return self.do_open(_GuardedHTTPSConnection, req, context=self._tls)


# --- fetching -------------------------------------------------------------------------------


def _opener() -> OpenerDirector:
    """HTTP and HTTPS only, redirects included: no file:, ftp: or data: reachable by redirect."""
    opener = OpenerDirector()
    for handler in (
        # No proxy from the environment: the address guard must see the feed's own server.
        ProxyHandler({}),
        UnknownHandler(),
        _GuardedHTTPHandler(),
        _GuardedHTTPSHandler(),
        HTTPDefaultErrorHandler(),
        HTTPRedirectHandler(),
        HTTPErrorProcessor(),
    ):
        opener.add_handler(handler)
    return opener


class FetchFailed(Exception):
    """A fetch that brought back no body; the message says why, in words an owner can act on."""


NOT_A_WEB_ADDRESS = "the address is not a valid web address."


@dataclass(frozen=True)
class FetchedBody:
    body: bytes
    media_type: str  # lower-case, without parameters ("text/html"); "" when none was declared
    charset: str | None  # as declared in Content-Type, if it was


def fetch_feed(
    url: str, *, timeout: float = FETCH_TIMEOUT_SECONDS, max_bytes: int = MAX_FEED_BYTES
) -> bytes:
    """The body of the calendar feed at ``url``; raises ``FeedUnreadable`` saying why not."""
    try:
        fetched = fetch_public(
            url,
            accept="text/calendar, */*;q=0.5",
            user_agent=USER_AGENT,
            timeout=timeout,
            max_bytes=max_bytes,
        )
    except FetchFailed as failure:
        raise FeedUnreadable(str(failure)) from failure
    return fetched.body


def fetch_public(
    url: str, *, accept: str, user_agent: str, timeout: float, max_bytes: int
) -> FetchedBody:
    """The answer at ``url``, read within ``timeout`` seconds and ``max_bytes`` bytes, from a
    public address only. Raises ``FetchFailed`` saying what went wrong."""
    try:
        scheme = urlsplit(url).scheme.lower()
    except ValueError:  # e.g. "http://[::1/": an IPv6 address left open
        raise FetchFailed(NOT_A_WEB_ADDRESS) from None
    if scheme not in ("http", "https"):
        raise FetchFailed("the address must start with http:// or https://.")
    request = Request(  # noqa: S310 - the scheme is checked above and by the opener
        url, headers={"User-Agent": user_agent, "Accept": accept}
    )
    deadline = time.monotonic() + timeout
    try:
        with _opener().open(request, timeout=timeout) as response:
            declared = response.headers.get("Content-Length", "")
            if declared.isdigit() and int(declared) > max_bytes:
                raise FetchFailed(_too_large(max_bytes))
            body = _read_within(response, max_bytes=max_bytes, deadline=deadline, timeout=timeout)
            return FetchedBody(
                body=body,
                media_type=response.headers.get_content_type() if _declares_type(response) else "",
                charset=response.headers.get_content_charset(),
            )
    except ForbiddenAddress as refusal:
        raise FetchFailed(str(refusal)) from refusal
    except HTTPError as error:
        error.close()
        raise FetchFailed(f"HTTP {error.code} {error.reason}") from error
    except URLError as error:
        if isinstance(error.reason, ForbiddenAddress):
            raise FetchFailed(str(error.reason)) from error
        raise FetchFailed(_describe_network_error(error.reason, url, timeout)) from error
    except (OSError, http.client.HTTPException) as error:
        raise FetchFailed(_describe_network_error(error, url, timeout)) from error
    except ValueError as error:
        # A host name that cannot be encoded for DNS (a label over 63 characters), here or in
        # a redirect's Location.
        raise FetchFailed(NOT_A_WEB_ADDRESS) from error


def _declares_type(response: Any) -> bool:
    # Without a Content-Type, email.message reports "text/plain": that is a guess, not a fact.
    return response.headers.get("Content-Type") is not None


def _read_within(response: Any, *, max_bytes: int, deadline: float, timeout: float) -> bytes:
    # The socket timeout bounds each read; the deadline bounds a server that trickles.
    chunks: list[bytes] = []
    size = 0
    while chunk := response.read1(64 * 1024):  # whatever has arrived, not a full 64 KiB
        size += len(chunk)
        if size > max_bytes:
            raise FetchFailed(_too_large(max_bytes))
        if time.monotonic() > deadline:
            raise FetchFailed(f"the server did not finish answering within {timeout:g} s.")
        chunks.append(chunk)
    return b"".join(chunks)


def _too_large(max_bytes: int) -> str:
    megabytes, rest = divmod(max_bytes, 1024 * 1024)
    size = f"{megabytes} MB" if megabytes and not rest else f"{max_bytes:,} bytes"
    return f"it is larger than {size}."


def _describe_network_error(reason: object, url: str, timeout: float) -> str:
    host = urlsplit(url).hostname or url
    if isinstance(reason, TimeoutError):
        return f"no answer from {host} within {timeout:g} s."
    if isinstance(reason, socket.gaierror):
        return f"the server name {host} could not be found."
    if isinstance(reason, ConnectionRefusedError):
        return f"{host} refused the connection."
    if isinstance(reason, ssl.SSLError):
        return f"the secure connection to {host} failed ({reason.reason or reason})."
    if isinstance(reason, http.client.HTTPException | ConnectionError):
        return f"the connection to {host} broke off ({type(reason).__name__})."
    return f"{reason}"
