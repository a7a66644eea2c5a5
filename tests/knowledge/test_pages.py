"""A web page becomes its main text, fetched through the same fence as calendar feeds: public
addresses only, redirects included, time- and size-capped."""

import pytest

import bookings.calendar_fetch
from knowledge.extract import UnreadableSource
from knowledge.reading import page_text

# The same words for every refused address: nothing about the address, its port or its state.
NOT_PUBLIC = (
    "Could not read the page: the address is not on the public internet; only public addresses "
    "are fetched."
)


def test_the_main_text_of_a_page_is_read_and_its_navigation_header_and_footer_dropped(
    page_server,
):
    text = page_text(page_server.url("salon.html"))

    assert text == (
        "Prices and visits\n\n"
        "A haircut with wash and blow-dry costs 30 €; a beard trim 15 €.\n\n"
        "Service | From\n\nColour | 60 €\n\nHighlights | 85 €\n\n"
        "Parking\n\n"
        "Free parking behind the building,\nentrance on Rua das Flores."
    )
    for boilerplate in ("Our team", "Book now", "cookies", "Instagram", "Ten tips", "dataLayer"):
        assert boilerplate not in text


def test_a_page_without_main_drops_its_header_footer_and_hidden_parts_in_its_own_charset(
    page_server,
):
    text = page_text(page_server.url("no-main.html"))

    assert text == (
        "Frequently asked questions\n\n"
        "Do you take cards?\n\nYes, all cards and MB Way. Café is on us.\n\n"
        "Can I bring my dog?\n\nSmall dogs are welcome."
    )


def test_a_plain_text_page_and_a_pdf_behind_a_url_are_read_too(page_server):
    assert page_text(page_server.url("hours.txt")) == (
        "Opening hours\n\nMonday to Friday 9:00 to 19:00.\nSaturday 9:00 to 13:00."
    )
    assert page_text(page_server.url("price-list.pdf")) == "Gift vouchers from 25 euros."


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("no-such-page.html", "Could not read the page: HTTP 404 Not Found"),
        (
            "logo.png",
            "The page is neither a web page nor a document that can be read (it is image/png).",
        ),
        ("app-shell.html", "The page has no text to read (a page built by JavaScript"),
    ],
)
def test_a_page_that_cannot_be_read_says_why(page_server, path, message):
    with pytest.raises(UnreadableSource) as refusal:
        page_text(page_server.url(path))

    assert str(refusal.value).startswith(message)


def test_a_page_larger_than_the_cap_is_refused(page_server):
    with pytest.raises(UnreadableSource) as refusal:
        page_text(page_server.url("big.html"), max_bytes=5000)

    assert str(refusal.value) == "Could not read the page: it is larger than 5,000 bytes."


def test_only_http_and_https_addresses_are_fetched():
    with pytest.raises(UnreadableSource, match=r"must start with http:// or https://"):
        page_text("file:///etc/passwd")


def test_a_page_on_a_private_address_is_refused_before_anything_is_sent(settings, page_server):
    settings.CALENDAR_FEEDS_ALLOW_PRIVATE_ADDRESSES = False

    with pytest.raises(UnreadableSource) as refusal:
        page_text(page_server.url("salon.html"))

    assert str(refusal.value) == NOT_PUBLIC
    assert page_server.requests == []


def test_a_redirect_from_a_public_page_to_a_private_address_is_refused(
    settings, monkeypatch, page_server, inner_server
):
    # 127.0.0.1 plays the public internet; 127.0.0.2 stays what it is, inside.
    settings.CALENDAR_FEEDS_ALLOW_PRIVATE_ADDRESSES = False
    monkeypatch.setattr(
        bookings.calendar_fetch, "is_public_address", lambda address: address == "127.0.0.1"
    )
    page_server.redirects["prices"] = inner_server.url("salon.html")

    with pytest.raises(UnreadableSource) as refusal:
        page_text(page_server.url("prices"))

    assert str(refusal.value) == NOT_PUBLIC
    assert page_server.requests == ["prices"]
    assert inner_server.requests == []


def test_a_redirect_between_public_pages_is_followed(page_server):
    page_server.redirects["prices"] = page_server.url("hours.txt")

    assert page_text(page_server.url("prices")).startswith("Opening hours")
