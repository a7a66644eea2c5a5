"""Spanish dates and times as a reply writes them: "el jueves", "el 4 de diciembre", "mañana",
"la semana que viene", "por la tarde", "a las 10", "a las cuatro y media de la tarde". Pure tables
and patterns; ``agent.guards.dates`` checks each mention they find against the handed-over
moments, as it does the English ones (clock readings and numeric dates are shared).
"""

from __future__ import annotations

import re

from agent.guards.reading import plain

WEEKDAYS = {
    "lunes": 0, "martes": 1, "miercoles": 2, "jueves": 3, "viernes": 4, "sabado": 5, "domingo": 6,
}  # fmt: skip
MONTHS = {
    "enero": 1, "febrero": 2, "marzo": 3, "abril": 4, "mayo": 5, "junio": 6, "julio": 7,
    "agosto": 8, "septiembre": 9, "setiembre": 9, "octubre": 10, "noviembre": 11, "diciembre": 12,
}  # fmt: skip
HOURS = {
    "una": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8,
    "nueve": 9, "diez": 10, "once": 11, "doce": 12,
}  # fmt: skip
# The Spanish relative days, as the English ones they mean.
RELATIVE = {
    "hoy": "today",
    "esta noche": "tonight",
    "manana": "tomorrow",
    "pasado manana": "day after tomorrow",
    "ayer": "yesterday",
    "esta manana": "this morning",
    "esta tarde": "this afternoon",
    "esta semana": "this week",
    "este fin de semana": "this weekend",
    "el fin de semana": "the weekend",
    "la semana que viene": "next week",
    "la proxima semana": "next week",
    "la semana proxima": "next week",
    "la semana siguiente": "next week",
    "el mes que viene": "next month",
    "el proximo mes": "next month",
}
_N = r"[nñ]"
PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    # "a las 10", "a la una", "a las cuatro y media", "a las cinco menos cuarto de la tarde".
    (
        "hour_es",
        re.compile(
            rf"\ba\s+las?\s+(?P<h>1[0-2]|0?[1-9]|{'|'.join(HOURS)})\b(?![.,:]?\d)"
            r"(?:\s+y\s+(?P<frac>media|cuarto)|\s+menos\s+(?P<less>cuarto))?"
            rf"(?:\s+(?:de\s+la|por\s+la)\s+(?P<part>ma{_N}ana|tarde|noche))?",
            re.IGNORECASE,
        ),
    ),
    (
        "offset",
        re.compile(
            r"\b(?:en|dentro\s+de)\s+(?P<n>\d+)\s+(?P<unit>d[ií]as?|semanas?|horas?|minutos?)\b",
            re.IGNORECASE,
        ),
    ),
    ("noon", re.compile(r"\b(?P<word>mediod[ií]a|medianoche)\b", re.IGNORECASE)),
    (
        "weekday",
        re.compile(
            r"\b(?P<weekday>lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bados?|domingos?)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "month_day",
        re.compile(rf"\b(?P<day2>[0-3]?\d)\s+de\s+(?P<month2>{'|'.join(MONTHS)})\b", re.IGNORECASE),
    ),
    (
        "relative",
        re.compile(
            rf"\b(?P<rel>pasado\s+ma{_N}ana|esta\s+(?:ma{_N}ana|tarde|noche|semana)|hoy|ayer"
            rf"|(?<!la\s)ma{_N}ana|este\s+fin\s+de\s+semana|el\s+fin\s+de\s+semana"
            r"|la\s+semana\s+(?:que\s+viene|pr[oó]xima|siguiente)|la\s+pr[oó]xima\s+semana"
            r"|el\s+mes\s+que\s+viene|el\s+pr[oó]ximo\s+mes)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "part_of_day",
        re.compile(rf"\b(?:por|de|en)\s+la\s+(?P<part>ma{_N}ana|tarde|noche)\b", re.IGNORECASE),
    ),
]
# Spanish days run later: "la tarde" lasts until dinner, "la noche" after it.
PARTS_OF_DAY = {"manana": range(5, 12), "tarde": range(12, 21), "noche": range(19, 24)}


def spoken_hour(match: re.Match[str]) -> set[tuple[int, int]]:
    """The clock readings a spoken Spanish hour may mean: "a las cuatro y media" is 4:30 or
    16:30, "de la tarde" says which; "menos cuarto" is a quarter before the hour ("a la una
    menos cuarto": 12:45); "de la noche" is the evening, or past midnight from twelve to four."""
    said = plain(match["h"])
    hour = int(said) if said.isdigit() else HOURS[said]
    minute = {"media": 30, "cuarto": 15}.get(plain(match["frac"] or ""), 0)
    if match["less"]:
        hour, minute = (hour - 2) % 12 + 1, 45
    part = plain(match["part"] or "")
    if part == "manana" or (part == "noche" and (hour == 12 or hour < 5)):
        hours = {hour % 12}
    elif part:
        hours = {hour % 12 + 12}
    else:
        hours = {hour % 12, hour % 12 + 12}
    return {(h, minute) for h in hours}
