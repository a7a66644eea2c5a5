"""Reading an owner's list of embedding sites into the origins a browser sends, and refusing
what is not one with a reason the owner can act on."""

import pytest

from bookings.embed_origins import (
    MAX_ORIGINS,
    OriginRefused,
    OriginsRefused,
    normalise_origin,
    parse_origins,
    stored_origins,
)


@pytest.mark.parametrize(
    ("written", "origin"),
    [
        ("https://www.example.com", "https://www.example.com"),
        ("  https://Shop.Example.COM/  ", "https://shop.example.com"),
        ("https://shop.example.com:443", "https://shop.example.com"),
        ("https://shop.example.com:8443", "https://shop.example.com:8443"),
        ("HTTPS://shop.example.com", "https://shop.example.com"),
        ("http://localhost:8000", "http://localhost:8000"),
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("http://[::1]:3000", "http://[::1]:3000"),
        ("https://bücher.example", "https://xn--bcher-kva.example"),
        ("https://203.0.113.7", "https://203.0.113.7"),
    ],
)
def test_a_site_is_written_as_a_browser_sends_its_origin(written, origin):
    assert normalise_origin(written) == origin


@pytest.mark.parametrize(
    ("written", "reason"),
    [
        ("www.example.com", "has no scheme: write it as https://www.example.com"),
        ("http://www.example.com", "must use https://"),
        ("ftp://www.example.com", "only https:// sites"),
        ("https://www.example.com/book", "is a page, not a site: write just"),
        ("https://www.example.com/?x=1", "is a page, not a site"),
        ("https://www.example.com#top", "is a page, not a site"),
        ("https://*.example.com", "wildcards are not allowed"),
        ("https://www.example.com https://b.example", "one site per line"),
        ("https://example.com;script-src", "one site per line"),
        ("https://user:pw@example.com", "no user name or password"),
        ("https://example.com:99999", "invalid host or port"),
        ("https://exa_mple.com", "does not name a valid host"),
        ("https://-example.com", "does not name a valid host"),
        ("https://", "names no host"),
        ("https://" + "a" * 300 + ".com", "longer than 300 characters"),
    ],
)
def test_what_is_not_a_site_is_refused_with_its_reason(written, reason):
    with pytest.raises(OriginRefused) as refused:
        normalise_origin(written)
    assert reason in str(refused.value)


def test_a_list_is_one_site_per_line_blank_lines_and_repeats_dropped():
    text = "https://a.example\n\n  https://A.example/ \r\nhttps://b.example:8443\n"

    assert parse_origins(text) == ("https://a.example", "https://b.example:8443")


def test_a_list_reports_every_wrong_line_not_just_the_first():
    with pytest.raises(OriginsRefused) as refused:
        parse_origins("a.example\nhttps://ok.example\nhttp://b.example")

    assert len(refused.value.problems) == 2
    assert "“a.example” has no scheme" in refused.value.problems[0]
    assert "“http://b.example” must use https://" in refused.value.problems[1]


def test_a_list_holds_at_most_twenty_sites():
    text = "\n".join(f"https://s{n}.example" for n in range(MAX_ORIGINS + 1))

    with pytest.raises(OriginsRefused) as refused:
        parse_origins(text)
    assert refused.value.problems == [
        f"At most {MAX_ORIGINS} sites may be listed; this list has 21."
    ]


def test_a_huge_paste_is_refused_before_it_is_split():
    with pytest.raises(OriginsRefused, match="too long"):
        parse_origins("\n" * 1_000_000)


def test_stored_origins_skip_anything_that_is_not_an_origin():
    # A row written around validation must not put anything else into a response header.
    stored = "https://ok.example\nhttps://x.example; script-src *\n*\nhttp://evil.example"

    assert stored_origins(stored) == ("https://ok.example",)
