"""The fake Stripe's hosted Checkout page: what a browser sees at a Checkout Session's ``url``.

GET shows the amount with Pay and Cancel; POST ``pay`` pays (the webhook goes out as Stripe's
would) and redirects to the session's ``success_url``; POST ``cancel`` redirects to its
``cancel_url`` and leaves the session open, as backing out of Stripe's page does.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from devtools.fake_stripe import FakeStripe

Answer = tuple[int, dict[str, str], bytes]

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>Pay {amount} — test checkout</title></head>
<body><main><h1>Test checkout</h1>
<p>Deposit: <strong id="amount">{amount}</strong></p>
<form method="post"><button name="choice" value="pay">Pay {amount}</button>
<button name="choice" value="cancel">Cancel</button></form></main></body></html>
"""


def pay_page(fake: FakeStripe, method: str, session_id: str, form: dict[str, Any]) -> Answer:
    session = fake.sessions.get(session_id)
    if session is None:
        return _text(404, "No such checkout session.")
    if method == "GET":
        amount = f"{session['amount_total'] / 100:.2f} {session['currency'].upper()}"
        page = PAGE.format(amount=html.escape(amount))
        return 200, {"Content-Type": "text/html; charset=utf-8"}, page.encode()
    if session["status"] != "open":
        return _text(409, f"This checkout is {session['status']}.")
    if form.get("choice") == "pay":
        fake.paid_by_client(session_id)
        return _redirect(session["success_url"])
    return _redirect(session["cancel_url"])


def _redirect(url: str) -> Answer:
    return 303, {"Location": url}, b""


def _text(status: int, message: str) -> Answer:
    return status, {"Content-Type": "text/plain; charset=utf-8"}, message.encode()
