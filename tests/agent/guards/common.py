"""The turn most guard tests are about: the core offered Thursday 3 December at 14:00 and 16:30
(Amsterdam) at 45.00 EUR for a haircut, on Tuesday 1 December; nothing is booked."""

import re
from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from agent.guards import GUARDS, Price, TurnFacts

AMSTERDAM = ZoneInfo("Europe/Amsterdam")
TODAY = date(2026, 12, 1)
THURSDAY_14 = datetime(2026, 12, 3, 14, 0, tzinfo=AMSTERDAM)
THURSDAY_1630 = datetime(2026, 12, 3, 16, 30, tzinfo=AMSTERDAM)
CUT = Price(Decimal("45.00"), "EUR")
NEXT_STEP = "Which of the two times suits you?"
NOTHING_HANDED_OVER = {"datetimes": (), "prices": (), "today": None}

BOOKING_WORDS = re.compile(
    r"\b(confirmed|booked|all set|you['’]?re in|reserved|good to go)\b", re.IGNORECASE
)

ASKED_ABOUT_EVERYTHING = frozenset(
    {"booking", "hold", "payment", "refund", "cancel", "move", "message", "discount"}
)


def facts(**overrides) -> TurnFacts:
    """A turn where the core offered two Thursday slots at the listed price; nothing booked."""
    values = {
        "zone": "Europe/Amsterdam",
        "language": "en",
        "today": TODAY,
        "datetimes": (THURSDAY_14, THURSDAY_1630),
        "prices": (CUT,),
        "next_step": NEXT_STEP,
        # As if the client had asked about every state: each dropped claim's denial is said.
        "asked_topics": ASKED_ABOUT_EVERYTHING,
        "names": ("Studio Lumen", "Haircut", "Anna"),
    }
    return TurnFacts(**(values | overrides))


def without(guard_name: str):
    return tuple((name, guard) for name, guard in GUARDS if name != guard_name)


# The same turn told in Spanish: the core's next step in the client's language.
NEXT_STEPS = {"en": NEXT_STEP, "es": "¿Cuál de las dos horas le viene mejor?"}
LANGUAGES = tuple(NEXT_STEPS)


def facts_in(language: str, **overrides) -> TurnFacts:
    """The usual turn (``facts``), in ``language``."""
    return facts(**({"language": language, "next_step": NEXT_STEPS[language]} | overrides))
