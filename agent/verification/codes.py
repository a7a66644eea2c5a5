"""One-time codes: how they are made, kept and judged. Pure: the secret and the clock are
handed in.

A code is six digits from the operating system's random source, good for ``LIFETIME``, for
one successful use and ``ATTEMPTS`` tries. Only its digest is kept — an HMAC-SHA256 keyed by
the project's secret and salted per code — so a copy of the table (a backup, a leaked
replica) gives no code back: six digits are a million guesses, each needing the key.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from enum import StrEnum

DIGITS = 6
LIFETIME = dt.timedelta(minutes=10)
ATTEMPTS = 5  # tries of one code; the sixth is refused even if right
CODES_PER_HOUR = 3  # codes one conversation may ask for in an hour (each is an email sent)
# The same per address, across every conversation of the business: a new chat is a click away,
# so these bound the guesses at one client's bookings (and the emails to them) — 5 codes an
# hour, and no new code once 20 tries were made at that address in a day.
CODES_PER_ADDRESS_HOUR = 5
TRIES_PER_ADDRESS_DAY = 20


def new_code() -> str:
    return f"{secrets.randbelow(10**DIGITS):0{DIGITS}d}"


def new_salt() -> str:
    return secrets.token_hex(16)


def digest(code: str, *, salt: str, secret: str) -> str:
    message = f"{salt}:{code}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def typed_code(text: str) -> str | None:
    """The code as the client typed it ("123 456", "123-456"), or None if it cannot be one."""
    digits = "".join(ch for ch in text if not ch.isspace() and ch != "-")
    return digits if len(digits) == DIGITS and digits.isascii() and digits.isdigit() else None


class Verdict(StrEnum):
    VERIFIED = "verified"
    WRONG = "wrong_code"
    EXPIRED = "code_expired"
    USED_UP = "too_many_attempts"
    NONE_WAITING = "no_code"


@dataclass(frozen=True)
class Waiting:
    """The conversation's latest code, as stored."""

    digest: str
    salt: str
    expires_at: dt.datetime
    attempts: int  # tries already made
    used: bool


def judge(typed: str, waiting: Waiting | None, *, now: dt.datetime, secret: str) -> Verdict:
    """What a typed code earns. The digest is compared in constant time, and only after the
    code is known to be live and tries remain — a used-up code says so even when right."""
    if waiting is None or waiting.used:
        return Verdict.NONE_WAITING
    if waiting.expires_at <= now:
        return Verdict.EXPIRED
    if waiting.attempts >= ATTEMPTS:
        return Verdict.USED_UP
    code = typed_code(typed)
    expected = digest(code or "", salt=waiting.salt, secret=secret)
    if code is not None and hmac.compare_digest(expected, waiting.digest):
        return Verdict.VERIFIED
    return Verdict.WRONG


def attempts_left(waiting: Waiting) -> int:
    """Tries left after the one just made (counted in ``attempts``)."""
    return max(0, ATTEMPTS - waiting.attempts)


def masked_email(email: str) -> str:
    """ "ana.perez@example.com" → "a…@example.com": enough to recognise, not to learn."""
    local, at, domain = email.partition("@")
    return f"{local[:1]}…{at}{domain}" if at else "…"
