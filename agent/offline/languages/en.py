"""The English reading table: how English-speaking clients write days, times, money and
answers (typos included: "tmrw", "thrusday")."""

import re
from datetime import time

from agent.offline.languages.table import NUMBER, ReadingTable

WEEKDAYS = {
    "monday": 0, "mon": 0,
    "tuesday": 1, "tues": 1, "tue": 1, "tuesady": 1,
    "wednesday": 2, "wed": 2, "wednsday": 2, "wensday": 2, "weds": 2,
    "thursday": 3, "thu": 3, "thur": 3, "thurs": 3, "thrusday": 3,
    "friday": 4, "fri": 4, "firday": 4,
    "saturday": 5, "sat": 5, "saterday": 5,
    "sunday": 6, "sun": 6,
}  # fmt: skip
TOMORROW = r"(?:tomorrow|tomorow|tommorow|tommorrow|tmrw|tmr|tmw)"
MONTHS = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
ORDINAL = r"(?:st|nd|rd|th)"
# What a number is not an amount or an hour when followed by.
NOT_MONEY_AFTER = (
    r"(?!\s*(?::|h\b|am|pm|a\.m|p\.m|o'?clock|st\b|nd\b|rd\b|th\b|people|persons?|"
    r"hours?|mins?|minutes?|days?|weeks?|of\b|\d))"
)
ORDINALS = {
    "first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2,
    "fourth": 3, "4th": 3, "fifth": 4, "5th": 4, "sixth": 5, "6th": 5, "last": -1,
}  # fmt: skip

DAYPART_WORDS = {
    "morning": "morning", "afternoon": "afternoon", "evening": "evening", "tonight": "tonight",
}  # fmt: skip

YES_PHRASES = frozenset({
    "yes", "yes please", "yeah", "yep", "yup", "y", "sure", "ok", "okay", "k", "fine",
    "sounds good", "perfect", "great", "go ahead", "please do", "correct", "that works",
    "works for me", "absolutely", "of course", "yes thanks", "ok thanks", "sure thing", "alright",
})  # fmt: skip

CONFIRM_PHRASES = frozenset({
    "confirm", "confirmed", "i confirm", "book it", "confirm it", "confirm please",
})  # fmt: skip

NO_PHRASES = frozenset({
    "no", "nope", "nah", "no thanks", "no thank you", "not really", "n", "no sorry",
})  # fmt: skip

CANCEL_PHRASES = frozenset({
    "cancel", "cancel it", "cancel please", "please cancel",
})  # fmt: skip

QUESTION_WORDS = frozenset({
    "what", "when", "where", "why", "how", "who", "which", "whats", "hows", "any", "anything",
    "wonder", "wondering", "tell", "know", "much", "possible", "available", "availability", "free",
    "open", "price", "prices", "cost", "costs", "if", "or", "whether", "info",
})  # fmt: skip

QUESTION_OPENERS = frozenset({
    "can", "could", "do", "does", "did", "is", "are", "was", "will", "would", "should", "may",
    "might", "have", "has", "shall", "am", "isnt", "arent", "dont", "doesnt", "cant", "u",
})  # fmt: skip

FILLER = frozenset({
    "at", "on", "the", "please", "pls", "thanks", "thank", "you", "for", "around", "about",
    "after", "before", "by", "until", "till",
})  # fmt: skip

NAME_PARTICLES = frozenset({
    "da", "de", "do", "das", "dos", "e", "di", "del", "la", "le", "du", "van", "von",
})  # fmt: skip

NOT_NAMES = frozenset({
    "hi", "hello", "hey", "thanks", "thank", "you", "please", "good", "morning", "afternoon",
    "evening", "night", "today", "tonight", "week", "weekend", "next", "this", "price", "prices",
    "pricing", "cost", "costs", "hours", "address", "parking", "location", "menu", "services",
    "service", "info", "information", "help", "refund", "payment", "pay", "book", "booking",
    "appointment", "cancel", "reschedule", "available", "availability", "free", "open", "closed",
    "and", "or", "the", "a", "an", "i", "me", "my", "we", "it", "is", "are", "be", "to", "of",
    "in", "for", "with", "not", "want", "need", "like", "would", "can", "could", "do", "does",
    "have", "later", "soon", "now", "asap", "sorry", "again", "ok", "wait", "maybe", "perhaps",
    "too", "also", "just", "anytime", "any", "time", "day", "slot", "slots", "lol", "haha", "hmm",
    "great", "perfect", "fine", "done", "other", "another", "else", "different", "same", "still",
    "there", "here", "sure", "works", "what", "how", "when", "where", "why", "who", "which",
    "discount", "deposit", "voucher", "gift", "card", "cash", "policy", "policies", "wifi", "kids",
    "children", "dog", "dogs", "accessible", "late", "early", "ready", "back", "coming", "busy",
    "sick", "outside", "inside", "nothing", "never", "always", "urgent", "emergency", "bye",
    "goodbye", "cheers", "welcome", "hurry",
})  # fmt: skip

CURRENCIES = {
    "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR", "$": "USD", "usd": "USD",
    "dollar": "USD", "dollars": "USD", "bucks": "USD", "£": "GBP", "gbp": "GBP", "pound": "GBP",
    "pounds": "GBP",
}  # fmt: skip

SERVICE_IGNORED = frozenset({
    "and", "with", "the", "for", "men", "women", "kid", "full", "short", "long",
})  # fmt: skip

QUESTION_STEMS = frozenset({
    "wher", "what", "when", "whic", "have", "ther", "your", "does", "with", "abou", "take", "long",
    "much", "many", "need", "want", "woul", "coul", "like", "plea", "than", "just",
})  # fmt: skip

FUNCTION_WORDS = frozenset({
    "the", "a", "an", "i", "you", "we", "my", "your", "our", "is", "are", "was", "be", "to", "of",
    "in", "on", "at", "for", "with", "and", "but", "or", "it", "this", "that", "can", "could",
    "would", "do", "does", "have", "has", "please", "thanks", "thank", "hi", "hello", "hey",
    "want", "need", "like", "book", "booking", "appointment", "tomorrow", "today", "morning",
    "afternoon", "evening", "tonight", "next", "week", "weekend", "time", "how", "what", "when",
    "where", "much", "there", "any", "some", "me", "am", "im", "i'm", "it's", "don't", "cancel",
    "move", "refund", "deposit", "price", "free", "open", "yes", "yeah", "sure", "haircut", "cut",
    "hair", "just", "get", "come", "see", "if", "from", "about", "after", "before", "instead",
    "sorry", "will", "should", "may", "which", "who", "why", "possible", "available",
    "slot", "earlier", "later",
})  # fmt: skip

ENGLISH = ReadingTable(
    code="en",
    fold_accents=False,
    dateparser_language="en",
    weekdays=WEEKDAYS,
    weekday=re.compile(
        r"\b(?:(?P<which>next|this|on)\s+)?(?P<day>"
        + "|".join(sorted(WEEKDAYS, key=len, reverse=True))
        + r")s?\b"
    ),
    this_words=frozenset({"this"}),
    month_date=re.compile(
        r"\b\d{1,2}" + ORDINAL + r"?\s+(?:of\s+)?" + MONTHS + r"\b|\b" + MONTHS + r"\s+\d{1,2}"
        r"(?:" + ORDINAL + r")?\b"
    ),
    day_of_month=re.compile(
        r"\b(?:the\s+)(?P<day>\d{1,2})" + ORDINAL + r"?\b|\b(?P<day_2>\d{1,2})" + ORDINAL + r"\b"
    ),
    today=re.compile(r"\btoday\b"),
    tomorrow=re.compile(r"\b" + TOMORROW + r"\b"),
    after_tomorrow=re.compile(r"\b(?:the\s+)?day\s+after\s+" + TOMORROW + r"\b"),
    in_days=re.compile(r"\bin\s+(?P<count>\d{1,2})\s+days?\b"),
    next_week=re.compile(r"\b(?:any\s*time\s+|sometime\s+)?next\s+week\b"),
    weekend=re.compile(r"\b(?:this\s+|(?P<next>next\s+))?weekend\b"),
    clock=re.compile(
        r"\b(?P<hour>\d{1,2})(?::(?P<minute>\d{2})|h(?P<minute_2>\d{2})?"
        r"|\.(?P<minute_3>\d{2})(?=\s*[ap]\.?m))\s*(?P<ampm>am|pm|a\.m\.|p\.m\.)?(?!\d)"
        r"|(?<![\d.,])\b(?P<hour_2>\d{1,2})\s*(?P<ampm_2>am|pm|a\.m\.|p\.m\.)(?![a-z])"
        r"|\bat\s+(?P<bare>\d{1,2})(?:\s*o'?clock)?(?![\d:/.]|\s*(?:"
        + ORDINAL
        + r"|"
        + MONTHS
        + r"))\b"
        r"|\b(?P<bare_2>\d{1,2})\s*o'?clock\b"
        r"|\b(?P<named>noon|midday|midnight)\b"
    ),
    number_words={},
    minute_words={},
    day_halves={},
    named_times={"noon": time(12), "midday": time(12), "midnight": time(0)},
    daypart=re.compile(r"\b(?:this\s+)?(?P<part>morning|afternoon|evening|tonight)s?\b"),
    daypart_words=DAYPART_WORDS,
    # "to 12", "to 4" (elsewhere "to 2" could be people or a count).
    moved_to=re.compile(r"\bto\s+(\d{1,2})(?![\d:/.,]|\s*(?:people|persons|of|days?|weeks?))\b"),
    yes_phrases=YES_PHRASES,
    confirm_phrases=CONFIRM_PHRASES,
    no_phrases=NO_PHRASES,
    cancel_phrases=CANCEL_PHRASES,
    cancel_sentence=re.compile(r"\b(?:i (?:want|need|would like|'d like) to|please) cancel\b"),
    question_marks="?",
    # They ask for something the business knows.
    question_words=QUESTION_WORDS,
    # "is it free", "ok, do you take cards".
    question_openers=QUESTION_OPENERS,
    question_phrases=re.compile(r"(?!)"),  # every English question shows in one word
    clauses=re.compile(r"[.,;:!\n]|\b(?:and|but|so|also|then)\b"),
    filler=FILLER,
    contact_leads=re.compile(
        r"^(?:my|the)?\s*(?:e-?\s?mail|e-?\s?mail address|phone|phone number|number|mobile|cell)"
        r"(?:\s+is)?\s*:?\s*",
    ),
    # Digits the client gave as a phone number ("my number is 12") that did not read as one.
    phone_attempt=re.compile(
        r"\b(?:phone|mobile|cell|tel|telephone|number|whatsapp)(?:\s+(?:number|no\.?))?"
        r"(?:\s+is)?\s*:?\s*(\+?\d[\d\s().-]*\d|\d)"
    ),
    name_leads=re.compile(r"^(?:my name is|name is|name:|(i am|i'm|im|it's|its|this is))\s+"),
    # Lower-case words inside a name ("Maria da Silva", "Anne de Vries").
    name_particles=NAME_PARTICLES,
    # Never part of a bare name (so "pricing" or "hello there" is not a name).
    not_names=NOT_NAMES,
    currencies=CURRENCIES,
    symbol_after=re.compile(
        NUMBER + r"\s?(€|\$|£|eur|euros?|usd|dollars?|bucks|gbp|pounds?)(?![a-z])"
    ),
    bare_amount=re.compile(
        r"\b(?:pay|do|offer|give|budget|price|accept|take|spend|max|maximum|only|cost|costs|"
        r"charge|how about|what about|is)\s+(?:you\s+)?(?:up to\s+)?" + NUMBER + NOT_MONEY_AFTER
    ),
    # A bare number asked about as a price: "55 ok?", "40 fine?", "would 40 work?" — the whole
    # message or clause, so "2 ok?" after "how many people" would still need the question mark
    # and no time word ("10 ok?" about a time is "10:00 ok?" or "at 10 ok?", read as times).
    asked_amount=re.compile(
        r"(?:^|(?<=[,.;!]\s)|\bwould\s+)(?<![:.,\d])"
        + NUMBER
        + r"\s+(?:ok|okay|fine|work|good)\s*\?"
    ),
    # "do it for 40", "that for 45": "for" names a price only after what is being priced.
    for_amount=re.compile(r"\b(?:it|that|this|one)\s+for\s+" + NUMBER + NOT_MONEY_AFTER),
    # Money that moved or is due: "I paid the €12 deposit", "my refund of €20" name no price.
    money_moved=re.compile(
        r"\b(?:deposits?|paid|payments?|refund\w*|reimburs\w*|charged|money back)\b"
    ),
    requests={
        "cancel": re.compile(r"\b(?:cancel\w*|call(?:ing)? (?:it|this|that|the \w+ )?off)\b"),
        "move": re.compile(
            r"\b(?:move|moving|reschedul\w*|re-schedul\w*|postpon\w*|push (?:it|that) back|"
            r"bring (?:it|that) forward|change (?:the |my |it to another )?(?:time|day|date|"
            r"slot|appointment|booking)|another (?:time|day|date|slot)|(?:earlier|later) "
            r"(?:time|slot))\b"
        ),
        "refund": re.compile(
            r"\b(?:refund\w*|reimburs\w*|(?:money|deposit|payment) back|"
            r"get (?:it|my (?:money|deposit|payment)) back|pay (?:me|it) back)\b"
        ),
    },
    negated=re.compile(r"\b(?:don'?t|do not|not|never|no need to|won'?t)\s+(?:\w+\s+){0,2}$"),
    synonyms={},
    service_ignored=SERVICE_IGNORED,
    # A request for a person, not any mention of one: "just one person" and "does the staff
    # speak spanish?" ask for nobody.
    human=re.compile(
        r"\b(?:human|real\s+person|someone\s+real"
        r"|(?:talk|speak|chat)\s+(?:to|with)\s+(?:someone|somebody|a\s+person|staff"
        r"|(?:the|your|a)\s+(?:staff|manager|owner|person|member\s+of\s+staff)|an?\s+agent)"
        r"|(?:want|need|get\s+me|put\s+me\s+through\s+to|connect\s+me\s+(?:to|with))\s+"
        r"(?:a\s+person|someone|somebody|staff|(?:the|a|your)\s+(?:manager|staff|owner))"
        r"|^\s*(?:a\s+)?(?:person|manager|staff|agent)(?:,?\s+(?:please|pls))?\s*[.!]*\s*$)\b",
        re.IGNORECASE,
    ),
    ordinals=ORDINALS,
    pick=re.compile(
        r"\b(?:the\s+)?(" + "|".join(ORDINALS) + r")(?:\s+(?:one|option|time|slot))?\b"
        r"|\boption\s+(\d)\b",
        re.IGNORECASE,
    ),
    # A message about the client's own booking, when they came back to a new chat.
    about_my_booking=re.compile(
        r"\b(?:my|the|our)\s+(?:booking|appointment|reservation|visit)s?\b|\bbooked\b|\bpaid\b|"
        r"\bmove\b|\breschedul|\bdeposit\b|\brefund|"
        r"\b(?:bookings?|appointments?|reservations?)\s+(?:do|did|have)\s+(?:i|we)\b",
        re.IGNORECASE,
    ),
    question_stems=QUESTION_STEMS,
    function_words=FUNCTION_WORDS,
    bound_before=re.compile(r"\b(?:before|until|till|til)\s+$"),
    bound_after=re.compile(r"\b(?:after|from)\s+$"),
    negated_clock=re.compile(r"\b(?:not|never|can'?t\s+do|cannot\s+do)\s+$"),
    negated_after=re.compile(r"^\s*,?\s*(?:i\s*)?(?:can'?t|cannot|am\s+not|'?m\s+not)\b"),
    pick_followers=re.compile(
        r"\s*(?:$|[^\w\s]|(?:please|pls|plz|thanks|thank\s+you|thx|then|is|would|will|works"
        r"|sounds|looks|suits|for\s+me|i\s+guess|it\s+is|of\s+them|ok|okay|fine|is\s+fine)\b)"
    ),
    pick_negated=re.compile(r"\b(?:not|no|never|don'?t\s+want)\s+$"),
    pleasantries=frozenset({
        "hi", "hii", "hello", "hey", "hiya", "there", "good", "morning", "afternoon", "evening",
        "day", "thanks", "thank", "you", "thx", "ty", "cheers", "bye", "goodbye", "see", "ya",
    }),
)  # fmt: skip
