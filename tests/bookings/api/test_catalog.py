from decimal import Decimal

import pytest

from tests.factories import ServiceFactory


def test_services_lists_the_bookable_services_of_the_business(api, salon):
    # given an inactive service and another business's service beside the salon's haircut
    ServiceFactory(business=salon.business, name="Retired", is_active=False)
    ServiceFactory(name="Elsewhere")
    ServiceFactory(business=salon.business, name="Colour", list_price=Decimal("85.50"))

    # when a client asks for the salon's services
    response = api.get(f"{salon.base}/services/")

    # then it sees the active ones only, with prices as strings in the business's currency
    assert response.status_code == 200
    assert response.json() == [
        {
            "id": response.json()[0]["id"],
            "name": "Colour",
            "duration_minutes": 45,
            "list_price": "85.50",
            "currency": "EUR",
        },
        {
            "id": salon.service.pk,
            "name": "Haircut",
            "duration_minutes": 45,
            "list_price": "60.00",
            "currency": "EUR",
        },
    ]


@pytest.mark.parametrize("slug", ["no-such-business", "x" * 5000, "bad%00slug", "über"])
def test_services_of_an_unknown_business_is_404(api, salon, slug):
    response = api.get(f"/api/v1/businesses/{slug}/services/")

    assert response.status_code == 404
    assert response.json() == {"detail": "Not found.", "code": "not_found"}
