"""When the offline model cannot read a message, and when the client takes up its offer of a person.

"Cannot read" is decided conservatively: only a message in which the reader found nothing the
assistant can act on or answer. Anything it did find — a service, a time, an amount, contact
details, a yes/no/confirm/cancel, a pick among offered times, a change asked of a booking this
conversation acts on, a question the business's knowledge answers or the booking's standing
answers — is read, and handled as before. So are greetings and thanks ("hi", "hola",
"gracias"), and messages with no words at all ("👍"): nobody asked for anything.

Pure: plain values in, a yes or no out; no database, no clock, no Django.
"""

from __future__ import annotations

import re
import unicodedata

from agent.offline.languages import TABLES
from agent.offline.reading import Intent, MessageReading

# Greetings, thanks and goodbyes in every language read (each reading table's), as words: a
# message made only of these asks for nothing, so it is never "unreadable" — in whichever
# language the client greets.
PLEASANTRIES = frozenset().union(*(table.pleasantries for table in TABLES.values()))
LETTERS = re.compile(r"[^\W\d_]{2,}")


def cannot_read(
    reading: MessageReading,
    message: str,
    *,
    answered: bool,
    acts_on_booking: bool,
    name_expected: bool,
    picked: bool,
) -> bool:
    """Whether the message gives the assistant nothing to act on or answer.

    ``answered``: a passage of the business's knowledge answers it; ``acts_on_booking``: the
    conversation acts on a booking (its own or a returning client's chosen one), so a change
    asked of "it" and a question about it are read; ``name_expected``: the conversation is
    asking for the client's name, so a name-shaped message is their name (otherwise a
    name-shaped message counts only when the reader recognised it: "asdf qwer" is not a name);
    ``picked``: the message picks one of the times offered ("the first one")."""
    words = [_plain(word) for word in LETTERS.findall(message)]
    if not words or all(word in PLEASANTRIES for word in words):
        return False
    if reading.is_routine or reading.intent is not None or picked:
        return False
    found = (
        reading.service_ids,
        reading.times,
        reading.emails,
        reading.phones,
        reading.amounts,
        reading.money_back,
        reading.bad_emails,
        reading.bad_phones,
    )
    if any(found) or (reading.name is not None and name_expected):
        return False
    if acts_on_booking and (reading.requests or reading.is_question):
        return False
    return not (reading.is_question and answered)


def accepts_person(reading: MessageReading) -> bool:
    """The client's answer to the offer of a person is a plain yes ("yes", "yes please",
    "ok"), with nothing else in it to act on: "yes, a haircut on Friday" books instead.
    "Confirm" ("confirmo") is no yes to a person: it is said of a booking, and confirms the one
    held, as it would without the offer."""
    if reading.intent != Intent.YES:
        return False
    other = (
        reading.service_ids,
        reading.times,
        reading.emails,
        reading.phones,
        reading.amounts,
        reading.requests,
    )
    return not any(other) and reading.name is None


def _plain(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))
