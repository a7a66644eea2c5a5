"""Status talk fails closed: a model's sentence survives only if the guard knows every word of it
and every state it speaks of is a fact of this turn's ledger (ADR 0007).

A sentence is judged by the words the guard knows (``agent.guards.vocabulary``), not by the
phrases it has seen: a claim worded in words it does not know is not let through for being
new — it fails. So each sentence of a draft is one of:

- **the core's own** — word for word a sentence of the core's narration of this turn, one of
  its refusals, or a sentence quoted from the business's knowledge: kept as it is;
- **unknown** — a word outside the vocabulary (the business's, service and client names are
  known too): dropped, whatever it says;
- **status talk** — a state word or phrase of a topic (booking, hold, payment, refund,
  cancellation, move, price, discount), or a booking's thing named without one ("your
  appointment is …" speaks of every state an appointment could be in): kept only if every
  topic is a positive fact of the ledger, it is not a denial or a question (those are the
  core's to make), and each time and amount it names is that fact's own — a hold only its held
  time while the hold is live, a refund only the amount refunded. A number is never corrected
  inside such a sentence: an unbacked claim goes whole, never dressed in the core's figure;
- **small talk and offers** — known words, no state: kept for the next guards (dates, prices).

When anything is dropped, the client reads what is true instead: the core's own narration of
the turn, after one sentence denying each dropped kind of claim that the client asked about
("is it booked?" — "Nothing is booked yet."; a claim about what they never asked needs no
denial: they never saw it). The denial is said in the turn's language; a language without
denials in ``_DENIED`` gets the narration alone. Pure.
"""

from __future__ import annotations

import re
from dataclasses import replace

from agent.guards.dates import date_problem
from agent.guards.ledger import GuardResult, Rewrite, TurnFacts
from agent.guards.links import LINK
from agent.guards.prices import AMOUNT, amount_of
from agent.guards.reading import language_of, plain, words_of
from agent.guards.sentences import join_sentences, sentences
from agent.guards.vocabulary import THING_TOPICS, VOCABULARIES, Vocabulary

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")

# What is true instead of each kind of claim the ledger denies, per language.
_DENIED = {
    "en": {
        "booking": "nothing is booked yet",
        "hold": "no time is being held for you",
        "payment": "I can't see a completed payment yet",
        "refund": "no refund has been made",
        "cancel": "nothing has been cancelled",
        "move": "nothing has been moved",
        "message": "nothing has been sent yet",
        "discount": "no discount has been given",
    },
    "es": {
        "booking": "todavía no hay nada reservado",
        "hold": "no tenemos ninguna hora apartada para usted",
        "payment": "todavía no veo ningún pago completado",
        "refund": "no se ha hecho ningún reembolso",
        "cancel": "no se ha cancelado nada",
        "move": "no se ha cambiado nada",
        "message": "todavía no se ha enviado nada",
        "discount": "no se ha aplicado ningún descuento",
    },
}
_AWAITING_DEPOSIT = {
    "en": "your booking is not complete until the deposit is paid",
    "es": "su reserva no estará completa hasta que se pague el depósito",
}
_AND = {"en": ", and ", "es": " y "}


def status_guard(reply: str, facts: TurnFacts) -> GuardResult:
    vocabulary = VOCABULARIES.get(language_of(facts))
    denials = _DENIED.get(language_of(facts), {})
    known_names = _names(facts, vocabulary)
    kept_before: list[str] = []
    kept: list[str] = []
    denied: list[str] = []
    rewrites: list[Rewrite] = []
    for sentence in sentences(reply):
        reason, topics = _judged(sentence, facts, vocabulary, known_names)
        if reason is None:
            (kept if rewrites else kept_before).append(sentence)
            continue
        # The truth is said about what the client asked: a claim they never saw needs no denial.
        denied.extend(
            t
            for t in topics
            if t in denials
            and t in facts.asked_topics
            and not _backed(t, facts)
            and t not in denied
        )
        rewrites.append(Rewrite("status", reason, sentence, ""))
    if not rewrites:
        return GuardResult(reply)
    told = " ".join([*kept_before, *kept])
    narration = [s for s in facts.core_narration if s not in told]
    if vocabulary is not None:
        # A state the core's own narration already speaks of is told there, in its words.
        narrated = {
            t for s in narration for t in _topics(plain(s), _lemmas(s, vocabulary), vocabulary)
        }
        denied = [topic for topic in denied if topic not in narrated]
    truth = [_denial(denied, facts)] if denied else []
    if not facts.core_narration and facts.next_step_text() not in told:
        narration = [facts.next_step_text()]
    after = join_sentences([*kept_before, *truth, *narration, *kept])
    rewrites[-1] = Rewrite("status", rewrites[-1].reason, rewrites[-1].before, after)
    return GuardResult(after, rewrites, vouched=tuple(truth))


def _judged(
    sentence: str, facts: TurnFacts, vocabulary: Vocabulary | None, names: frozenset[str]
) -> tuple[str | None, list[str]]:
    """Why ``sentence`` goes (None: it stays), and the topics it speaks of."""
    if facts.is_core_said(sentence) or facts.quotes_knowledge(sentence):
        return None, []
    if vocabulary is None:
        return f"no vocabulary for the language {facts.language!r}: nothing is vouched for", []
    # Links were vetted by the links guard; an email address must be the client's own.
    text = LINK.sub(" ", sentence)
    for email in _EMAIL.findall(text):
        if email.lower() != facts.client_email.lower():
            return f"an email address the core did not hand over: {email!r}", []
    text = _EMAIL.sub(" ", text)
    lemmas = _lemmas(text, vocabulary)
    topics = _topics(plain(text), lemmas, vocabulary)
    unknown = [w for w in lemmas if not vocabulary.knows(w) and w not in names]
    unknown = [w for w in unknown if not _is_state_word(w, vocabulary)]
    if unknown:
        return f"words the guard cannot vouch for: {', '.join(sorted(set(unknown))[:5])}", topics
    if not topics:
        return None, []
    if vocabulary.denies(plain(sentence)) or _is_question(sentence):
        return f"a denial or question about {'/'.join(topics)}: the core's to say", topics
    unbacked = [topic for topic in topics if not _backed(topic, facts)]
    if unbacked:
        return f"{'/'.join(unbacked)} claimed without a record", topics
    return _figures_problem(sentence, topics, facts), topics


def topics_of(text: str, language: str) -> frozenset[str]:
    """The states ``text`` speaks of (a client's message: what they ask about)."""
    vocabulary = VOCABULARIES.get(language.split("-")[0].lower())
    if vocabulary is None:
        return frozenset()
    return frozenset(_topics(plain(text), _lemmas(text, vocabulary), vocabulary))


def _lemmas(sentence: str, vocabulary: Vocabulary) -> list[str]:
    return [vocabulary.read(word) for word in words_of(sentence)]


def _is_question(sentence: str) -> bool:
    # Spanish opens a question too ("¿Le reservo el jueves?"), wherever it ends.
    return sentence.rstrip().endswith("?") or "¿" in sentence


def _topics(plain_text: str, lemmas: list[str], vocabulary: Vocabulary) -> list[str]:
    topics = [
        topic
        for topic, pattern in vocabulary.state_patterns.items()
        if any(pattern.match(word) for word in lemmas)
    ]
    for topic, pattern in vocabulary.phrase_patterns.items():
        if topic not in topics and pattern.search(plain_text):
            topics.append(topic)
    if "booking" not in topics and vocabulary.completion.search(plain_text):
        topics.append("booking")
    if not topics:
        for thing, words in vocabulary.things.items():
            if any(word in words for word in lemmas):
                topics.extend(t for t in THING_TOPICS[thing] if t not in topics)
    return topics


def _is_state_word(word: str, vocabulary: Vocabulary) -> bool:
    return vocabulary.any_state.match(word) is not None


def _names(facts: TurnFacts, vocabulary: Vocabulary | None) -> frozenset[str]:
    if vocabulary is None:
        return frozenset()
    return frozenset(vocabulary.read(word) for name in facts.names for word in words_of(name))


def _backed(topic: str, facts: TurnFacts) -> bool:
    return {
        "booking": facts.booking_confirmed,
        "hold": facts.held_at is not None,
        "payment": facts.payment_verified,
        "refund": facts.refund_issued,
        "cancel": facts.cancelled,
        "move": facts.moved,
        "message": facts.message_sent,
        "price": bool(facts.prices),
        "discount": facts.discount,
    }.get(topic, False)


def _figures_problem(sentence: str, topics: list[str], facts: TurnFacts) -> str | None:
    """A backed claim names only its own fact's time and amount."""
    times = []
    if "booking" in topics and facts.booked_at is not None:
        times.append(facts.booked_at)
    if "move" in topics and facts.booked_at is not None:
        times.append(facts.booked_at)
    if "hold" in topics and facts.held_at is not None:
        times.append(facts.held_at)
    timed = {"booking", "hold", "move"} & set(topics)
    problem = date_problem(sentence, replace(facts, datetimes=tuple(times))) if timed else None
    if problem is not None:
        return f"{'/'.join(topics)} claimed for another time ({problem})"
    money = {"payment", "refund"} & set(topics)
    if money:
        allowed = set()
        if "payment" in money:
            allowed |= {p.amount for p in facts.paid}
        if "refund" in money:
            allowed |= {p.amount for p in facts.refunds}
        for match in AMOUNT.finditer(sentence):
            price = amount_of(match)
            if price is None or price.amount not in allowed:
                return f"{'/'.join(sorted(money))} claimed for another amount: {match[0]!r}"
    return None


def _denial(denied: list[str], facts: TurnFacts) -> str:
    language = language_of(facts)
    clauses = [
        _AWAITING_DEPOSIT[language]
        if kind == "booking" and facts.payment_requested
        else _DENIED[language][kind]
        for kind in denied
    ]
    last = _AND[language]
    joined = clauses[0] if len(clauses) == 1 else ", ".join(clauses[:-1]) + last + clauses[-1]
    return joined[0].upper() + joined[1:] + "."
