"""The browser tests' world: Debian's Chromium driven by Playwright against a live server on the
test database (real PostgreSQL), each page watched for what a client must never meet.

- ``site``: the live server's base URL; the links the core writes (payment return, manage,
  calendar, rebook) point at it for the test.
- ``page`` / ``open_page``: a fresh browser context per page (desktop 1280×800 or a 390 px
  phone; dark or light). Whatever the test does, its teardown FAILS the test on a console
  error, an uncaught page error, or a request to any host but the live server (and the ones a
  test allows, such as the fake Stripe's pay page) — such requests are also aborted, so no
  test ever reaches the internet.
- ``axe_violations(page)``: axe-core's verdict on the page as it stands.
- ``paying_stripe``: the local fake Stripe with its pay page, delivering the signed webhook to
  the live server (or holding it until the test releases it).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Request, Route, sync_playwright

from devtools.fake_stripe import SECRET_KEY, WEBHOOK_SECRET, FakeStripe, start_fake_stripe

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
SCHEMES = ("dark", "light")


def chromium_executable() -> str:
    """Debian's Chromium ($CHROMIUM if set): `make test`'s service step installs it or fails."""
    import shutil

    found = os.environ.get("CHROMIUM") or shutil.which("chromium")
    if not found:
        pytest.fail(
            "Chromium is not installed: run `make test` (its service step installs Debian's "
            "chromium) or `apt-get install chromium`, or set CHROMIUM.",
            pytrace=False,
        )
    return found


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    # Playwright's sync API keeps an asyncio loop running in this thread for as long as it
    # lives, and Django refuses ORM calls under a running loop unless told they are safe. They
    # are: every query here is synchronous and runs between Playwright's calls.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            launched = playwright.chromium.launch(executable_path=chromium_executable())
            yield launched
            launched.close()
    finally:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


@pytest.fixture
def site(live_server, settings) -> str:
    base = live_server.url
    settings.PUBLIC_URL = base
    settings.PAYMENT_SUCCESS_URL = f"{base}/b/{{slug}}/?payment=returned"
    settings.PAYMENT_CANCEL_URL = f"{base}/b/{{slug}}/?payment=cancelled"
    settings.MANAGE_URL_TEMPLATE = f"{base}/manage/{{token}}/"
    settings.CALENDAR_URL_TEMPLATE = f"{base}/manage/{{token}}/calendar.ics"
    settings.REBOOK_URL_TEMPLATE = f"{base}/b/{{slug}}/"
    # Every page of every test calls from 127.0.0.1, and the throttle's history outlives a test
    # (the process's cache): without this, a run of browser tests meets 429s of its own making.
    # The throttle reads REST_FRAMEWORK's rates (PUBLIC_API_RATE only seeds them at import).
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"public": "10000/minute"},
    }
    return base


@dataclass
class Watch:
    """What the pages of one test did that a client must never meet."""

    allowed_hosts: set[str]
    errors: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    allowed_errors: list[re.Pattern[str]] = field(default_factory=list)

    def allow_host(self, url: str) -> None:
        self.allowed_hosts.add(urlsplit(url).netloc)

    def allow_error(self, pattern: str) -> None:
        """A console error this test provokes on purpose (matched by regex)."""
        self.allowed_errors.append(re.compile(pattern))

    def error(self, text: str) -> None:
        if not any(pattern.search(text) for pattern in self.allowed_errors):
            self.errors.append(text)

    def route(self, route: Route, request: Request) -> None:
        url = urlsplit(request.url)
        if url.scheme in ("data", "blob", "about") or url.netloc in self.allowed_hosts:
            route.continue_()
            return
        self.foreign.append(request.url)
        route.abort()


@pytest.fixture
def watch(site) -> Iterator[Watch]:
    seen = Watch(allowed_hosts={urlsplit(site).netloc})
    yield seen
    assert not seen.errors, f"console or page errors: {seen.errors}"
    assert not seen.foreign, f"requests to hosts other than the server: {seen.foreign}"


@pytest.fixture
def open_page(browser: Browser, watch: Watch) -> Iterator[Callable[..., Page]]:
    """``open_page(viewport="desktop"|"phone", scheme="dark"|"light")``: a watched page in a
    context of its own (its own storage: a second client, or the same one after a restart)."""
    contexts: list[BrowserContext] = []

    def open_one(viewport: str = "desktop", scheme: str = "dark") -> Page:
        context = browser.new_context(
            viewport=VIEWPORTS[viewport],
            color_scheme=scheme,
            reduced_motion="reduce",
            locale="en-GB",
            timezone_id="UTC",
        )
        context.set_default_timeout(10_000)
        context.route("**/*", watch.route)
        contexts.append(context)
        page = context.new_page()
        watch_page(page, watch)
        context.on("page", lambda opened: watch_page(opened, watch))
        return page

    yield open_one
    for context in contexts:
        context.close()


def watch_page(page: Page, watch: Watch) -> None:
    page.on("console", lambda message: message.type == "error" and watch.error(message.text))
    page.on("pageerror", lambda error: watch.error(f"uncaught: {error}"))


@pytest.fixture
def page(open_page) -> Page:
    return open_page()


@pytest.fixture
def axe_violations() -> Callable[[Page], list[dict]]:
    """axe-core run in the page as it stands (every rule axe runs by default: WCAG 2 A/AA and
    best practices); the violations, each with the first nodes it found. axe is evaluated over
    the DevTools protocol, which the page's CSP does not govern: the CSP under test stays on."""
    if not AXE.is_file():
        pytest.fail(
            "axe-core is not installed: run `make test` (its service step runs `npm ci`).",
            pytrace=False,
        )
    source = AXE.read_text()

    def run(page: Page) -> list[dict]:
        # Judged once the page's own scripts have run: a form posted and shown again may still be
        # loading when its text is visible, and the dashboard's sidebar is hidden until its
        # script opens it (a scrollable region with nothing focusable, to axe, in between).
        page.wait_for_load_state("load")
        if not page.evaluate("() => typeof window.axe === 'object'"):
            page.evaluate(source)
        found = page.evaluate(
            """async () => {
                const result = await axe.run(document, {resultTypes: ['violations']});
                return result.violations.map(v => ({
                    id: v.id, impact: v.impact, help: v.help,
                    nodes: v.nodes.slice(0, 3).map(
                        n => n.html.slice(0, 200) + ' — ' + n.failureSummary),
                }));
            }"""
        )
        return found

    return run


def violations_text(found: list[dict]) -> str:
    return json.dumps(found, indent=2)


@pytest.fixture
def paying_stripe(site, settings, watch: Watch) -> Iterator[FakeStripe]:
    """The fake Stripe as a browser meets it: its Checkout URL opens a pay page; paying sends
    the signed webhook to this live server (set ``hold_webhooks`` to keep it until
    ``release_webhooks()``)."""
    fake, server = start_fake_stripe()
    fake.webhook_url = f"{site}/payments/stripe/webhook/"
    settings.STRIPE_API_BASE = fake.base_url
    settings.STRIPE_SECRET_KEY = SECRET_KEY
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    watch.allow_host(fake.base_url)
    yield fake
    server.shutdown()
    server.server_close()
