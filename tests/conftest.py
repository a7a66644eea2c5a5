from collections.abc import Callable, Iterator

import pytest
from django.test import Client as HttpClient

from tests.factories import PASSWORD
from tests.servers import Server


@pytest.fixture
def login():
    """An HTTP client signed in as ``user`` (real password login, real session)."""

    def sign_in(user) -> HttpClient:
        http = HttpClient()
        assert http.login(username=user.username, password=PASSWORD)
        return http

    return sign_in


@pytest.fixture
def servers(tmp_path) -> Iterator[Callable[..., Server]]:
    """Starts real server processes on demand (``servers(env={...})``) on the test database;
    kills every one of them at the end, whatever happened."""
    started: list[Server] = []

    def start(env: dict[str, str] | None = None) -> Server:
        server = Server(tmp_path / f"server-{len(started)}.log", env)
        started.append(server)
        server.wait_ready()
        return server

    try:
        yield start
    finally:
        for server in started:
            server.kill()
