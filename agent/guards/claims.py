"""Confirmations while details are missing, payment talk ahead of its stage, and what a booking
claim is (for the dates guard). Whether a claim of any state is backed at all is decided by the
status guard (``agent.guards.status``), which fails closed.

Each guard believes only the ledger: a record the core reported this turn, never the draft's
confidence (the "Confirm" incident: a client typed "Confirm" and the model claimed a booking).
"""

from __future__ import annotations

import re

from agent.guards.ledger import GuardResult, Rewrite, TurnFacts
from agent.guards.sentences import drop_sentences, human_list, join_sentences, sentences

# --------------------------------------------------------------------------- (5) missing fields

_CONFIRMATION_TALK = re.compile(
    r"\b(confirm(ed|s|ing|ation)?|booked|reserved|all set|you['’]?re in|you are in|"
    r"lock(ed)? (it|that|this|you) in|finali[sz]e[sd]?|good to go)\b",
    re.IGNORECASE,
)


def required_fields_guard(reply: str, facts: TurnFacts) -> GuardResult:
    """No confirmation, offered or claimed, while the client's required details are missing."""
    talk = [s for s in sentences(reply) if not facts.is_core_said(s)]
    if not facts.missing_fields or not any(_CONFIRMATION_TALK.search(s) for s in talk):
        return GuardResult(reply)
    need = f"Before I can book this for you, I still need your {human_list(facts.missing_fields)}."
    # What the core itself said (a refusal of a detail) stays in front of the request.
    after = join_sentences([*(s for s in sentences(reply) if facts.is_core_said(s)), need])
    reason = f"confirmation while missing: {', '.join(facts.missing_fields)}"
    return GuardResult(after, [Rewrite("required_fields", reason, reply, after)])


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


def is_booking_claim(sentence: str) -> bool:
    """The sentence says a booking is made."""
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


def payment_talk_guard(reply: str, facts: TurnFacts) -> GuardResult:
    """Payment is mentioned only once the core has asked for it; before that, the next step."""
    if facts.payment_requested or facts.payment_verified:
        return GuardResult(reply)
    result = drop_sentences(
        reply,
        facts,
        "payment_talk",
        lambda s: (
            "payment talk before the payment stage"
            if _PAYMENT_TALK.search(s) and not facts.quotes_knowledge(s)
            else None
        ),
    )
    if not result.rewrites:
        return result
    next_step = facts.next_step_text()
    if next_step in result.text:
        return result
    return GuardResult(join_sentences([result.text, next_step]), result.rewrites)
