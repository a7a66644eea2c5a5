"""A model that says exactly what it is told: for tests, and for the demo's careless model.

Each ``propose`` takes the next scripted turn — a ``Proposed``, a function of the turn's
context, or an exception to raise (``ModelUnavailable`` to play a failing model). Each
``narrate`` takes the next scripted draft, or narrates like the offline model when the script
has none (``None`` in the script does the same). What it saw is kept for assertions.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

from agent.llm.base import Narration, Proposed, TurnContext
from agent.offline.model import OfflineModel

Turn = Proposed | Exception | Callable[[TurnContext], Proposed]
Draft = str | Exception | None


class ScriptExhausted(AssertionError):
    """The conversation asked for more turns than the script has: a mistake in the test."""


class ScriptedModel:
    name = "scripted"
    # Played like a remote model: narrated after the commit, shown history and menu.
    narrates_in_process = False
    reads_history = True
    reads_menu = True

    def __init__(self, turns: Iterable[Turn] = (), drafts: Iterable[Draft] = ()) -> None:
        self._turns: deque[Turn] = deque(turns)
        self._drafts: deque[Draft] = deque(drafts)
        self.contexts: list[TurnContext] = []
        self.narrations: list[Narration] = []

    def add(self, *turns: Turn, drafts: Iterable[Draft] = ()) -> None:
        self._turns.extend(turns)
        self._drafts.extend(drafts)

    def propose(self, context: TurnContext) -> Proposed:
        self.contexts.append(context)
        if not self._turns:
            raise ScriptExhausted(f"no scripted turn left for {context.message!r}")
        turn = self._turns.popleft()
        if isinstance(turn, Exception):
            raise turn
        return turn(context) if callable(turn) else turn

    def narrate(self, narration: Narration) -> str:
        self.narrations.append(narration)
        draft = self._drafts.popleft() if self._drafts else None
        if isinstance(draft, Exception):
            raise draft
        return OfflineModel().narrate(narration) if draft is None else draft
