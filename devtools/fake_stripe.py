"""A small local Stripe for tests, the demo and the capstone: the endpoints Ordina calls, over
real HTTP, so the real stripe-python SDK builds, authenticates and retries its requests as it
would against Stripe.

It keeps Checkout Sessions and Refunds in memory, honours Idempotency-Key (the same key
returns the first answer), refuses what Stripe refuses (a Checkout expiring less than 30
minutes or more than 24 hours after it opens; expiring a session that is not open), records
every request, and can be told to fail, or to stall a session's creation before or after it
happens (``stall``), so a test can kill the caller at that moment. ``sign`` makes a
Stripe-Signature header exactly as Stripe does, for webhook tests.

A Checkout Session's ``url`` opens a pay page (devtools/fake_checkout.py), as Stripe's hosted
Checkout does for a browser: paying there marks the session paid, sends the signed
``checkout.session.completed`` webhook to ``webhook_url`` (or keeps it until
``release_webhooks`` when ``hold_webhooks`` is set, so a test sees the client back before
the payment is known) and redirects to the session's ``success_url``.
"""

import hashlib
import hmac
import itertools
import json
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from devtools.fake_checkout import pay_page

SECRET_KEY = "sk_test_ordina_fake"
WEBHOOK_SECRET = "whsec_ordina_test_secret"
# Stripe's bounds on a Checkout Session's expires_at, counted from its creation.
SESSION_SHORTEST = 30 * 60
SESSION_LONGEST = 24 * 60 * 60
STALL_SECONDS = 60.0  # a stalled request is answered after this even if nobody releases it


class Stall:
    """One request held at a point of its handling until ``release``: ``reached`` is set when a
    request arrives there."""

    def __init__(self) -> None:
        self.reached = threading.Event()
        self._released = threading.Event()

    def wait_here(self) -> None:
        self.reached.set()
        self._released.wait(STALL_SECONDS)

    def release(self) -> None:
        self._released.set()


def sign(payload: bytes, secret: str = WEBHOOK_SECRET, timestamp: int | None = None) -> str:
    """The Stripe-Signature header Stripe would send for ``payload``."""
    timestamp = int(time.time()) if timestamp is None else timestamp
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + payload, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


def event_payload(
    event_id: str,
    kind: str,
    obj: dict[str, Any],
    *,
    created: int | None = None,
    livemode: bool = False,
) -> bytes:
    return json.dumps(
        {
            "id": event_id,
            "object": "event",
            "type": kind,
            "created": int(time.time()) if created is None else created,
            "livemode": livemode,
            "api_version": "2025-01-27.acacia",
            "data": {"object": obj},
        }
    ).encode()


def nested_form(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """Stripe's form encoding (a[b][0][c]=x) back into nested dicts."""
    root: dict[str, Any] = {}
    for key, value in pairs:
        parts = key.replace("]", "").split("[")
        node = root
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return root


@dataclass
class FakeStripe:
    base_url: str = ""
    sessions: dict[str, dict[str, Any]] = field(default_factory=dict)
    refunds: dict[str, dict[str, Any]] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)
    idempotent: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    fail_next: int = 0  # answer this many requests with a 500
    # Session creation held "before" anything is created, or "after" (created, not answered).
    stalls: dict[str, Stall] = field(default_factory=dict)
    in_flight: set[str] = field(default_factory=set)  # idempotency keys being answered
    # Stripe judges a Checkout's expiry against its own clock; a world built in the past (the
    # capstone's orders were paid days ago) turns this off.
    checks_expiry: bool = True
    webhook_url: str = ""  # where the pay page's webhooks go; none are sent when empty
    hold_webhooks: bool = False
    held_webhooks: list[bytes] = field(default_factory=list)
    ids: Any = field(default_factory=lambda: itertools.count(1))
    lock: threading.Lock = field(default_factory=threading.Lock)

    def new_id(self, prefix: str) -> str:
        return f"{prefix}_test_{next(self.ids):06d}"

    # What a test does to the outside world: the client pays, or the session expires.
    def pay(self, session_id: str) -> dict[str, Any]:
        session = self.sessions[session_id]
        session.update(status="complete", payment_status="paid")
        return session

    def paid_by_client(self, session_id: str) -> dict[str, Any]:
        """The client paid on the pay page: the session is paid and Stripe tells the
        business by webhook (now, or when released)."""
        with self.lock:
            session = self.pay(session_id)
            payload = event_payload(self.new_id("evt"), "checkout.session.completed", session)
            if self.hold_webhooks:
                self.held_webhooks.append(payload)
                return session
        self._deliver(payload)
        return session

    def release_webhooks(self) -> None:
        with self.lock:
            held, self.held_webhooks = self.held_webhooks, []
        for payload in held:
            self._deliver(payload)

    def _deliver(self, payload: bytes) -> None:
        if not self.webhook_url:
            return
        # The URL is the test's own live server (http://127.0.0.1:…), never a client's input.
        request = urllib.request.Request(  # noqa: S310
            self.webhook_url,
            data=payload,
            headers={"Content-Type": "application/json", "Stripe-Signature": sign(payload)},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310
            answer.read()

    def expire(self, session_id: str) -> dict[str, Any]:
        session = self.sessions[session_id]
        session.update(status="expired")
        return session

    def stall(self, when: str) -> Stall:
        """Hold the next Checkout Session creation ``before`` or ``after`` it happens."""
        assert when in ("before", "after")
        self.stalls[when] = Stall()
        return self.stalls[when]

    def answer(self, method: str, path: str, form: dict[str, Any], headers: dict[str, str]):
        key = headers.get("Idempotency-Key") if method == "POST" else None
        with self.lock:
            if key and key in self.in_flight:
                # As Stripe does: a key whose first request is still being answered.
                message = "There is currently another in-progress request using this key"
                return 409, {"error": {"type": "idempotency_error", "message": message}}
            if key:
                self.in_flight.add(key)
        try:
            creating = method == "POST" and path.rstrip("/") == "/v1/checkout/sessions"
            if creating and (stall := self.stalls.pop("before", None)):
                stall.wait_here()  # outside the lock: other requests are answered meanwhile
            answered = self._answer(method, path, form, headers)
            if creating and (stall := self.stalls.pop("after", None)):
                stall.wait_here()
            return answered
        finally:
            if key:
                with self.lock:
                    self.in_flight.discard(key)

    def _answer(self, method: str, path: str, form: dict[str, Any], headers: dict[str, str]):
        with self.lock:
            self.requests.append({"method": method, "path": path, "form": form, "headers": headers})
            if headers.get("Authorization") != f"Bearer {SECRET_KEY}":
                return 401, {"error": {"type": "invalid_request_error", "message": "bad key"}}
            if self.fail_next:
                self.fail_next -= 1
                return 500, {"error": {"type": "api_error", "message": "fake outage"}}
            key = headers.get("Idempotency-Key")
            if method == "POST" and key and key in self.idempotent:
                return self.idempotent[key]
            status, body = self._route(method, path, form)
            if method == "POST" and key:
                self.idempotent[key] = (status, body)
            return status, body

    def _route(self, method: str, path: str, form: dict[str, Any]):
        parts = path.strip("/").split("/")
        if method == "POST" and parts == ["v1", "checkout", "sessions"]:
            return self._create_session(form)
        if method == "GET" and parts[:3] == ["v1", "checkout", "sessions"] and len(parts) == 4:
            session = self.sessions.get(parts[3])
            if session is None:
                return 404, {"error": {"type": "invalid_request_error", "message": "no session"}}
            return 200, session
        if (
            method == "POST"
            and parts[:3] == ["v1", "checkout", "sessions"]
            and parts[4:] == ["expire"]
        ):
            return self._expire_session(parts[3])
        if method == "POST" and parts == ["v1", "refunds"]:
            return 200, self._create_refund(form)
        return 404, {"error": {"type": "invalid_request_error", "message": f"no route {path}"}}

    def _create_session(self, form: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        expires_in = int(form["expires_at"]) - int(time.time())
        if self.checks_expiry and not SESSION_SHORTEST <= expires_in <= SESSION_LONGEST:
            message = "expires_at must be between 30 minutes and 24 hours from now"
            return 400, {"error": {"type": "invalid_request_error", "message": message}}
        session_id = self.new_id("cs")
        item = form["line_items"]["0"]
        amount = int(item["price_data"]["unit_amount"]) * int(item.get("quantity", 1))
        session = {
            "id": session_id,
            "object": "checkout.session",
            "url": f"{self.base_url}/pay/{session_id}",
            "status": "open",
            "payment_status": "unpaid",
            "payment_intent": self.new_id("pi"),
            "amount_total": amount,
            "currency": item["price_data"]["currency"],
            "livemode": False,
            "expires_at": int(form["expires_at"]),
            "metadata": form.get("metadata", {}),
            "customer_email": form.get("customer_email"),
            "success_url": form.get("success_url"),
            "cancel_url": form.get("cancel_url"),
        }
        self.sessions[session_id] = session
        return 200, session

    def _expire_session(self, session_id: str) -> tuple[int, dict[str, Any]]:
        session = self.sessions.get(session_id)
        if session is None:
            return 404, {"error": {"type": "invalid_request_error", "message": "no session"}}
        if session["status"] != "open":
            message = f"Only Checkout Sessions with a status of open can be expired ({session_id})"
            return 400, {"error": {"type": "invalid_request_error", "message": message}}
        session.update(status="expired")
        return 200, session

    def _create_refund(self, form: dict[str, Any]) -> dict[str, Any]:
        refund = {
            "id": self.new_id("re"),
            "object": "refund",
            "amount": int(form["amount"]),
            "payment_intent": form["payment_intent"],
            "status": "succeeded",
            "metadata": form.get("metadata", {}),
        }
        self.refunds[refund["id"]] = refund
        return refund


class _Handler(BaseHTTPRequestHandler):
    server: "_Server"

    def _serve(self, method: str) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode() if length else ""
        url = urlsplit(self.path)
        pairs = parse_qsl(body or url.query, keep_blank_values=True)
        if url.path.startswith("/pay/"):
            session_id = url.path.removeprefix("/pay/")
            self._send(*pay_page(self.server.fake, method, session_id, dict(pairs)))
            return
        status, answer = self.server.fake.answer(
            method, url.path, nested_form(pairs), dict(self.headers.items())
        )
        headers = {"Content-Type": "application/json", "Request-Id": "req_fake"}
        self._send(status, headers, json.dumps(answer).encode())

    def _send(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.send_response(status)
        for name, value in {**headers, "Content-Length": str(len(body))}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def log_message(self, format: str, *args: object) -> None:
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeStripe


def start_fake_stripe(*, checks_expiry: bool = True) -> tuple[FakeStripe, _Server]:
    server = _Server(("127.0.0.1", 0), _Handler)
    fake = FakeStripe(
        base_url=f"http://127.0.0.1:{server.server_address[1]}", checks_expiry=checks_expiry
    )
    server.fake = fake
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return fake, server
