"""Reply guards: the model's draft reply checked against the facts of this turn.

The model narrates; the core decides. Before a reply reaches the client, each guard compares the
draft with the ledger of what the core actually did this turn (`TurnFacts`) and rewrites what the
facts do not support, recording every rewrite for the audit log.

Pure: no database, no clock, no settings. "Today" is a fact the core hands over (or not); when it
is absent, relative days ("tomorrow") cannot be checked and are therefore removed.

Decisions worth knowing:
- Weekday names are dates. "We are open Monday to Friday" survives only if the core handed over
  a Monday and a Friday this turn; opening hours belong in the knowledge base, not in a free reply.
- A sentence that carries an unsupported date, a premature payment mention or an internal
  mechanic is dropped whole: cutting a span out of it would leave a broken sentence.
- Amounts are recognised only with a currency marker ("$85", "85 EUR", "85 euros"), so times
  ("14.00") and counts ("2 people") are never taken for prices. A number is read whole
  ("1.500 €", "€1,500.00"): a wrong one is rewritten whole, never its last group alone.
  While a negotiation is active, every amount however written ("40.00", "forty", "for 40") is
  read, and any but the core's figure is rewritten to it (``prices``); times, dates, counts and
  phone numbers still are not amounts.
- Status talk fails closed (ADR 0007, ``status``): a sentence survives only if the guard knows
  every word of it and every state it speaks of — booked, held, paid, refunded, cancelled,
  moved, priced, discounted — is a fact of the ledger, with that fact's own time and amount.
  Anything else is replaced by the core's own narration of the turn.
- When a guard drops everything, the reply becomes the core's real next step.
- A reply carries only the links the core handed over (links guard, first: a link is also
  where internal words like "api" hide).
- What the core itself said this turn (its refusals, in the client's words) is never removed.

Languages: English and Spanish (``vocabulary_es``, ``dates_es``), each guard's tests run in
both. A guard with no word table for the reply's language drops every sentence but the core's
own (``reading.unreadable``): a claim in a language the guards cannot read never passes.

Known limits (deliberate):
- Over-eager by design: a true sentence in words the status guard does not know, or a denial
  or question about a state, is replaced by the core's narration (the client still reads
  what is true; a model loses its wording, never the facts). "Yours"/"suyo" and "tiene hora"
  are booking claims however meant ("the choice is yours" goes unless a booking is confirmed);
  "nothing more you need to do" is a booking claim, not a denial.
- Over-eager: "at 3" followed by a noun ("at 3 locations") and "1/2" read as times/dates;
  "the tool"/"the model" in their everyday sense are dropped as internal mechanics.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from agent.guards.claims import payment_talk_guard, required_fields_guard
from agent.guards.dates import dates_guard
from agent.guards.ledger import (
    FALLBACK_NEXT_STEP,
    GuardedReply,
    GuardResult,
    Price,
    Rewrite,
    TurnFacts,
)
from agent.guards.links import links_guard
from agent.guards.mechanics import internal_mechanics_guard
from agent.guards.prices import format_price, prices_guard
from agent.guards.sentences import join_sentences
from agent.guards.status import status_guard

Guard = Callable[[str, TurnFacts], GuardResult]

# Order matters: the honest rewrites of the early guards may quote the next step, which the later
# guards still scrub; prices run before dates so an amount is never read as a time.
GUARDS: tuple[tuple[str, Guard], ...] = (
    ("links", links_guard),
    ("status", status_guard),
    ("required_fields", required_fields_guard),
    ("payment_talk", payment_talk_guard),
    ("prices", prices_guard),
    ("dates", dates_guard),
    ("internal_mechanics", internal_mechanics_guard),
)


def guard_reply(
    draft: str, facts: TurnFacts, guards: Iterable[tuple[str, Guard]] = GUARDS
) -> GuardedReply:
    text = draft
    rewrites: list[Rewrite] = []
    for _name, guard in guards:
        result = guard(text, facts)
        text = result.text
        rewrites.extend(result.rewrites)
        if result.vouched:
            facts = replace(facts, vouched=(*facts.vouched, *result.vouched))
    text = text.strip() or facts.next_step_text()
    # Every refusal reaches the client in the core's plain words, even when the draft left it
    # out: it goes first, before whatever the draft says instead.
    untold = [
        said for said in facts.core_said if " ".join(said.split()) not in " ".join(text.split())
    ]
    if untold:
        after = join_sentences([*untold, text])
        rewrites.append(Rewrite("refusals", "the core's refusal was not told", text, after))
        text = after
    return GuardedReply(text=text, rewrites=rewrites)


__all__ = [
    "FALLBACK_NEXT_STEP",
    "GUARDS",
    "Guard",
    "GuardResult",
    "GuardedReply",
    "Price",
    "Rewrite",
    "TurnFacts",
    "dates_guard",
    "format_price",
    "guard_reply",
    "internal_mechanics_guard",
    "links_guard",
    "payment_talk_guard",
    "prices_guard",
    "required_fields_guard",
    "status_guard",
]
