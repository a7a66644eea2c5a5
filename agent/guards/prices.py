"""Prices: every amount stated is one the core computed.

Amounts are recognised only with a currency marker ("$85", "85 EUR", "85 euros"), so times
("14.00") and counts ("2 people") are never taken for prices; a bare "85" is not checked.

While a negotiation is active (``TurnFacts.negotiation``) the scan is the last layer of
bounded negotiation: every amount a reply states, however written ("€40", "40 euros", "40.00",
"forty", "40,00 €", "for 40"; ``agent.guards.stated_amounts``), that is not exactly the core's
figure is rewritten to that figure in the core's format — the client is told the core's number,
not left without one. The exceptions: the core's own sentences are never touched; a sentence
naming the list price ("the list price is €60.00, but…") may state the service's real one; a
sentence about money that moved or is due (a deposit, a payment, a refund) keeps the core's
amounts for those and is dropped for any other: a payment claim is never dressed in the
negotiated price. A discount claim ("20% off", "half price", "€10 off the list price") stands only
when the list price less the core's figure is that discount; any other is replaced by the figure.
The wide reading (number words, price words, acceptances) is English only: while negotiating in
another language, a plain "lo dejo en 40" could not be told from a count, so every sentence that
is not the core's goes (fails closed); the core's next step carries its figure.
Known limits (deliberate, over-eager): a count next to an acceptance ("3 is fine") reads as a
price and is rewritten; a clock-like "20.00" reads as a time and is left to the dates guard; a
small number followed by "instead" in a sentence naming no money reads as a time.
"""

from __future__ import annotations

import re

from agent.guards.ledger import GuardResult, Price, Rewrite, TurnFacts
from agent.guards.money import AMOUNT, amount_of, format_price
from agent.guards.reading import language_of, unreadable
from agent.guards.sentences import drop_sentences, join_sentences, sentences
from agent.guards.stated_amounts import DiscountClaim, Stated, discount_claims, stated_amounts


def _is_core_price(price: Price, facts: TurnFacts) -> bool:
    return any(
        price.amount == known.amount and price.currency == known.currency for known in facts.prices
    )


def prices_guard(reply: str, facts: TurnFacts) -> GuardResult:
    """Every amount stated is one the core computed; otherwise corrected, or dropped. What the
    core itself said (a refund refusal naming what is left) is never touched."""
    if facts.negotiation is not None:
        if language_of(facts) not in READS_STATED_AMOUNTS:
            return drop_sentences(reply, facts, "prices", unreadable(facts, "amount"))
        return _negotiated(reply, facts, facts.negotiation)
    wrong = [
        match
        for match in AMOUNT.finditer(reply)
        if (price := amount_of(match)) is None or not _is_core_price(price, facts)
    ]
    core_spans = _core_said_spans(reply, facts)
    wrong = [m for m in wrong if not any(a <= m.start() < b for a, b in core_spans)]
    if not wrong:
        return GuardResult(reply)
    if len(facts.prices) == 1:
        correct = format_price(facts.prices[0], facts.language)
        rewrites = [
            Rewrite("prices", "amount the core did not compute", match[0], correct)
            for match in wrong
        ]
        wrong_at = {match.span() for match in wrong}
        text = AMOUNT.sub(lambda m: correct if m.span() in wrong_at else m[0], reply)
        return GuardResult(text, rewrites)
    # No core price, or several: which one was meant is unknowable, so the sentence goes.
    wrong_spans = {match[0] for match in wrong}
    return drop_sentences(
        reply,
        facts,
        "prices",
        lambda s: (
            "amount the core did not compute" if any(span in s for span in wrong_spans) else None
        ),
    )


def _core_said_spans(reply: str, facts: TurnFacts) -> list[tuple[int, int]]:
    """Where in ``reply`` the core's own sentences stand."""
    spans = []
    for sentence in sentences(reply):
        if facts.is_core_said(sentence):
            start = reply.find(sentence)
            spans.append((start, start + len(sentence)))
    return spans


# -------------------------------------------------------------------- while negotiating

# The languages ``stated_amounts`` reads amounts in without a currency marker.
READS_STATED_AMOUNTS = frozenset({"en"})
NOT_THE_FIGURE = "amount other than the core's figure in a negotiation"
MONEY_MOVED_AMOUNT = "payment or refund named with an amount the core did not compute"
UNBACKED_DISCOUNT = "discount the core did not give"
# Money that moved or is due: its amounts are the deposit's, the payment's, the refund's.
_MONEY_MOVED = re.compile(
    r"\b(?:deposits?|refund\w*|reimburs\w*|paid|charged|received|money back)\b", re.IGNORECASE
)


def _negotiated(reply: str, facts: TurnFacts, figure: Price) -> GuardResult:
    """Every amount stated is the core's figure, rewritten to it where it is not; a payment or
    refund sentence naming an amount the core did not compute goes whole."""
    correct = format_price(figure, facts.language)
    moved_amounts = {(p.amount, p.currency) for p in (*facts.prices, *facts.paid, *facts.refunds)}
    edits: list[tuple[int, int]] = []  # spans of the reply rewritten to the figure
    kept: list[str] = []
    rewrites: list[Rewrite] = []
    dropped = False
    position = 0
    for sentence in sentences(reply):
        start = reply.find(sentence, position)
        position = start + len(sentence)
        if facts.is_core_said(sentence):
            kept.append(sentence)
            continue
        stated = stated_amounts(sentence)
        if _MONEY_MOVED.search(sentence):
            if any((s.amount, s.currency or figure.currency) not in moved_amounts for s in stated):
                rewrites.append(Rewrite("prices", MONEY_MOVED_AMOUNT, sentence, ""))
                dropped = True
            else:
                kept.append(sentence)
            continue
        claims = discount_claims(sentence)
        if any(not _discount_backed(claim, facts.list_price, figure) for claim in claims):
            told = f"The price is {correct}."
            rewrites.append(Rewrite("prices", UNBACKED_DISCOUNT, sentence, told))
            kept.append(told)
            dropped = True
            continue
        list_price = facts.list_price if _NAMES_LIST_PRICE.search(sentence) else None
        wrong = [
            s
            for s in stated
            if not _is_figure(s, figure)
            and not (list_price is not None and _is_figure(s, list_price))
            and not any(c.start <= s.start < c.end for c in claims)  # a discount backed above
        ]
        rewrites.extend(Rewrite("prices", NOT_THE_FIGURE, s.text, correct) for s in wrong)
        edits.extend((start + s.start, start + s.end) for s in wrong)
        kept.append(_rewritten(sentence, [(s.start, s.end) for s in wrong], correct))
    if not rewrites:
        return GuardResult(reply)
    if not dropped:
        # Only figures changed: the reply keeps its own spacing and line breaks.
        return GuardResult(_rewritten(reply, edits, correct), rewrites)
    if not kept:
        kept = [facts.next_step_text()]
        last = rewrites[-1]
        rewrites[-1] = Rewrite(last.guard, last.reason, last.before, kept[0])
    return GuardResult(join_sentences(kept), rewrites)


# A sentence speaking of the service's list price: it may state the real one.
_NAMES_LIST_PRICE = re.compile(
    r"\b(?:list|usual|regular|normal|standard|full|original)\s+(?:price|rate|fee)\b"
    r"|\b(?:normally|usually|regularly)\b",
    re.IGNORECASE,
)


def _discount_backed(claim: DiscountClaim, list_price: Price | None, figure: Price) -> bool:
    """The list price less the core's figure is exactly the discount claimed."""
    if list_price is None or figure.amount >= list_price.amount:
        return False  # no discount was given: none may be claimed
    off = list_price.amount - figure.amount
    if claim.percent is not None:
        return (list_price.amount * claim.percent / 100).quantize(off) == off
    return claim.amount == off


def _is_figure(stated: Stated, figure: Price) -> bool:
    return stated.amount == figure.amount and (stated.currency or figure.currency) == (
        figure.currency
    )


def _rewritten(text: str, spans: list[tuple[int, int]], correct: str) -> str:
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + correct + text[end:]
    return text
