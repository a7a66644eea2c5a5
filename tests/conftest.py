import pytest
from django.test import Client as HttpClient

from tests.factories import PASSWORD


@pytest.fixture
def login():
    """An HTTP client signed in as ``user`` (real password login, real session)."""

    def sign_in(user) -> HttpClient:
        http = HttpClient()
        assert http.login(username=user.username, password=PASSWORD)
        return http

    return sign_in
