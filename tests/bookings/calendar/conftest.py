"""A real HTTP server on 127.0.0.1 serving the ICS files under ``feeds/``, plus the ways a feed
fails in the wild: a missing page, a server too slow to answer or trickling its answer, a body
with no declared length, a redirect to a local file."""

import contextlib
import datetime as dt
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bookings.models import Business, CalendarFeed
from tests.factories import BusinessFactory

FEEDS = Path(__file__).parent / "feeds"

# Monday 2 March 2026, 09:00 in Berlin. The horizon (60 days) crosses the change to summer
# time on Sunday 29 March, when Berlin moves from UTC+1 to UTC+2.
NOW = dt.datetime(2026, 3, 2, 8, tzinfo=dt.UTC)
SLOW_ANSWER_SECONDS = 5.0


@dataclass
class FeedServer:
    base_url: str
    requests: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    answer_slow_requests: threading.Event = field(default_factory=threading.Event)

    def url(self, path: str) -> str:
        return f"{self.base_url}/{path}"


class FeedRequestHandler(BaseHTTPRequestHandler):
    server: "FeedHTTPServer"

    def do_GET(self) -> None:
        path = urlsplit(self.path).path.lstrip("/")
        self.server.feeds.requests.append((path, dict(self.headers.items())))
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self.answer(path)  # unless the client gave up first, as the timeout tests intend

    def answer(self, path: str) -> None:
        if path == "slow.ics":
            self.server.feeds.answer_slow_requests.wait(SLOW_ANSWER_SECONDS)
            self.send_file(FEEDS / "owner.ics")
        elif path == "trickle.ics":
            body = (FEEDS / "owner.ics").read_bytes()
            self.send_response(200)
            self.send_header("Content-Type", "text/calendar; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            for byte in body:  # each byte well within the socket timeout, the whole far beyond
                if self.server.feeds.answer_slow_requests.wait(0.02):
                    break
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
        elif path == "undeclared-length/owner.ics":
            self.send_response(200)
            self.send_header("Content-Type", "text/calendar; charset=utf-8")
            self.end_headers()
            self.wfile.write((FEEDS / "owner.ics").read_bytes())
        elif path == "redirect-to-file":
            self.send_response(302)
            self.send_header("Location", "file:///etc/passwd")
            self.end_headers()
        elif (FEEDS / path).is_file() and (FEEDS / path).parent == FEEDS:
            self.send_file(FEEDS / path)
        else:
            self.send_error(404)

    def send_file(self, file: Path) -> None:
        body = file.read_bytes()
        kind = "text/html" if file.suffix == ".html" else "text/calendar"
        self.send_response(200)
        self.send_header("Content-Type", f"{kind}; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


class FeedHTTPServer(ThreadingHTTPServer):
    feeds: FeedServer


@pytest.fixture
def feed_server() -> Iterator[FeedServer]:
    server = FeedHTTPServer(("127.0.0.1", 0), FeedRequestHandler)
    host, port = server.server_address[:2]
    server.feeds = FeedServer(base_url=f"http://{host!s}:{port}")
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield server.feeds
    server.feeds.answer_slow_requests.set()
    server.shutdown()
    server.server_close()
    thread.join()


@pytest.fixture
def business(db) -> Business:
    """A Berlin salon booking 60 days ahead."""
    return BusinessFactory(slug="salon-berlin", time_zone="Europe/Berlin", booking_horizon_days=60)


@pytest.fixture
def connect_feed(feed_server):
    """Connect ``business`` to the feed file at ``path`` on the test server."""

    def connect(business: Business, path: str = "owner.ics") -> CalendarFeed:
        return CalendarFeed.objects.create(business=business, url=feed_server.url(path))

    return connect


def utc(month: int, day: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(2026, month, day, hour, minute, tzinfo=dt.UTC)


# What feeds/owner.ics blocks for the Berlin salon at NOW: (start, end, summary, source UID).
OWNER_FEED_BUSY = [
    # all day 27 Feb – 2 Mar: starts before the window, reaches into it, so kept whole
    (utc(2, 26, 23), utc(3, 2, 23), "Hair & beauty conference", "conference@ordina.test#20260227"),
    (
        utc(3, 4, 15),
        utc(3, 4, 15, 30),
        "Call with the supplier",
        "supplier-call@ordina.test#20260304T150000Z",
    ),
    (utc(3, 5, 9), utc(3, 5, 10), "Pilates", "pilates-weekly@ordina.test#20260305T090000Z"),
    # 09:00 in New York the day after the US change to summer time (UTC-4)
    (
        utc(3, 9, 13),
        utc(3, 9, 14),
        "Video call with the New York dentist",
        "dentist@ordina.test#20260309T130000Z",
    ),
    # the RDATE's extra Tuesday; Thursday 12 March is an EXDATE
    (utc(3, 10, 9), utc(3, 10, 10), "Pilates", "pilates-weekly@ordina.test#20260310T090000Z"),
    # the 19 March occurrence moved to 15:00–16:30 (RECURRENCE-ID), still known by its instant
    (
        utc(3, 19, 14),
        utc(3, 19, 15, 30),
        "Pilates (moved to the afternoon)",
        "pilates-weekly@ordina.test#20260319T090000Z",
    ),
    (utc(3, 26, 9), utc(3, 26, 10), "Pilates", "pilates-weekly@ordina.test#20260326T090000Z"),
    # all day on the 23-hour day Berlin springs forward: midnight CET to midnight CEST
    (utc(3, 28, 23), utc(3, 29, 22), "Family day", "family-day@ordina.test#20260329"),
    # 10:00 Berlin is now 08:00 UTC; 9 April is cancelled by its override
    (utc(4, 2, 8), utc(4, 2, 9), "Pilates", "pilates-weekly@ordina.test#20260402T080000Z"),
    # floating 13:00 read as Berlin wall time, in summer time
    (utc(4, 3, 11), utc(4, 3, 12), "Lunch with Rita", "floating-lunch@ordina.test#20260403T130000"),
]
