"""A business's language is one Ordina speaks: the assistant greets every client in it."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client as HttpClient
from django.urls import reverse

from tests.factories import BusinessFactory, owner_of


@pytest.mark.django_db
@pytest.mark.parametrize("spoken", ["en", "es", "es-ES"])
def test_a_language_the_product_speaks_is_kept(spoken):
    business = BusinessFactory(language=spoken)

    business.full_clean()


@pytest.mark.django_db
def test_another_language_is_refused_with_the_ones_it_speaks():
    business = BusinessFactory(language="fr")

    with pytest.raises(ValidationError) as refused:
        business.full_clean()

    assert refused.value.message_dict["language"] == [
        "fr is not a language Ordina speaks; choose one of en (English), es (Español)."
    ]


@pytest.mark.django_db
def test_the_owner_chooses_the_language_from_those_spoken():
    business = BusinessFactory()
    http = HttpClient()
    http.force_login(owner_of(business))

    page = http.get(reverse("admin:bookings_business_change", args=[business.pk]))

    field = page.context["adminform"].form["language"]
    assert [(value, label) for value, label in field.field.widget.choices] == [
        ("en", "English"),
        ("es", "Español"),
    ]
