"""Claims of completion, confirmations while details are missing, payment talk ahead of its stage.

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
    if not facts.missing_fields or not _CONFIRMATION_TALK.search(reply):
        return GuardResult(reply)
    need = f"Before I can book this for you, I still need your {human_list(facts.missing_fields)}."
    # What the core itself said (a refusal of a detail) stays in front of the request.
    after = join_sentences([*(s for s in sentences(reply) if facts.is_core_said(s)), need])
    reason = f"confirmation while missing: {', '.join(facts.missing_fields)}"
    return GuardResult(after, [Rewrite("required_fields", reason, reply, after)])


# --------------------------------------------------------------------------- (1) completion claims

_BOOKING_CLAIM = re.compile(
    r"\b(confirmed|booked|reserved|scheduled|all set|you['’]?re in|you are in|"
    r"locked (it|that|this|you) in|good to go|all sorted|is sorted|went through|gone through|"
    r"finali[sz]ed|see you (then|on|at|tomorrow|soon|next|this|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b",
    re.IGNORECASE,
)
_PAYMENT_CLAIM = re.compile(
    r"\b(paid|payment (has been |was |is )?(received|complete|completed|successful|confirmed|"
    r"went through|processed)|received your (payment|deposit)|deposit (has been |was |is )?"
    r"(received|taken|charged)|charged)\b",
    re.IGNORECASE,
)
# "Refunded", or a refund said to be done within the same sentence ("your refund of €150.00 has
# been processed": a decimal point does not end it), or done to one ("we've issued your refund").
_REFUND_CLAIM = re.compile(
    r"\b(refunded|refund\b(?:[^.!?]|\.\d){0,40}?\b(processed|issued|sent|made|completed?|approved|"
    r"done|on (its|the) way|gone through|went through)|(processed|issued|sent|made|approved)"
    r"\s+(your|the|a)\s+refund)\b",
    re.IGNORECASE,
)
_CANCEL_CLAIM = re.compile(r"\b(cancell?ed|called off)\b", re.IGNORECASE)
_MOVE_CLAIM = re.compile(r"\b(rescheduled|moved (it|you|your|the)|re-?booked)\b", re.IGNORECASE)
_MESSAGE_CLAIM = re.compile(
    r"\b(sent|resent|re-sent|emailed|texted|in your inbox|check your (email|inbox|phone))\b",
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

# What is true instead, said once for everything denied: the clauses are joined into one
# sentence ("Nothing is booked yet, and no refund has been made.").
_HONEST = {
    "booking": "nothing is booked yet",
    "payment": "I can't see a completed payment yet",
    "message": "nothing has been sent yet",
    "refund": "no refund has been made",
    "cancel": "nothing has been cancelled",
    "move": "nothing has been moved",
}
# A cheer that only makes sense beside the claim it came with ("Done! …", "Great news! …"):
# it goes with the claim, or the honest sentence would follow a celebration.
_CHEER = re.compile(
    r"^(?:(?:all|it'?s|that'?s)\s+)?(?:done|sorted|set|great news|good news|success|"
    r"perfect|excellent|awesome|brilliant|wonderful|fantastic|congratulations|congrats|"
    r"great|amazing|voil[aà]|there you go|here you go|you'?re all set)\s*[!.]*$",
    re.IGNORECASE,
)


def _is_claim(sentence: str, pattern: re.Pattern[str]) -> bool:
    for match in pattern.finditer(sentence):
        before = _EMPHASIS.sub("", sentence[: match.start()]).split()[-_CLAIM_WINDOW_WORDS:]
        if not _NOT_A_CLAIM.search(" ".join(before)):
            return True
    return False


def is_booking_claim(sentence: str) -> bool:
    """The sentence says a booking is made (the dates guard then allows only its time)."""
    return _is_claim(sentence, _BOOKING_CLAIM)


def honest_sentence(denied: list[str]) -> str:
    """One sentence saying what is true instead of every kind of claim ``denied``."""
    clauses = [_HONEST[kind] for kind in denied]
    joined = clauses[0] if len(clauses) == 1 else ", ".join(clauses[:-1]) + ", and " + clauses[-1]
    return joined[0].upper() + joined[1:] + "."


def completion_claims_guard(reply: str, facts: TurnFacts) -> GuardResult:
    """ "Confirmed", "paid", "sent", "refunded" stand only on a record the core reported this
    turn. An unbacked claim's sentence goes, with any cheer that came with it; in its place,
    one honest sentence and the real next step, each a whole sentence."""
    checks = [
        ("booking", _BOOKING_CLAIM, facts.booking_confirmed),
        ("payment", _PAYMENT_CLAIM, facts.payment_verified),
        ("message", _MESSAGE_CLAIM, facts.message_sent),
        ("refund", _REFUND_CLAIM, facts.refund_issued),
        ("cancel", _CANCEL_CLAIM, facts.cancelled),
        ("move", _MOVE_CLAIM, facts.moved),
    ]
    kept_before: list[str] = []  # a greeting before the claim stays in front of the truth
    kept: list[str] = []
    denied: list[str] = []
    rewrites: list[Rewrite] = []
    for sentence in sentences(reply):
        unsupported = [
            kind
            for kind, pattern, recorded in checks
            if not recorded and _is_claim(sentence, pattern)
        ]
        if facts.quotes_knowledge(sentence) or facts.is_core_said(sentence):
            unsupported = []
        if not unsupported:
            (kept if rewrites else kept_before).append(sentence)
            continue
        for kind in unsupported:
            if kind not in denied:
                denied.append(kind)
        reason = f"{'/'.join(unsupported)} claimed without a record"
        rewrites.append(Rewrite("completion_claims", reason, sentence, ""))
    if not rewrites:
        return GuardResult(reply)
    cheers = [s for s in (*kept_before, *kept) if _CHEER.match(s)]
    rewrites.extend(Rewrite("completion_claims", "cheer for a claim", s, "") for s in cheers)
    kept_before = [s for s in kept_before if s not in cheers]
    kept = [s for s in kept if s not in cheers]
    next_step = facts.next_step_text()
    truth = [honest_sentence(denied)]
    if not any(next_step in sentence for sentence in kept):
        truth.append(next_step)
    after = join_sentences([*kept_before, *truth, *kept])
    rewrites[-1] = Rewrite("completion_claims", rewrites[-1].reason, rewrites[-1].before, after)
    return GuardResult(after, rewrites)


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
