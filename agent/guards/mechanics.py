"""Internal mechanics: the client talks to staff, never to a system.

Per language: the staff words a mechanic is renamed to, and the mechanics that go with their
sentence. A Spanish reply is also checked for the English terms (models slip into "API",
"prompt"). A language without a list fails closed: every sentence that is not the core's goes.
"""

from __future__ import annotations

import re

from agent.guards.ledger import GuardResult, Rewrite, TurnFacts
from agent.guards.links import LINK
from agent.guards.reading import language_of, plain, unreadable
from agent.guards.sentences import drop_sentences

# --------------------------------------------------------------------------- (6) internal mechanics

# Replaced in place: the staff way of saying the same thing.
_MECHANICS_RENAMED = [
    (
        re.compile(r"\b(the |our |my )?confirm(ation)? cards?\b", re.IGNORECASE),
        "the Confirm button",
    ),
    (re.compile(r"\b(the |our |my )?databases?\b", re.IGNORECASE), "our records"),
    (re.compile(r"\b(a |the )?system messages?\b", re.IGNORECASE), "a note"),
]
# No staff equivalent: the sentence goes.
_MECHANICS_HIDDEN = re.compile(
    r"\b(advisory locks?|row locks?|(the|a|our) lock|locking|mutex|tool[ -]?calls?|"
    r"(my|the|a) tools?|function[ -]?calls?|instructions I was given|"
    r"(system|my|the) prompt(?!\s+(reply|response|service|attention))|"
    r"json|api|endpoint|backend|webhook|(language|ai) model|the model|llm|as an ai|"
    r"i am an ai|i['’]?m an ai|schema)\b",
    re.IGNORECASE,
)
_MECHANICS_RENAMED_ES = [
    (
        re.compile(r"\b(la |nuestra |mi )?tarjetas? de confirmaci[oó]n\b", re.IGNORECASE),
        "el botón Confirmar",
    ),
    (re.compile(r"\b(la |nuestra |mi )?bases? de datos\b", re.IGNORECASE), "nuestros registros"),
    # The article stays: "ningún mensaje del sistema" → "ningún aviso".
    (re.compile(r"\bmensaje del sistema\b", re.IGNORECASE), "aviso"),
]
# On the plain sentence (accents dropped).
_MECHANICS_HIDDEN_ES = re.compile(
    r"\b(bloqueos?( de fila| consultivos?)?|(el|un|nuestro) bloqueo|mutex|"
    r"llamadas? a (la |una )?(herramienta|funcion)|herramientas?|"
    r"instrucciones que (me dieron|me han dado|tengo)|"
    r"(mi|el|las) (prompt|instrucciones del sistema)|"
    r"json|api|endpoint|backend|webhooks?|modelos? de (lenguaje|ia)|el modelo|llm|"
    r"como (una )?ia|soy una ia|inteligencia artificial|sistemas? internos?|esquema)\b"
)
_MECHANICS = {
    "en": (_MECHANICS_RENAMED, (_MECHANICS_HIDDEN,)),
    "es": (_MECHANICS_RENAMED_ES, (_MECHANICS_HIDDEN_ES, _MECHANICS_HIDDEN)),
}


def internal_mechanics_guard(reply: str, facts: TurnFacts) -> GuardResult:
    """The client talks to staff: no system messages, cards, databases, locks, tools or prompts."""
    tables = _MECHANICS.get(language_of(facts))
    if tables is None:
        return drop_sentences(reply, facts, "internal_mechanics", unreadable(facts, "mechanics"))
    renamed, hidden = tables
    text = reply
    rewrites: list[Rewrite] = []
    for pattern, staff_words in renamed:
        for match in pattern.finditer(text):
            rewrites.append(Rewrite("internal_mechanics", "internal term", match[0], staff_words))
        text = pattern.sub(staff_words, text)
    dropped = drop_sentences(
        text,
        facts,
        "internal_mechanics",
        # A link left here is one the core handed over (the links guard ran first): its path
        # ("/api/v1/manage/…") is no mechanic told.
        lambda s: (
            "internal mechanics revealed"
            if any(p.search(plain(LINK.sub(" ", s))) for p in hidden)
            else None
        ),
    )
    return GuardResult(dropped.text, rewrites + dropped.rewrites)
