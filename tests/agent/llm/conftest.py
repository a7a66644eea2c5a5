"""Fixtures for the model adapters: a recorded model server, a turn to send it, and a guard
that turns any real network connection into a failure instead of a hang."""

import datetime as dt
import json
import socket
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path

import httpx2
import pytest

from agent.llm.base import ConversationView, Narration, ServiceFact, StepOutcome, TurnContext
from agent.offline.reading import MessageReading

RECORDED = Path(__file__).parent / "recorded"
PARIS = "Europe/Paris"
NOW = dt.datetime(2025, 3, 10, 13, 5, tzinfo=dt.UTC)  # Monday 14:05 in Paris
TUESDAY_TEN = dt.datetime(2025, 3, 11, 9, 0, tzinfo=dt.UTC)  # Tuesday 10:00 in Paris
BOOKING_ACTIONS = ("offer_slots", "hold_slot", "collect_contact", "request_confirmation")
KNOWLEDGE = "Free parking behind the studio. Cards and cash accepted."


# --- no network -------------------------------------------------------------------------------


@dataclass
class NetworkGuard:
    attempts: list[object] = field(default_factory=list)

    def refuse(self, *args, **kwargs):
        self.attempts.append(args[:2])
        raise ConnectionRefusedError("tests/agent/llm: no network in these tests")


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    """Every name lookup and connection is refused at once (so nothing hangs) and recorded (so
    the test fails even when the adapter turns the refusal into ModelUnavailable)."""
    guard = NetworkGuard()
    monkeypatch.setattr(socket, "getaddrinfo", guard.refuse)
    monkeypatch.setattr(socket, "create_connection", guard.refuse)
    monkeypatch.setattr(socket.socket, "connect", guard.refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", guard.refuse)
    yield guard
    if guard.attempts:
        pytest.fail(f"a test tried to reach the network: {guard.attempts}")


# --- a recorded model server ------------------------------------------------------------------


class RecordedServer:
    """Stands in for a model provider at the HTTP layer: answers each request with ``respond``
    and keeps every request the SDK sent."""

    def __init__(self, respond: Callable[[httpx2.Request], httpx2.Response]) -> None:
        self.respond = respond
        self.requests: list[httpx2.Request] = []

    def handle(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        return self.respond(request)

    def http_client(self) -> httpx2.Client:
        return httpx2.Client(transport=httpx2.MockTransport(self.handle))

    @property
    def request(self) -> httpx2.Request:
        assert len(self.requests) == 1, f"expected one request, the SDK sent {len(self.requests)}"
        return self.requests[0]

    @property
    def sent(self) -> dict:
        return json.loads(self.request.content)


def recorded(name: str) -> dict:
    return json.loads((RECORDED / f"{name}.json").read_text())


@pytest.fixture
def server_answering():
    """``server_answering("openai_one_tool_call", status=200, headers={})``: a server replying
    with that recorded body."""

    def build(name: str, *, status: int = 200, headers: dict | None = None) -> RecordedServer:
        body = recorded(name)
        return RecordedServer(lambda request: httpx2.Response(status, json=body, headers=headers))

    return build


@pytest.fixture
def server_raising():
    """A server whose transport fails with ``error`` (a timeout, a refused connection)."""

    def build(error: type[httpx2.TransportError]) -> RecordedServer:
        def fail(request: httpx2.Request) -> httpx2.Response:
            raise error("recorded transport failure", request=request)

        return RecordedServer(fail)

    return build


# --- a turn -----------------------------------------------------------------------------------

HAIRCUT = ServiceFact(id=3, name="Haircut", minutes=45, price=Decimal("40.00"), currency="EUR")
COLOUR = ServiceFact(id=4, name="Colour", minutes=90, price=Decimal("85.00"), currency="EUR")
NOTHING_READ = MessageReading(
    times=(),
    emails=(),
    phones=(),
    amounts=(),
    intent=None,
    service_ids=(),
    name=None,
    is_routine=False,
)


def turn(**changes) -> TurnContext:
    context = TurnContext(
        business="Studio Lumen",
        time_zone=PARIS,
        language="en",
        currency="EUR",
        now=NOW,
        services=(HAIRCUT, COLOUR),
        conversation=ConversationView(
            state="offering", service=HAIRCUT, offered=(TUESDAY_TEN,), missing=("email",)
        ),
        message="Tuesday at 10 please",
        reading=NOTHING_READ,
        actions=BOOKING_ACTIONS,
        history=(("client", "Hi, a haircut this week?"), ("assistant", "Sure, which day?")),
        knowledge=KNOWLEDGE,
    )
    return replace(context, **changes)


def narration(**changes) -> Narration:
    held = ConversationView(state="holding", service=HAIRCUT, held=TUESDAY_TEN, missing=("email",))
    facts = Narration(
        turn=turn(),
        outcomes=(StepOutcome(action="hold_slot", executed=True, reason="approved"),),
        after=held,
        price=Decimal("40.00"),
        next_step="Ask for the client's email.",
    )
    return replace(facts, **changes)
