"""A business's look and embedding sites, as the owner sets them: the accent colour is refused
when its button labels would be unreadable, the embedding sites when a line is not a site, each
with a message that says why; what is accepted is stored the way it is compared."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from bookings.models import Business
from tests.admin_forms import form_errors, page_data
from tests.factories import BusinessFactory, owner_of

pytestmark = pytest.mark.django_db

LOW_CONTRAST = (
    "#777777 fails contrast: neither white (4.48:1) nor near-black (4.01:1) text reaches 4.5:1 "
    "on it, so button labels would be hard to read. Choose a darker or a lighter shade."
)


def refusals(business: Business) -> dict[str, list[str]]:
    with pytest.raises(ValidationError) as refused:
        business.full_clean()
    return refused.value.message_dict


# --- the model ----------------------------------------------------------------------------


def test_an_accent_neither_ink_reads_on_is_refused_with_the_ratios():
    business = BusinessFactory.build(accent_colour="#777777")

    assert refusals(business)["accent_colour"] == [LOW_CONTRAST]


@pytest.mark.parametrize("value", ["2563eb", "#2563e", "#abc", "blue", "#2563ebff"])
def test_an_accent_that_is_not_hash_and_six_hex_digits_is_refused(value):
    business = BusinessFactory.build(accent_colour=value)

    assert (
        "Write the colour as # and six hexadecimal digits, for example #2563eb."
        in (refusals(business)["accent_colour"])
    )


@pytest.mark.parametrize(
    ("accent", "ink"), [("#2563EB", "#ffffff"), ("#ffff00", "#15171a"), ("#1D6B3C", "#ffffff")]
)
def test_an_accepted_accent_is_stored_in_lower_case_with_the_ink_that_reads_on_it(accent, ink):
    business = BusinessFactory.build(accent_colour=accent)

    business.full_clean()

    assert business.accent_colour == accent.lower()
    assert business.accent_ink == ink


def test_no_accent_means_ordinas_and_no_ink_of_its_own():
    business = BusinessFactory.build(accent_colour="")

    business.full_clean()

    assert business.accent_ink == ""


def test_the_database_refuses_an_accent_that_is_not_lower_case_hex():
    business = BusinessFactory()

    with pytest.raises(IntegrityError), transaction.atomic():
        Business.objects.filter(pk=business.pk).update(accent_colour="red;}")


def test_embedding_sites_are_refused_line_by_line_with_reasons():
    business = BusinessFactory.build(embed_origins="www.example.com\nhttps://example.com/book")

    assert refusals(business)["embed_origins"] == [
        "“www.example.com” has no scheme: write it as https://www.example.com",
        "“https://example.com/book” is a page, not a site: write just https://example.com "
        "(no path, query or fragment).",
    ]


def test_embedding_sites_are_stored_one_origin_per_line():
    business = BusinessFactory.build(
        embed_origins=" https://WWW.Example.com/ \r\n\r\nhttp://localhost:8000\nhttps://www.example.com"
    )

    business.full_clean()

    assert business.embed_origins == "https://www.example.com\nhttp://localhost:8000"
    assert business.embedding_origins == ("https://www.example.com", "http://localhost:8000")


# --- the owner's form in the dashboard -------------------------------------------------------


def business_change(http, business):
    url = reverse("admin:bookings_business_change", args=[business.pk])
    return url, http.get(url)


def test_owner_form_shows_the_accent_and_embedding_sites(login):
    business = BusinessFactory(accent_colour="#2563eb", embed_origins="https://shop.example")
    http = login(owner_of(business))

    _, page = business_change(http, business)

    assert page.status_code == 200
    form = page.context["adminform"].form
    assert form["accent_colour"].value() == "#2563eb"
    assert form["embed_origins"].value() == "https://shop.example"
    assert 'placeholder="https://www.example.com"' in page.text


def test_owner_form_refuses_a_low_contrast_accent(login):
    business = BusinessFactory()
    http = login(owner_of(business))
    url, page = business_change(http, business)

    response = http.post(url, {**page_data(page), "accent_colour": "#777777"})

    assert response.status_code == 200
    assert LOW_CONTRAST in form_errors(response)
    business.refresh_from_db()
    assert business.accent_colour == ""


def test_owner_form_refuses_a_site_that_is_not_https(login):
    business = BusinessFactory()
    http = login(owner_of(business))
    url, page = business_change(http, business)

    response = http.post(url, {**page_data(page), "embed_origins": "http://shop.example"})

    assert response.status_code == 200
    assert (
        "“http://shop.example” must use https://: plain http is allowed only for localhost and "
        "127.0.0.1, while developing." in form_errors(response)
    )
    business.refresh_from_db()
    assert business.embed_origins == ""


def test_owner_form_saves_a_readable_accent_and_normalised_sites(login):
    business = BusinessFactory()
    http = login(owner_of(business))
    url, page = business_change(http, business)

    response = http.post(
        url,
        {
            **page_data(page),
            "accent_colour": "#1D6B3C",
            "embed_origins": "https://Shop.Example/\nhttps://shop.example:443",
        },
    )

    assert response.status_code == 302, form_errors(response)
    business.refresh_from_db()
    assert business.accent_colour == "#1d6b3c"
    assert business.embed_origins == "https://shop.example"
