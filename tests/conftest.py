from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.test import Client as HttpClient

from tests.factories import PASSWORD
from tests.servers import ProductionServer, Server, collect_static, production_env


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


@pytest.fixture(scope="session")
def collected_static(tmp_path_factory) -> Path:
    """The static files gathered once per test process, as the release step gathers them
    (``collectstatic`` on the production settings: hashed names, compressed copies)."""
    root = tmp_path_factory.mktemp("static")
    collect_static(root)
    return root


@pytest.fixture
def production_servers(tmp_path, collected_static) -> Iterator[Callable[..., ProductionServer]]:
    """Starts gunicorn on the production settings on demand (``production_servers(workers=2,
    NAME=value…)``, each on a port of its own, as separate machines would be), on the test
    database; their mail lands in ``tmp_path / "mail"``. Kills every one at the end."""
    started: list[ProductionServer] = []
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir(exist_ok=True)

    def start(workers: int = 2, **overrides: str) -> ProductionServer:
        env = production_env(static_root=collected_static, mail_dir=mail_dir, **overrides)
        server = ProductionServer(tmp_path / f"gunicorn-{len(started)}.log", env, workers)
        started.append(server)
        server.wait_ready()
        return server

    try:
        yield start
    finally:
        for server in started:
            server.kill()
