"""A race for the same few slots through real web processes, over HTTP: clients of the booking
API and clients of the chat, spread over several server instances (as machines behind a load
balancer), all released at one instant. Shared by ``bench/http_scale.py`` and
``tests/test_http_scale.py``.

Each client stands behind the load balancer: every request carries an X-Forwarded-For address
of its own, as the balancer appends it, so the servers (``TRUSTED_PROXY_COUNT=1``) count every
per-client limit per client. A booking-API client POSTs one appointment with an
Idempotency-Key at the barrier; a chat client starts a conversation, names the service, its
name and its email before the barrier, then at the barrier asks for the time ("tomorrow at
10") and presses Confirm on the booking it is shown, at once.

Nothing here decides a booking. It classifies the answers and reads from the database what was
stored; the guarantees are the servers' (the booking lock and the seat exclusion constraint in
PostgreSQL, behind every writer).
"""

from __future__ import annotations

import datetime as dt
import threading
import time
import urllib.error
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bench import harness
from tests.agent.conversation.chat_http import ServerClient

API = "api"
CHAT = "chat"
CONFIRMED = "confirmed"  # 201: this client's booking was made
REFUSED = "refused"  # 409 slot_unavailable: the answer a lost race must get
TURNED_AWAY = "turned_away"  # the chat said the time is not open and offered others
FAILED = "failed"  # 5xx, no answer in time, or anything a race must never answer

CHAT_PREPARATION = ("a haircut please", "Ana Silva")  # then the client's email, then the time
REQUEST_SECONDS = 20.0  # no request of a race may take longer; a hang fails, never stalls


@dataclass(frozen=True)
class Exchange:
    """One request and its answer, as a client saw it (status 0: no answer)."""

    base: str
    what: str
    status: int
    ms: float


class Exchanges:
    """Every exchange of a run, from all client threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.all: list[Exchange] = []

    def add(self, exchange: Exchange) -> None:
        with self._lock:
            self.all.append(exchange)

    def server_errors(self) -> list[Exchange]:
        return [e for e in self.all if e.status >= 500]

    def unanswered(self) -> list[Exchange]:
        return [e for e in self.all if e.status == 0]

    def millis(self) -> list[float]:
        return [e.ms for e in self.all if e.status]


class BalancedClient(ServerClient):
    """One client reaching one server instance through the load balancer: X-Forwarded-For is
    its own address on every request; every exchange is recorded."""

    def __init__(
        self, base: str, *, address: str, exchanges: Exchanges, timeout: float = REQUEST_SECONDS
    ) -> None:
        super().__init__(base, timeout=timeout)
        self.address = address
        self.exchanges = exchanges

    def _send(self, method: str, path: str, body, headers):
        what = f"{method} {path.split('?')[0]}"
        began = time.perf_counter()
        try:
            response = super()._send(
                method, path, body, {**headers, "X-Forwarded-For": self.address}
            )
        except (urllib.error.URLError, OSError):
            self.exchanges.add(Exchange(self.base, what, 0, (time.perf_counter() - began) * 1000))
            raise
        self.exchanges.add(
            Exchange(self.base, what, response.status_code, (time.perf_counter() - began) * 1000)
        )
        return response


# --- the world --------------------------------------------------------------------------------


def race_salon(*, slug: str, capacity: int):
    """A salon open 09:00–17:00 every day with ``capacity`` seats, one 60-minute "Haircut" on
    an hourly grid, and its assistant's default grants: bookable by the API and by the chat.
    Returns the service with its business loaded."""
    from agent.services import grants_set

    service = harness.open_business(slug=slug, capacity=capacity)
    service.name = "Haircut"
    service.save(update_fields=["name"])
    grants_set(business=service.business)
    return service


@dataclass(frozen=True)
class RacedSlot:
    """Tomorrow at ``hour`` (in the business's zone) at a business of ``capacity`` seats."""

    slug: str
    business_id: int
    service_id: int
    start: dt.datetime
    length: dt.timedelta
    hour: int
    capacity: int

    @property
    def name(self) -> str:
        return f"{self.slug}@{self.hour:02d}:00"


def raced_slot(service, *, hour: int) -> RacedSlot:
    from bookings.availability import wall_to_instant

    zone = service.business.tzinfo
    tomorrow = dt.datetime.now(zone).date() + dt.timedelta(days=1)
    return RacedSlot(
        slug=service.business.slug,
        business_id=service.business_id,
        service_id=service.pk,
        start=wall_to_instant(tomorrow, dt.time(hour), zone),
        length=dt.timedelta(minutes=service.duration_minutes),
        hour=hour,
        capacity=service.business.capacity,
    )


@dataclass(frozen=True)
class Contender:
    slot: RacedSlot
    way: str  # API or CHAT
    number: int  # unique in the race
    base: str  # the server instance it reaches
    retry_base: str  # another instance, where a booked client repeats its request

    @property
    def address(self) -> str:
        """Its own address, as the load balancer saw it (a documentation range, RFC 5737)."""
        return f"198.51.{self.number // 250}.{self.number % 250 + 1}"

    @property
    def email(self) -> str:
        return f"{self.way}{self.number}@example.com"


def contenders(
    slots: Sequence[RacedSlot], bases: Sequence[str], *, api: int, chats: int, first: int = 0
) -> list[Contender]:
    """For each slot, ``api`` booking-API clients and ``chats`` chat clients, spread over the
    instances in turn; numbered from ``first``."""
    made: list[Contender] = []
    for slot in slots:
        for way, count in ((API, api), (CHAT, chats)):
            for _ in range(count):
                number = first + len(made)
                made.append(
                    Contender(
                        slot=slot,
                        way=way,
                        number=number,
                        base=bases[number % len(bases)],
                        retry_base=bases[(number + 1) % len(bases)],
                    )
                )
    return made


# --- the race ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    contender: Contender
    result: str  # CONFIRMED, REFUSED, TURNED_AWAY or FAILED
    code: str = ""  # the error code of a 409 (slot_unavailable), or what failed
    appointment: str = ""  # the booked appointment's id
    replay_matches: bool | None = None  # a booked API client's repeat on another instance


def _booking_body(contender: Contender) -> dict[str, Any]:
    return {
        "service": contender.slot.service_id,
        "start": contender.slot.start.isoformat(),
        "name": "Ana Silva",
        "email": contender.email,
    }


def _booking_key(contender: Contender) -> dict[str, str]:
    return {"Idempotency-Key": f"race-{contender.number}"}


def _answer(contender: Contender, response, *, booked_status: int = 201) -> Outcome:
    body = _json(response)
    if response.status_code == booked_status:
        booked = body.get("id") or (body.get("conversation") or {}).get("appointment") or ""
        return Outcome(contender, CONFIRMED, appointment=str(booked))
    if response.status_code == 409 and body.get("code") == "slot_unavailable":
        return Outcome(contender, REFUSED, code="slot_unavailable")
    return Outcome(contender, FAILED, code=f"{response.status_code} {body.get('code', '')}".strip())


def _json(response) -> dict[str, Any]:
    try:
        body = response.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


class ApiClient:
    """Books through POST /api/v1/businesses/<slug>/appointments/."""

    def __init__(self, contender: Contender, exchanges: Exchanges) -> None:
        self.contender = contender
        self.http = BalancedClient(contender.base, address=contender.address, exchanges=exchanges)
        self.retry = BalancedClient(
            contender.retry_base, address=contender.address, exchanges=exchanges
        )

    def prepare(self) -> None:
        pass

    def act(self) -> Outcome:
        contender = self.contender
        path = f"/api/v1/businesses/{contender.slot.slug}/appointments/"
        body, key = _booking_body(contender), _booking_key(contender)
        outcome = _answer(contender, self.http.post(path, body, "application/json", key))
        if outcome.result != CONFIRMED:
            return outcome
        # The client heard nothing (say) and sends the same request again, reaching the other
        # instance: the same appointment must come back (200), not a second one.
        again = self.retry.post(path, body, "application/json", key)
        matches = again.status_code == 200 and _json(again).get("id") == outcome.appointment
        return Outcome(
            contender, CONFIRMED, appointment=outcome.appointment, replay_matches=matches
        )


class ChatClient:
    """Books through the chat: start, the service, a name, an email; at the barrier the time,
    then Confirm on the booking shown, as the widget's button sends it."""

    def __init__(self, contender: Contender, exchanges: Exchanges) -> None:
        self.contender = contender
        self.http = BalancedClient(contender.base, address=contender.address, exchanges=exchanges)
        self.token = ""

    def _say(self, text: str) -> dict[str, Any]:
        response = self.http.post(
            f"/api/v1/conversations/{self.token}/messages/", {"text": text}, "application/json"
        )
        if response.status_code != 200:
            raise ChatBroke(f"{response.status_code} on {text!r}")
        return response.json()

    def prepare(self) -> None:
        started = self.http.post(f"/api/v1/businesses/{self.contender.slot.slug}/conversations/")
        if started.status_code != 201:
            raise ChatBroke(f"{started.status_code} on start")
        self.token = started.json()["token"]
        for text in (*CHAT_PREPARATION, self.contender.email):
            self._say(text)

    def act(self) -> Outcome:
        contender = self.contender
        answer = self._say(f"tomorrow at {contender.slot.hour}")
        shown = answer["reply"]["choices"].get("confirm")
        if shown is None:
            state = answer["conversation"]["state"]
            offered = "slots" in answer["reply"]["choices"]
            if state == "slot_offered" and offered:
                return Outcome(contender, TURNED_AWAY, code="other times offered")
            return Outcome(contender, FAILED, code=f"no Confirm shown, state {state}")
        if dt.datetime.fromisoformat(shown["start"]) != contender.slot.start:
            return Outcome(contender, FAILED, code=f"Confirm shown for {shown['start']}")
        pressed = self.http.post(
            f"/api/v1/conversations/{self.token}/confirm/",
            {"card": shown["card"]},
            "application/json",
            {"Idempotency-Key": f"race-confirm-{contender.number}"},
        )
        return _answer(contender, pressed)


class ChatBroke(Exception):
    """A chat turn before the race answered other than 200."""


def _compete(client, barrier: threading.Barrier, seconds: float, out: list[Outcome]) -> None:
    contender = client.contender
    try:
        client.prepare()
    except Exception as problem:
        out.append(Outcome(contender, FAILED, code=f"preparing: {problem!r}"))
        barrier.abort()  # the others would wait for this one until the deadline
        return
    try:
        barrier.wait(seconds)
        out.append(client.act())
    except threading.BrokenBarrierError:
        out.append(Outcome(contender, FAILED, code="the race was called off"))
    except Exception as problem:
        out.append(Outcome(contender, FAILED, code=repr(problem)))


@dataclass
class Race:
    outcomes: list[Outcome]
    exchanges: Exchanges
    seconds: float
    unfinished: int = 0
    contenders: list[Contender] = field(default_factory=list)


def race(entrants: Sequence[Contender], *, deadline: float = 120.0) -> Race:
    """Every contender prepares, then all act at once (one thread each: bounded by the number
    of contenders given). Whatever has not finished by ``deadline`` seconds counts as failed."""
    exchanges = Exchanges()
    clients = [
        (ApiClient if entrant.way == API else ChatClient)(entrant, exchanges)
        for entrant in entrants
    ]
    barrier = threading.Barrier(len(clients))
    outcomes: list[Outcome] = []
    threads = [
        threading.Thread(
            target=_compete,
            args=(client, barrier, deadline, outcomes),
            name=f"{client.contender.way}-{client.contender.number}",
            daemon=True,
        )
        for client in clients
    ]
    began = time.perf_counter()
    ends = time.monotonic() + deadline
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(0.0, ends - time.monotonic()))
    finished = {outcome.contender.number for outcome in outcomes}
    outcomes += [
        Outcome(entrant, FAILED, code="unfinished at the deadline")
        for entrant in entrants
        if entrant.number not in finished
    ]
    return Race(
        outcomes=outcomes,
        exchanges=exchanges,
        seconds=time.perf_counter() - began,
        unfinished=sum(thread.is_alive() for thread in threads),
        contenders=list(entrants),
    )


# --- what the database holds --------------------------------------------------------------------


@dataclass(frozen=True)
class SlotTally:
    slot: RacedSlot
    confirmed_answers: int  # 201s given for the slot, API and chat
    stored: int  # appointments occupying the slot, read from the table
    seats: int  # distinct seats among them
    holds_left: int  # live holds on the slot after the race (its chats' Confirms refused)

    @property
    def double_bookings(self) -> int:
        """Appointments stored beyond the slot's capacity."""
        return max(0, self.stored - self.slot.capacity)

    @property
    def seat_clashes(self) -> int:
        """Appointments sharing a seat with another."""
        return self.stored - self.seats


def tallies(finished: Race) -> list[SlotTally]:
    from django.utils import timezone

    from bookings.models import SlotHold

    slots = list(dict.fromkeys(entrant.slot for entrant in finished.contenders))
    made: list[SlotTally] = []
    for slot in slots:
        end = slot.start + slot.length
        stored, seats = harness.occupying_at(slot.business_id, slot.start, end)
        holds_left = SlotHold.objects.filter(
            business_id=slot.business_id,
            occupied_from__lt=end,
            occupied_until__gt=slot.start,
            expires_at__gt=timezone.now(),
        ).count()
        answers = sum(
            1
            for outcome in finished.outcomes
            if outcome.contender.slot == slot and outcome.result == CONFIRMED
        )
        made.append(
            SlotTally(
                slot=slot,
                confirmed_answers=answers,
                stored=stored,
                seats=seats,
                holds_left=holds_left,
            )
        )
    return made
