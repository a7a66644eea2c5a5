"""The reading tables of the languages clients write in, and which language a message is in.

A language the offline model reads is a table here (``TABLES``) — its words and patterns,
nothing else; the reader (agent.offline.reading) is the same for all. ``clear_language`` tells
the conversation which language a client clearly writes in, counting the words that belong to
one table only.
"""

import re
import unicodedata

from agent.offline.languages.en import ENGLISH
from agent.offline.languages.es import SPANISH
from agent.offline.languages.table import ReadingTable

TABLES: dict[str, ReadingTable] = {table.code: table for table in (ENGLISH, SPANISH)}

# A message this short (in words of one language only) says nothing clearly: "si", "ok", "no".
CLEAR_WORDS = 2


def table_for(language: str) -> ReadingTable:
    """The reading table of ``language`` ("en", "es"); ValueError for a language without one."""
    try:
        return TABLES[language]
    except KeyError:
        raise ValueError(f"No reading table for the language {language!r}.") from None


def fold_accents(text: str) -> str:
    """``text`` with each accented letter as its base letter ("mañana" -> "manana"), one
    character for one, so positions in it are positions in ``text``."""
    return "".join(_folded(char) for char in text)


def _folded(char: str) -> str:
    if char.isascii():
        return char
    base = unicodedata.normalize("NFD", char)[0]
    return base if base.isascii() else char


def _distinct_words() -> dict[str, frozenset[str]]:
    """Each table's words that no other table has ("el", "quiero"; "the", "want")."""
    words = {
        code: frozenset(fold_accents(word) for word in table.vocabulary())
        for code, table in TABLES.items()
    }
    return {
        code: own - frozenset().union(*(other for key, other in words.items() if key != code))
        for code, own in words.items()
    }


DISTINCT_WORDS = _distinct_words()


def clear_language(text: str) -> str | None:
    """The supported language ``text`` is clearly written in, or None when unclear: too few
    words of any one language ("ok", "si", a name, an email, "10:30"), or words of two (a mixed
    message). Words shared by two languages ("no", "a") count for neither."""
    without_addresses = re.sub(r"\S*@\S*", " ", text.lower())
    words = re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", fold_accents(without_addresses))
    counts = {
        code: sum(word in distinct for word in words) for code, distinct in DISTINCT_WORDS.items()
    }
    ranked = sorted(counts.items(), key=lambda pair: pair[1], reverse=True)
    (best, most), *others = ranked
    second = others[0][1] if others else 0
    if most < CLEAR_WORDS:
        return None
    # A word or two of another language in a long message ("ok", "thanks") leaves it clear.
    if second == 0 or most >= 3 * second:
        return best
    return None
