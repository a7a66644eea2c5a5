"""Confirmations while details are missing, payment talk ahead of its stage, and what a booking
claim is (for the dates guard). Whether a claim of any state is backed at all is decided by the
status guard (``agent.guards.status``), which fails closed.

Each guard believes only the ledger: a record the core reported this turn, never the draft's
confidence (the "Confirm" incident: a client typed "Confirm" and the model claimed a booking).

Their word lists are per language (English, Spanish; Spanish is matched on the plain sentence,
accents dropped), and what a guard writes instead is in the turn's language. Payment talk in a
language without a list fails closed: every sentence that is not the core's goes until the
payment stage; so does any sentence of the model's while details are missing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from babel.lists import format_list
from django.utils import translation
from django.utils.translation import get_language, gettext, pgettext

from agent.guards.ledger import GuardResult, Rewrite, TurnFacts
from agent.guards.reading import language_of, plain, unreadable
from agent.guards.sentences import drop_sentences, human_list, join_sentences, sentences
from ordina.locales import babel_locale

# --------------------------------------------------------------------------- (5) missing fields

_CONFIRMATION_TALK = re.compile(
    r"\b(confirm(ed|s|ing|ation)?|booked|reserved|all set|you['’]?re in|you are in|"
    r"lock(ed)? (it|that|this|you) in|finali[sz]e[sd]?|good to go)\b",
    re.IGNORECASE,
)
# On the plain sentence: "¿se la confirmo?", "confirmada", "le he reservado", "todo listo", "ya
# está hecho", "queda cerrada". "reserva" alone is the noun every sentence about booking uses.
_CONFIRMATION_TALK_ES = re.compile(
    r"\b(confirm\w*|reservad[ao]s?|reserve|reservo|agendad[ao]s?|apuntad[ao]s?|"
    r"todo (listo|lista|hecho)|(esta|queda|quedo) (hech|cerrad|list)[ao]|formaliz\w*)\b"
)
_CONFIRMATION_TALK_BY_LANGUAGE = {"en": _CONFIRMATION_TALK, "es": _CONFIRMATION_TALK_ES}


def required_fields_guard(reply: str, facts: TurnFacts) -> GuardResult:
    """No confirmation, offered or claimed, while the client's required details are missing.
    Read and answered in the turn's language; in one without a word list every sentence that
    is not the core's counts as confirmation talk (fails closed)."""
    if not facts.missing_fields:
        return GuardResult(reply)
    language = language_of(facts)
    talk = [s for s in sentences(reply) if not facts.is_core_said(s)]
    pattern = _CONFIRMATION_TALK_BY_LANGUAGE.get(language)
    if pattern is None:
        confirming = bool(talk)
    else:
        # English is matched as written (its pattern ignores case), Spanish without accents.
        confirming = any(pattern.search(s if language == "en" else plain(s)) for s in talk)
    if not confirming:
        return GuardResult(reply)
    with translation.override(facts.language):
        need = gettext("Before I can book this for you, I still need your %(details)s.") % {
            "details": _details_list(facts.missing_fields)
        }
    # What the core itself said (a refusal of a detail) stays in front of the request.
    after = join_sentences([*(s for s in sentences(reply) if facts.is_core_said(s)), need])
    reason = f"confirmation while missing: {', '.join(facts.missing_fields)}"
    return GuardResult(after, [Rewrite("required_fields", reason, reply, after)])


def _details_list(fields: tuple[str, ...]) -> str:
    """The missing details in the active language: "name and email", "nombre y correo
    electrónico"."""
    names = {
        "name": pgettext("a detail the client gives", "name"),
        "email": pgettext("a detail the client gives", "email"),
        "phone": pgettext("a detail the client gives", "phone"),
    }
    named = [names.get(field, field.replace("_", " ")) for field in fields]
    language = (get_language() or "en").split("-")[0]
    if language == "en" or len(named) <= 1:
        return human_list(named)
    return format_list(named, locale=babel_locale(language))


# --------------------------------------------------------------------------- booking claims

# A sentence that says a booking is made: the dates guard then allows in it only the booked
# time, not an offered one. (Whether any claim is backed at all is the status guard's to say.)
_BOOKING_CLAIM = re.compile(
    r"\b(confirmed|booked|reserved|scheduled|all set|you['’]?re in|you are in|"
    r"locked (it|that|this|you) in|good to go|all sorted|is sorted|went through|gone through|"
    r"finali[sz]ed|see you (then|on|at|tomorrow|soon|next|this|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b",
    re.IGNORECASE,
)
# A claim word closely preceded by one of these is a denial, a condition or a future, not a claim.
# Modals count only with "be"/"get" ("will be confirmed"): "I can confirm it's booked" is a claim.
_NOT_A_CLAIM = re.compile(
    r"\b(not|nothing|never|once|when|after|until|unless|if|before|pending|as soon as|hope)\b"
    r"|n['’]t\b"
    r"|(\b(will|would|can|could|shall|should|must|might|to|needs?)|['’]ll)\s+(be|get|become)\b",
    re.IGNORECASE,
)
_EMPHASIS = re.compile(r"\b(once again|yet again|again)\b", re.IGNORECASE)
_CLAIM_WINDOW_WORDS = 4
# The same in Spanish, on the plain sentence: "confirmada", "le he reservado", "todo listo",
# "nos vemos el jueves"; not after "no", "cuando", "si", "hasta que", "en cuanto", nor a
# future or a modal with "ser"/"estar"/"quedar" ("quedará confirmada", "puede estar reservada").
_BOOKING_CLAIM_ES = re.compile(
    r"\b(confirmad[ao]s?|reservad[ao]s?|agendad[ao]s?|programad[ao]s?|apuntad[ao]s?|"
    r"todo listo|ya esta hecho|nos vemos)\b"
)
_NOT_A_CLAIM_ES = re.compile(
    r"\b(no|nada|nunca|cuando|si|hasta que|antes de|despues de|una vez|en cuanto|pendiente|"
    r"espero|sera|seria|estara|estaria|quedara|quedaria|va a|puede|podria|debe|tiene que)\b"
)


def is_booking_claim(sentence: str, language: str = "en") -> bool:
    """The sentence says a booking is made (read in ``language``; English if it has no list)."""
    if language == "es":
        text = plain(sentence)
        return any(
            not _NOT_A_CLAIM_ES.search(" ".join(text[: m.start()].split()[-_CLAIM_WINDOW_WORDS:]))
            for m in _BOOKING_CLAIM_ES.finditer(text)
        )
    for match in _BOOKING_CLAIM.finditer(sentence):
        before = _EMPHASIS.sub("", sentence[: match.start()]).split()[-_CLAIM_WINDOW_WORDS:]
        if not _NOT_A_CLAIM.search(" ".join(before)):
            return True
    return False


# --------------------------------------------------------------------------- (4) payment talk

_PAYMENT_TALK = re.compile(
    r"\b(deposit|pay|paying|payment|payments|prepay|prepayment|checkout|invoice|"
    r"(credit|debit|bank) card|card (details|number)|stripe|pay(ment)? link)\b",
    re.IGNORECASE,
)
# On the plain sentence. English payment words count in a Spanish reply too ("Stripe", "checkout").
_PAYMENT_TALK_ES = re.compile(
    r"\b(deposito|depositos|senal|pago|pagos|pagar|pague|pagarlo|pagarla|prepago|abonar|abono|"
    r"cobro|cobrar|factura|tarjeta de (credito|debito)|tarjeta bancaria|"
    r"(datos|numero) de (la |su )?tarjeta|enlace de pago|stripe|checkout)\b"
)
_PAYMENT_TALK_BY_LANGUAGE = {"en": (_PAYMENT_TALK,), "es": (_PAYMENT_TALK_ES, _PAYMENT_TALK)}


def payment_talk_guard(reply: str, facts: TurnFacts) -> GuardResult:
    """Payment is mentioned only once the core has asked for it; before that, the next step."""
    if facts.payment_requested or facts.payment_verified:
        return GuardResult(reply)
    patterns = _PAYMENT_TALK_BY_LANGUAGE.get(language_of(facts))
    offending = unreadable(facts, "payment") if patterns is None else _talk(patterns, facts)
    result = drop_sentences(reply, facts, "payment_talk", offending)
    if not result.rewrites:
        return result
    next_step = facts.next_step_text()
    if next_step in result.text:
        return result
    return GuardResult(join_sentences([result.text, next_step]), result.rewrites)


def _talk(patterns: tuple[re.Pattern[str], ...], facts: TurnFacts) -> Callable[[str], str | None]:
    """Why a sentence is payment talk (None: it is not, or it quotes the business)."""

    def reason(sentence: str) -> str | None:
        if any(p.search(plain(sentence)) for p in patterns) and not facts.quotes_knowledge(
            sentence
        ):
            return "payment talk before the payment stage"
        return None

    return reason
