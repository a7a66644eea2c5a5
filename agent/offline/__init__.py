"""The offline deterministic model: reads client messages with real parsing, no network.

Only the reading half lives here so far (``reading.read_message``); it is pure — no database,
no clock of its own (``now`` is passed in) — so the shell can call it inside a turn and tests
can call it with any date.
"""

from agent.offline.reading import Intent, MessageReading, Money, TimeRequest, read_message

__all__ = ["Intent", "MessageReading", "Money", "TimeRequest", "read_message"]
