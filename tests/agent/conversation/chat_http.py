"""The chat widget as a browser drives it: plain HTTP calls to the public conversation API.

Shared by the widget API, restart and turn-lock tests. Every helper takes the HTTP client it
speaks through (Django's test client, or ``ServerClient`` for a real server process), so the
same conversation can be carried from one to the other.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connection

BOOKING_MESSAGES = ("a haircut please", "Wednesday at 10", "Ana Silva", "ana@example.com", "yes")
THREAD_SECONDS = 30.0  # no thread of these tests may outlive this; a hang fails, never stalls


def start_url(slug: str) -> str:
    return f"/api/v1/businesses/{slug}/conversations/"


def read_url(token: str) -> str:
    return f"/api/v1/conversations/{token}/"


def message_url(token: str) -> str:
    return f"/api/v1/conversations/{token}/messages/"


def confirm_url(token: str) -> str:
    return f"/api/v1/conversations/{token}/confirm/"


def start(http, slug: str):
    return http.post(start_url(slug))


def say(http, token: str, text: Any):
    return http.post(message_url(token), {"text": text}, content_type="application/json")


def confirm(http, token: str, key: str | None = "confirm-key-0001", card: str | None = None):
    """The client's Confirm, sent as the widget sends it: with the card of the booking it last
    showed (read from the stored replies unless given)."""
    headers = {} if key is None else {"Idempotency-Key": key}
    body = {"card": shown_card(token) if card is None else card}
    return http.post(confirm_url(token), body, content_type="application/json", headers=headers)


def shown_card(token: str) -> str:
    """The card of the last booking shown to confirm in this conversation, or ""."""
    from agent.conversation.turns import token_hash
    from agent.models import Message

    shown = (
        Message.objects.filter(conversation__token_hash=token_hash(token), role="assistant")
        .exclude(choices={})
        .order_by("-id")
        .values_list("choices", flat=True)
    )
    for choices in shown:
        if "confirm" in choices:
            return choices["confirm"]["card"]
    return ""


def read(http, token: str):
    return http.get(read_url(token))


def started(http, slug: str) -> str:
    """A new conversation's token."""
    response = start(http, slug)
    assert response.status_code == 201, response.content
    return response.json()["token"]


def chat(http, token: str, *texts: str) -> list[dict[str, Any]]:
    """Send each text; every one must be answered (200). The answers' bodies, in order."""
    bodies = []
    for text in texts:
        response = say(http, token, text)
        assert response.status_code == 200, (text, response.status_code, response.content)
        bodies.append(response.json())
    return bodies


def roles(transcript: list[dict[str, Any]]) -> list[str]:
    return [message["role"] for message in transcript]


def assert_alternating(transcript: list[dict[str, Any]]) -> None:
    """The greeting, then each client message followed by exactly its one reply."""
    expected = ["assistant"] + ["client", "assistant"] * ((len(transcript) - 1) // 2)
    assert roles(transcript) == expected, [(m["role"], m["text"][:40]) for m in transcript]


# --- a real server process, over real HTTP --------------------------------------------------


@dataclass
class ServerResponse:
    status_code: int
    headers: dict[str, str]
    content: bytes

    def json(self) -> Any:
        return json.loads(self.content)


class ServerClient:
    """The few calls of Django's test client the helpers use, over HTTP to ``base``."""

    def __init__(self, base: str, *, timeout: float = 30.0) -> None:
        self.base, self.timeout = base, timeout

    def post(self, path: str, data: Any = None, content_type: str = "", headers=None):
        body = None if data is None else json.dumps(data).encode()
        all_headers = {"Content-Type": content_type} if content_type else {}
        return self._send("POST", path, body, {**all_headers, **(headers or {})})

    def get(self, path: str):
        return self._send("GET", path, None, {})

    def _send(self, method: str, path: str, body, headers) -> ServerResponse:
        url = self.base + path
        assert url.startswith("http://127.0.0.1:")
        request = urllib.request.Request(url, data=body, method=method, headers=headers)  # noqa: S310
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:  # noqa: S310
                return ServerResponse(answer.status, dict(answer.headers), answer.read())
        except urllib.error.HTTPError as refusal:
            return ServerResponse(refusal.code, dict(refusal.headers), refusal.read())


# --- threads with database connections of their own ------------------------------------------


def lock_waiters() -> int:
    """How many other sessions on this test database are waiting for a lock right now."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # fresh, even inside a transaction
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


class Worker(threading.Thread):
    """Runs ``work`` in a thread with its own database connection (closed when it ends),
    keeping what it returned or raised for the test to look at after ``finish``."""

    def __init__(self, work: Callable[[], Any], name: str) -> None:
        super().__init__(name=name, daemon=True)
        self.work = work
        self.result: Any = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.result = self.work()
        except BaseException as error:
            self.error = error
        finally:
            connection.close()

    def finish(self) -> Any:
        self.join(THREAD_SECONDS)
        assert not self.is_alive(), f"{self.name} did not finish in {THREAD_SECONDS:.0f} s"
        return self.result
