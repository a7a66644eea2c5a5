"""The browser tests' own tools can fail: a console error, a request to another host and an
inaccessible page are each caught. (If these passed on a page with no fault, every browser test
would be worth nothing.)"""

import pytest

from tests.browser.conftest import Watch


def test_a_console_error_is_caught(open_page, watch: Watch):
    page = open_page()
    page.set_content("<title>t</title><p>x</p>")
    page.evaluate("() => console.error('something broke')")
    assert watch.errors == ["something broke"]
    watch.errors.clear()  # caught: the test's own teardown must not fail on it


def test_an_uncaught_error_is_caught(open_page, watch: Watch):
    page = open_page()
    page.set_content("<title>t</title><p>x</p>")
    page.evaluate("() => { setTimeout(() => { throw new Error('boom') }, 0) }")
    page.wait_for_timeout(100)
    assert any("boom" in error for error in watch.errors)
    watch.errors.clear()


def test_a_request_to_another_host_is_caught_and_never_sent(open_page, watch: Watch, site):
    page = open_page()
    page.goto(f"{site}/static/pages/icon.svg")
    page.evaluate("() => fetch('https://example.com/x').catch(() => null)")
    page.wait_for_timeout(200)
    assert watch.foreign == ["https://example.com/x"]
    watch.foreign.clear()
    watch.errors.clear()  # the aborted fetch logs a network error


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_axe_finds_an_inaccessible_page(open_page, axe_violations, scheme):
    page = open_page(scheme=scheme)
    page.set_content('<html><body><input type="text"><a href="#"></a></body></html>')
    found = {violation["id"] for violation in axe_violations(page)}
    assert {"html-has-lang", "document-title", "label", "link-name"} <= found
