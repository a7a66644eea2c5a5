"""The embed in a real browser: the one-line snippet on a page of ANOTHER origin (a business's
own site, served by a separate little HTTP server on 127.0.0.1 while the live server is
localhost) adds a launcher that opens the booking page in an iframe; a conversation happens
inside it; Esc closes it from inside the iframe and from the site, and focus returns to the
launcher. A site the business does not list cannot frame the page. No console error, no
request to any host but the two (tests/browser/conftest.py)."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import Browser, FrameLocator, Locator, Page, expect

from bench.harness import open_salon
from tests.browser.conftest import VIEWPORTS, Watch, chromium_executable, watch_page
from tests.factories import ServiceFactory

SITE_PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Shop</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main><h1>A business's own website</h1><p><a href="#top">A link</a></p></main>
{snippets}
</body>
</html>"""


@dataclass(frozen=True)
class SiteFile:
    body: str
    content_type: str
    headers: dict[str, str]


class SiteHandler(BaseHTTPRequestHandler):
    pages: dict[str, SiteFile] = {}

    def do_GET(self) -> None:
        found = self.pages.get(self.path)
        if found is None:
            self.send_error(404)
            return
        encoded = found.body.encode()
        self.send_response(200)
        self.send_header("Content-Type", found.content_type)
        self.send_header("Content-Length", str(len(encoded)))
        for name, value in found.headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(encoded)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def other_site(watch: Watch) -> Iterator[Callable[..., str]]:
    """``other_site(path, html, content_type=..., headers={...})``: serves ``html`` at ``path``
    from 127.0.0.1 on a port of its own (a different origin from the live server's localhost);
    returns the page's URL."""
    handler = type("Handler", (SiteHandler,), {"pages": {}})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    watch.allow_host(origin)

    def serve(
        path: str,
        html: str,
        *,
        content_type: str = "text/html; charset=utf-8",
        headers: dict[str, str] | None = None,
    ) -> str:
        handler.pages[path] = SiteFile(html, content_type, headers or {})
        return f"{origin}{path}"

    yield serve
    server.shutdown()
    server.server_close()


@pytest.fixture
def everyday_page(browser: Browser, watch: Watch, tmp_path) -> Iterator[Page]:
    """A watched page in an everyday browser profile, one that lets a site's frames keep data
    (third-party cookies and storage allowed, as in a normal window of Chrome; Firefox and
    Safari partition that data per site). The ``open_page`` contexts are private windows,
    which refuse a third-party frame any storage: there the booking page keeps the
    conversation in memory, for as long as the site's page stays open."""
    preferences = tmp_path / "profile" / "Default" / "Preferences"
    preferences.parent.mkdir(parents=True)
    preferences.write_text(json.dumps({"profile": {"cookie_controls_mode": 0}}))
    context = browser.browser_type.launch_persistent_context(
        preferences.parent.parent,
        executable_path=chromium_executable(),
        viewport=VIEWPORTS["desktop"],
        color_scheme="dark",
        reduced_motion="reduce",
        locale="en-GB",
        timezone_id="UTC",
    )
    context.set_default_timeout(10_000)
    context.route("**/*", watch.route)
    page = context.pages[0] if context.pages else context.new_page()
    watch_page(page, watch)
    yield page
    context.close()


def site_origin(url: str) -> str:
    return re.match(r"https?://[^/]+", url).group(0)


def salon(**fields):
    business = open_salon(name="Studio Lumen", capacity=1, **fields)
    ServiceFactory(business=business, name="Haircut", list_price=Decimal("60.00"))
    return business


def snippet(site: str, slug: str) -> str:
    return f'<script src="{site}/widget.js" data-business="{slug}" async></script>'


def launcher(page: Page) -> Locator:
    return page.get_by_role("button", name="Book an appointment")


def booking_frame(page: Page) -> FrameLocator:
    return page.frame_locator('iframe[title="Book an appointment"]')


def test_the_snippet_on_another_site_opens_the_booking_page_and_esc_closes_it(
    page, site, other_site, axe_violations
):
    # Given a site at another origin, listed by the business, with the snippet on it twice
    url = other_site("/", "")
    business = salon(embed_origins=site_origin(url), accent_colour="#1d6b3c")
    other_site("/", SITE_PAGE.format(snippets=snippet(site, business.slug) * 2))
    page.goto(url)

    # Then one launcher, closed
    expect(launcher(page)).to_have_count(1)
    expect(launcher(page)).to_have_attribute("aria-expanded", "false")

    # When the client opens it from the keyboard
    launcher(page).focus()
    page.keyboard.press("Enter")

    # Then the booking page opens in a dialog, and the assistant greets them inside it
    dialog = page.get_by_role("dialog", name="Book an appointment")
    expect(dialog).to_be_visible()
    expect(launcher(page)).to_have_attribute("aria-expanded", "true")
    frame = booking_frame(page)
    expect(frame.locator(".message--assistant")).to_have_count(1)
    # in the business's accent (the nonce'd style the page's policy allows)
    send = frame.get_by_role("button", name="Send")
    expect(send).to_have_css("background-color", "rgb(29, 107, 60)")
    expect(send).to_have_css("color", "rgb(255, 255, 255)")
    # and the widget's own controls on the site pass axe
    assert axe_violations(page) == []

    # When they write to the assistant inside the iframe
    frame.get_by_label("Your message").fill("What services do you have?")
    frame.get_by_label("Your message").press("Enter")

    # Then the reply arrives there
    expect(frame.locator(".message--client")).to_have_count(1)
    expect(frame.locator(".message--assistant")).to_have_count(2)

    # When they press Esc inside the iframe
    frame.get_by_label("Your message").press("Escape")

    # Then the dialog closes and focus is back on the launcher
    expect(dialog).to_be_hidden()
    expect(launcher(page)).to_be_focused()
    expect(launcher(page)).to_have_attribute("aria-expanded", "false")

    # And reopened, the conversation is still there; Esc on the site's side closes it too
    page.keyboard.press("Enter")
    expect(frame.locator(".message--assistant")).to_have_count(2)
    page.get_by_role("button", name="Close").focus()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(launcher(page)).to_be_focused()


def test_the_close_button_closes_and_a_phone_gets_the_whole_screen(
    open_page, site, other_site, axe_violations
):
    # Given a client on a 390 px phone in the light theme
    page = open_page(viewport="phone", scheme="light")
    url = other_site("/", "")
    business = salon(embed_origins=site_origin(url), accent_colour="#1d6b3c")
    other_site("/", SITE_PAGE.format(snippets=snippet(site, business.slug)))
    page.goto(url)

    # When they open the widget
    launcher(page).click()

    # Then the dialog is the whole screen
    dialog = page.get_by_role("dialog", name="Book an appointment")
    frame = booking_frame(page)
    expect(frame.locator(".message--assistant")).to_have_count(1)
    box = dialog.bounding_box()
    assert box == {"x": 0, "y": 0, "width": 390, "height": 844}
    # and the business's accent holds in the light theme too
    expect(frame.get_by_role("button", name="Send")).to_have_css(
        "background-color", "rgb(29, 107, 60)"
    )
    assert axe_violations(page) == []

    # When they press the close button, it closes and focus is back on the launcher
    page.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()
    expect(launcher(page)).to_be_focused()


def test_focus_returns_to_the_launcher_even_when_pressing_it_did_not_focus_it(
    page, site, other_site
):
    # Given the site's own link has focus
    url = other_site("/", "")
    business = salon(embed_origins=site_origin(url))
    other_site("/", SITE_PAGE.format(snippets=snippet(site, business.slug)))
    page.goto(url)
    page.get_by_role("link", name="A link").focus()

    # When the launcher and then the close button are pressed without taking focus (as a
    # mouse press does in Safari, and in Firefox on macOS)
    launcher(page).dispatch_event("click")
    dialog = page.get_by_role("dialog", name="Book an appointment")
    expect(booking_frame(page).locator(".message--assistant")).to_have_count(1)
    page.get_by_role("button", name="Close").dispatch_event("click")

    # Then focus is on the launcher, where the client left off, not on the link
    expect(dialog).to_be_hidden()
    expect(launcher(page)).to_be_focused()


HOSTILE_CSS = """
html, body { color: rgb(255, 0, 0); font: italic 40px/3 serif; }
button { background: rgb(255, 0, 0) !important; color: rgb(0, 0, 0) !important;
  font-size: 40px !important; padding: 40px !important; border-radius: 0 !important; }
dialog { width: 10px !important; height: 10px !important; }
iframe { border: 12px solid rgb(255, 0, 0) !important; }
"""


def test_the_widget_keeps_its_look_on_a_site_with_its_own_css_and_a_strict_style_policy(
    page, site, other_site
):
    # Given a site whose CSS restyles every button, dialog and iframe, and whose policy
    # allows styles from its own files only (no inline style)
    url = other_site("/", "")
    business = salon(embed_origins=site_origin(url))
    other_site("/site.css", HOSTILE_CSS, content_type="text/css")
    page_html = SITE_PAGE.format(snippets=snippet(site, business.slug)).replace(
        "</head>", '<link rel="stylesheet" href="/site.css"></head>'
    )
    policy = f"default-src 'self'; style-src 'self'; script-src 'self' {site}; frame-src {site}"
    other_site("/", page_html, headers={"Content-Security-Policy": policy})
    page.goto(url)

    # Then the launcher is drawn in the widget's own style, untouched by the site's
    button = launcher(page)
    expect(button).to_have_css("background-color", "rgb(37, 99, 235)")
    expect(button).to_have_css("color", "rgb(255, 255, 255)")
    expect(button).to_have_css("font-size", "16px")
    expect(button).to_have_css("font-style", "normal")

    # And so is the dialog, and its frame, once opened
    button.click()
    dialog = page.get_by_role("dialog", name="Book an appointment")
    expect(booking_frame(page).locator(".message--assistant")).to_have_count(1)
    expect(dialog).to_have_css("width", "420px")
    expect(page.locator("iframe")).to_have_css("border-top-width", "0px")


def test_the_conversation_is_kept_in_the_frames_own_storage_and_resumes_after_a_reload(
    everyday_page, site, other_site
):
    page = everyday_page
    # Given a client who wrote to the assistant in the widget on a listed site
    url = other_site("/", "")
    business = salon(embed_origins=site_origin(url))
    other_site("/", SITE_PAGE.format(snippets=snippet(site, business.slug)))
    page.goto(url)
    launcher(page).click()
    frame = booking_frame(page)
    expect(frame.locator(".message--assistant")).to_have_count(1)
    frame.get_by_label("Your message").fill("What services do you have?")
    frame.get_by_label("Your message").press("Enter")
    expect(frame.locator(".message--assistant")).to_have_count(2)

    # Then the token is in the booking page's own storage, in no URL, and in no cookie
    framed = page.frame_locator("iframe").owner.element_handle().content_frame()
    assert framed.url == f"{site}/b/{business.slug}/"
    kept = framed.evaluate(f"() => localStorage.getItem('ordina.booking.{business.slug}')")
    assert '"token"' in kept
    assert page.context.cookies() == []
    # and the site's own storage holds nothing of it
    assert page.evaluate("() => [localStorage.length, sessionStorage.length]") == [0, 0]

    # When the site is reloaded and the widget opened again
    page.reload()
    launcher(page).click()

    # Then the same conversation continues
    expect(frame.locator(".message--client")).to_have_count(1)
    expect(frame.locator(".message--client")).to_contain_text("What services do you have?")
    expect(frame.locator(".message--assistant")).to_have_count(2)


def test_a_site_the_business_does_not_list_cannot_frame_its_page(page, site, other_site, watch):
    # Given a business that lists another site, not this one
    business = salon(embed_origins="https://www.studio-lumen.example")
    url = other_site("/", SITE_PAGE.format(snippets=snippet(site, business.slug)))
    # The browser's refusal is the one console error this test expects.
    watch.allow_error(
        # Chromium names the framed page by its origin only.
        rf"^Framing '{re.escape(site)}/' violates the following Content "
        r"Security Policy directive: "
        r"\"frame-ancestors 'self' https://www\.studio-lumen\.example\"\. "
        r"The request has been blocked\.\s*$"
    )
    page.goto(url)

    # When the launcher is pressed, the browser refuses to show the page in the frame
    with page.expect_console_message(lambda message: "frame-ancestors" in message.text):
        launcher(page).click()

    # Then the frame holds none of the booking page
    frame = page.locator("iframe").element_handle().content_frame()
    assert frame is not None
    assert not frame.url.startswith(site)
    assert frame.locator(".chat").count() == 0


def test_the_demo_embedding_example_works_under_its_own_policy(page, site, settings, watch):
    # The DEBUG page `make demo` prints, opened at 127.0.0.1 while the widget is on localhost.
    settings.DEBUG = True
    example_origin = site.replace("localhost", "127.0.0.1")
    business = salon(embed_origins=example_origin)
    watch.allow_host(example_origin)

    page.goto(f"{example_origin}/embed-example/?business={business.slug}")
    launcher(page).click()

    expect(booking_frame(page).locator(".message--assistant")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_be_hidden()
