"""Who is answering a conversation right now, known from the database itself.

A turn whose reply is written after its transaction commits (a remote model's narration, the
Confirm's Stripe call) marks the row with a reply lease, so a second message waits instead of
interleaving. A lease alone cannot tell a slow request from a dead one: a process killed mid-
Confirm would block the client's retry until the lease ran out. So on PostgreSQL such a turn
also holds a session-level advisory lock named after the conversation for as long as it works.
The database drops that lock the moment the process's connection dies, so a lease whose claim
nobody holds belongs to a dead request and is ignored: the retry goes on at once.

On SQLite (the single-process demo) there are no advisory locks and the lease decides alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection

# Conversation claims use PostgreSQL's two-key advisory locks, a key space apart from the
# one-key locks the booking core takes per (business, day); this first key names them.
CLAIM_NAMESPACE = 0x4F524443  # "ORDC"


class TurnInProgress(Exception):
    """The conversation's previous message (or Confirm) is still being answered by a live
    request."""


def claim_key(token_hash: str) -> int:
    """A signed 32-bit key from the conversation's token hash. Two conversations sharing one
    (a one-in-four-billion chance) would only ever wait for each other briefly."""
    return int.from_bytes(bytes.fromhex(token_hash[:8]), "big", signed=True)


def _postgres() -> bool:
    return connection.vendor == "postgresql"


@contextmanager
def conversation_claim(token_hash: str) -> Iterator[None]:
    """Hold the conversation's claim for the block; raises TurnInProgress when another live
    request holds it. A no-op where the database has no advisory locks."""
    if not _postgres():
        yield
        return
    key = claim_key(token_hash)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_try_advisory_lock(%s::integer, %s::integer)", [CLAIM_NAMESPACE, key]
        )
        if not cursor.fetchone()[0]:
            raise TurnInProgress()
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_unlock(%s::integer, %s::integer)", [CLAIM_NAMESPACE, key]
            )


def claimed_elsewhere(token_hash: str) -> bool:
    """Whether another live request holds the conversation's claim (this request's own claim
    does not count: a session may take its own lock again). Always True where there are no
    advisory locks, so the lease decides there. Inside a transaction: a free claim is taken
    until the transaction ends, which only keeps others out meanwhile."""
    if not _postgres():
        return True
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_try_advisory_xact_lock(%s::integer, %s::integer)",
            [CLAIM_NAMESPACE, claim_key(token_hash)],
        )
        free = cursor.fetchone()[0]
    return not free
