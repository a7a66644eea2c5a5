"""How the guards read a reply's words, whatever its language: compared plain (lower case,
accents and apostrophes gone), and by the language's base code ("es-MX" reads as "es").

And what a guard does with a language it has no tables for: it cannot tell a claim from small
talk there, so every sentence that is not the core's own goes (fails closed), never through. Pure.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from agent.guards.ledger import TurnFacts
from agent.guards.sentences import sentences

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*", re.UNICODE)


def plain(text: str) -> str:
    """Lower case, accents and apostrophes gone: how words are compared."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).replace("’", "'")


def words_of(sentence: str) -> list[str]:
    """The sentence's words (letters only: numbers, times and amounts are other guards')."""
    return _WORD.findall(sentence)


def language_of(facts: TurnFacts) -> str:
    """The base language of the turn: its tables are per base language."""
    return facts.language.split("-")[0].lower()


def unreadable(facts: TurnFacts, guard: str) -> Callable[[str], str | None]:
    """For a guard without tables for the turn's language: every sentence goes except the
    core's own words (its next step, a quote from the business's knowledge; what it said this
    turn is kept by ``drop_sentences`` itself)."""
    core = set(sentences(facts.next_step_text()))

    def reason(sentence: str) -> str | None:
        if sentence in core or facts.quotes_knowledge(sentence):
            return None
        return f"no {guard} words for the language {facts.language!r}: nothing is vouched for"

    return reason
