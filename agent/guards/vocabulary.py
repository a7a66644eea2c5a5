"""The words the status guard knows, per language, and how it reads a word. Pure tables.

The guard fails closed (ADR 0007): a model's sentence survives only if the guard knows every
word of it. So these tables are a whitelist, deliberately narrow — the words of small talk, of
offering times, of the booking's things, and the state words that make a sentence a claim
about a booking, a hold, a payment, a refund, a cancellation, a move, a price or a discount.
A word missing here is never a way past the guard: its sentence is replaced by the core's own
narration. Adding a word is safe only where the word cannot state a fact on its own; a state
word goes under its topic.

Words are compared after ``lemma``: lower-cased, apostrophes and accents dropped, irregular
forms mapped ("held" → "hold", "paid" → "pay") and common endings stripped ("booked",
"booking", "books" → "book"). A state word matches any word whose lemma starts with it, so
"reschedul" covers rescheduled and rescheduling.

Each language reads its own words (``Vocabulary.read``): English by ``lemma``, Spanish by
``spanish_lemma`` (``agent.guards.vocabulary_es``), whose tables the Spanish vocabulary is built
from. Adding a language: a ``Vocabulary`` for it in ``VOCABULARIES``. A language without one has
no words the guard knows: every sentence with content fails closed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache

from agent.guards import vocabulary_es as es

# How a sentence is split into words is the same in every language (re-exported here with it).
from agent.guards.reading import plain
from agent.guards.reading import words_of as words_of

# --- reading a word ------------------------------------------------------------------------

IRREGULAR = {
    "held": "hold",
    "kept": "keep",
    "paid": "pay",
    "sent": "send",
    "went": "go",
    "gone": "go",
    "done": "do",
    "did": "do",
    "made": "make",
    "taken": "take",
    "took": "take",
    "got": "get",
    "gotten": "get",
    "given": "give",
    "gave": "give",
    "shown": "show",
    "saw": "see",
    "seen": "see",
    "were": "be",
    "was": "be",
    "is": "be",
    "are": "be",
    "am": "be",
    "been": "be",
    "being": "be",
    "has": "have",
    "had": "have",
    "having": "have",
    "children": "child",
}
_ENDINGS = ("ations", "ation", "ings", "ing", "ments", "ment", "edly", "ed", "es", "ly", "s")


@lru_cache(maxsize=8192)
def lemma(word: str) -> str:
    """A word's base, by rule: good enough to compare a word with a short list, not a
    dictionary (an unknown word reads as unknown whatever its base)."""
    word = plain(word).replace("'", "")
    if word in IRREGULAR:
        return IRREGULAR[word]
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            stem = word[: -len(ending)]
            # "cancelled" → "cancell" → "cancel"; "booked" keeps "book".
            if len(stem) > 3 and stem[-1] == stem[-2] and stem[-1] not in "aeiouls":
                stem = stem[:-1]
            if stem.endswith("ll") and len(stem) > 4:
                stem = stem[:-1]
            return stem
    return word


# --- what a language's words are -----------------------------------------------------------


@dataclass(frozen=True)
class Vocabulary:
    """A language's known words, as lemmas (``known``), and its state words per topic (stems,
    matched as prefixes of a lemma; ``phrases`` match the plain sentence)."""

    known: frozenset[str]
    states: dict[str, tuple[str, ...]]
    phrases: dict[str, tuple[str, ...]]
    # The booking's things: a sentence naming one without a state word it knows speaks of
    # every state the thing could be in (it fails closed unless all are backed).
    things: dict[str, tuple[str, ...]]
    negations: frozenset[str]  # plain words that make a sentence a denial
    read: Callable[[str], str] = lemma  # a word to the form ``known`` holds
    # Booking claims that nothing is left for the client to do ("there's nothing more you need
    # to do"), as patterns over the plain sentence. Their negation is the claim itself, so it is
    # not read as a denial: they stand or fall with the booking.
    completions: tuple[str, ...] = ()

    @cached_property
    def negation(self) -> re.Pattern[str]:
        """Finds a negation in a plain sentence."""
        return re.compile("|".join(_negation_pattern(word) for word in sorted(self.negations)))

    @cached_property
    def state_patterns(self) -> dict[str, re.Pattern[str]]:
        """Per topic, one pattern matching a lemma that starts with any of its stems."""
        return {
            topic: re.compile("|".join(re.escape(stem) for stem in stems))
            for topic, stems in self.states.items()
        }

    @cached_property
    def any_state(self) -> re.Pattern[str]:
        return re.compile("|".join(p.pattern for p in self.state_patterns.values()))

    @cached_property
    def phrase_patterns(self) -> dict[str, re.Pattern[str]]:
        """Per topic, one pattern finding any of its phrases (whole words where they start or
        end with a letter: "% off" follows a digit)."""
        return {
            topic: re.compile("|".join(_phrase_pattern(phrase) for phrase in phrases))
            for topic, phrases in self.phrases.items()
        }

    @cached_property
    def completion(self) -> re.Pattern[str]:
        """Finds a completion claim in a plain sentence (never, for a language without any)."""
        return re.compile("|".join(self.completions) or r"(?!)")

    def denies(self, plain_sentence: str) -> bool:
        """The plain sentence says no: a negation outside its completion claims."""
        return self.negation.search(self.completion.sub(" ", plain_sentence)) is not None

    def knows(self, word_lemma: str) -> bool:
        # A stripped ending may have taken a silent e with it ("writing" → "writ": "write").
        return word_lemma in self.known or f"{word_lemma}e" in self.known


def _phrase_pattern(phrase: str) -> str:
    before = r"(?<!\w)" if phrase[:1].isalnum() else ""
    after = r"(?!\w)" if phrase[-1:].isalnum() else ""
    return f"{before}{re.escape(phrase)}{after}"


def _negation_pattern(word: str) -> str:
    # A contraction's "n't" sits inside its word ("isn't"): no word boundary before it.
    before = "" if "'" in word else r"\b"
    return rf"{before}{re.escape(word)}\b"


def _lemmas(text: str, read: Callable[[str], str] = lemma) -> frozenset[str]:
    return frozenset(read(word) for word in text.split())


# Function words and the words of being polite: what any reply is made of.
_FUNCTION = """
a an the this that these those it its it's itself there here there's that's what's let's
i'm i've i'll i'd we're we've we'll we'd you're you've you'll you'd they're they've
isn't aren't wasn't weren't don't doesn't didn't can't couldn't won't wouldn't shouldn't
haven't hasn't hadn't
am pm h st nd rd th eur euro euros usd dollar dollars gbp pound pounds chf
i me my mine myself we us our ours you your yours yourself he she they them their his her
and or but so then also too as if than because while though although
to of for from with without in on at by about into onto over under up down out near
before after until till during between within
be am is are was were been being do does did done have has had having
can could will would shall should may might must need needs let lets
what which who whom whose when where why how
all any some each every no not nothing none nobody never ever just only still yet again
very really quite more most much many few little lot lots
one two both other another else same such own
yes yeah yep ok okay sure right well now today tomorrow soon later already always
n't
"""
_SMALL_TALK = """
hi hello hey dear good morning afternoon evening night welcome
thanks thank pleasure glad happy delighted lovely great wonderful nice kind kindly
sorry apologise apologize apology unfortunately afraid fortunately luckily
please help helping assist question questions answer answers anything something everything
let know tell ask asking wonder wondering understand see look looking forward hope hoping
feel free reach write get back chat talk speak team member person colleague colleagues
here there day week weekend meantime moment minute while later
like love prefer want wish choose pick suit suits work works fit fits option options
choice choices sound sounds perfect fine alright course problem worries worry
bye goodbye cheers care take
"""
# Offering times, and the booking's things named without a state: what a reply about finding a
# time is made of. "open", "available": a time the core found (the dates guard checks it).
_OFFER = """
open opening openings available availability time times slot slots spot spots day days
date dates hour hours morning afternoon evening earlier later earliest latest next nearest
first second third last these those either
service services visit appointment appointments booking bookings session treatment
name address phone number details card link page
minute minutes long takes take last lasts
monday tuesday wednesday thursday friday saturday sunday
mon tue tues wed thu thur thurs fri sat sun
january february march april may june july august september october november december
jan feb mar apr jun jul aug sep sept oct nov dec
at on from to until around between
"""
# The state words, per topic: a model may use them only where the ledger backs that topic. Kept
# short on purpose — a state word missing here is an unknown word, which fails closed anyway.
_STATES = {
    "booking": ("book", "reserv", "confirm", "schedul", "secur", "finali", "complet"),
    "hold": ("hold", "keep", "sav"),
    "payment": ("pay", "charg", "receiv", "deposit"),
    "refund": ("refund", "reimburs"),
    "cancel": ("cancel",),
    "message": ("send", "resen"),
    "move": ("mov", "reschedul", "chang"),
    "price": ("price", "pric", "cost", "fee", "charg"),
    "discount": ("discount", "free", "cheap", "reduc", "waiv"),
}  # fmt: skip
# Claims made of plain words: matched on whole words of the plain sentence. "yours": the time
# is the client's ("Thursday at 14:00 is yours") — a booking, whatever else it could mean.
_PHRASES = {
    "booking": (
        "done", "all set", "you're in", "youre in", "good to go", "see you", "in the calendar",
        "in the diary", "on the books", "down for", "went through", "gone through", "yours",
    ),
    "refund": ("money back", "back to you", "back to your"),
    "discount": ("off", "on the house", "no charge", "at no cost", "%", "percent", "half price"),
}  # fmt: skip
_THINGS = {
    "booking": ("booking", "appointment", "reservation", "visit", "session", "slot", "spot"),
    "payment": ("deposit", "payment", "money", "card"),
}
# A thing named without a state word speaks of every state it could be in.
THING_TOPICS = {
    "booking": ("booking", "hold", "cancel", "move"),
    "payment": ("payment", "refund"),
}

# "Nothing is left for you to do": the booking is complete (``Vocabulary.completions``).
_COMPLETIONS = (
    r"\bnothing (?:more|else|further|left)\b(?: \w+){0,4}? to do\b",
    r"\b(?:don't|dont|do not|won't|wont|will not) (?:need|have) to do anything\b",
    r"\b(?:no need to|needn't|neednt) do anything\b",
    r"\b(?:that's|thats|that is) all\b(?: \w+){0,3}? to do\b",
)

ENGLISH = Vocabulary(
    known=_lemmas(
        _FUNCTION + _SMALL_TALK + _OFFER + " ".join(w for t in _THINGS.values() for w in t)
    ),
    states=_STATES,
    phrases=_PHRASES,
    things={kind: tuple(lemma(word) for word in words) for kind, words in _THINGS.items()},
    negations=frozenset({"not", "no", "nothing", "never", "none", "nobody", "n't", "yet"}),
    completions=_COMPLETIONS,
)

SPANISH = Vocabulary(
    known=_lemmas(
        es.FUNCTION + es.SMALL_TALK + es.OFFER + " ".join(w for t in es.THINGS.values() for w in t),
        es.spanish_lemma,
    ),
    states=es.STATES,
    phrases=es.PHRASES,
    things={
        kind: tuple(es.spanish_lemma(word) for word in words) for kind, words in es.THINGS.items()
    },
    negations=es.NEGATIONS,
    read=es.spanish_lemma,
    completions=es.COMPLETIONS,
)

VOCABULARIES: dict[str, Vocabulary] = {"en": ENGLISH, "es": SPANISH}
