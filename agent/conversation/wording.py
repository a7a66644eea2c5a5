"""How the core's facts are written for a client: times and days in the business's zone, in
words, never as ISO timestamps (a raw "2026-12-03T00:00:00+00:00" is both unreadable and, to
the reply guards, an unapproved time). Pure but for the active language (Django's translation,
which the turn sets to the conversation's): the order of the words is the catalogue's, the names
of days and months are Babel's (CLDR) for that language.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from babel.dates import format_date
from babel.lists import format_list
from django.utils.translation import gettext

from agent.guards.sentences import human_list
from ordina.locales import babel_locale


def local_label(moment: dt.datetime, time_zone: str) -> str:
    """How a time is written to the client: "Wednesday 2 December at 10:00"; in Spanish
    "miércoles 2 de diciembre a las 10:00"."""
    local = moment.astimezone(ZoneInfo(time_zone))
    # Translators: a day and time told to a client; weekday and month are already in the
    # language, time is 24-hour "10:00".
    return gettext("%(weekday)s %(day)s %(month)s at %(time)s") % {
        **_day_parts(local.date()),
        "time": f"{local:%H:%M}",
    }


def day_label(day: dt.date) -> str:
    """How a day is written to the client: "Wednesday 2 December"; "miércoles 2 de diciembre"."""
    # Translators: a day told to a client; weekday and month are already in the language.
    return gettext("%(weekday)s %(day)s %(month)s") % _day_parts(day)


def spoken_list(items: list[str]) -> str:
    """Several things in one phrase: "a, b and c" in English (the house style, no comma before
    "and"), as Babel (CLDR) lists them in any other language ("a, b y c")."""
    locale = babel_locale()
    if locale.language == "en":
        return human_list(items)
    return format_list(items, locale=locale) if items else ""


def _day_parts(day: dt.date) -> dict[str, str]:
    locale = babel_locale()
    return {
        "weekday": format_date(day, "EEEE", locale=locale),
        "day": str(day.day),
        "month": format_date(day, "MMMM", locale=locale),
    }
