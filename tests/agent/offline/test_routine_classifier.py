"""The conservative routine-turn classifier (paper §5.1) over a labelled corpus of our own.

Skipping the knowledge fetch on a question would let the model answer without what the owner
wrote, so the guarantee is one-sided: no question is ever classified routine, and nothing but a
bare name, email, phone, yes/no or time is. The share of routine turns skipped is the saving.
"""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from agent.offline import read_message

LISBON = ZoneInfo("Europe/Lisbon")
NOW = datetime(2026, 11, 25, 15, 0, tzinfo=LISBON)
SERVICES = [(1, "Haircut"), (2, "Beard trim"), (3, "Manicure"), (4, "Coloração")]

ROUTINE = [
    "Ana Silva", "ana silva", "João Pereira", "Maria", "my name is Rui Costa", "I'm Beatriz",
    "Sofia Martins-Lopes", "ana@example.com", "my email is joao@exemplo.pt",
    "Email: RUI.COSTA@mail.pt", "912 345 678", "912345678", "+351 912 345 678",
    "my number is 913 222 111", "phone: 00351 213 456 789", "yes", "Yes!", "yep", "sure", "ok",
    "Okay.", "yes please", "sounds good", "perfect", "Confirm", "confirm", "book it", "no",
    "Nope", "no thanks", "nah", "3pm", "at 3", "14:30", "14h30", "tomorrow at 10:00",
    "Friday morning", "tomorrow afternoon", "next Tuesday at 3pm", "3 December at 14:30",
    "on the 3rd", "Sunday", "tmrw at 5pm", "the 4th at 11am", "monday at 9",
    "tomorrow at 10 please", "thursday evening", "noon", "8 am tomorrow",
]  # fmt: skip

QUESTIONS = [
    "is Friday 3pm free?", "can you do 75?", "how much is a haircut?", "do you have parking",
    "what time do you open", "where are you?", "Are you open on Sunday", "any slots tomorrow",
    "is there anything at 3pm", "can I bring my dog?", "Do you take cards", "how long is it",
    "which products do you use", "whats your address", "do you do beards", "is it ok if I'm late",
    "can I pay cash?", "yes, but is there parking?", "ok, do you take cards", "ok?", "3pm?",
    "Ana Silva?", "ana@example.com?", "tomorrow?", "tell me the price",
    "I wonder if you have wifi", "is tomorrow possible", "friday or saturday",
    "could I come at 4", "will it hurt", "should I wash my hair before", "is the 3rd free",
    "cancellation policy?", "who does the coloração", "when's the earliest slot",
    "would 5pm work", "what about the 3rd", "do you have availability tomorrow",
    "Yes. Do I need to bring anything", "no. where do I park",
]  # fmt: skip

OTHER = [
    "I can pay 75 at 3pm tomorrow", "cancel", "I need to cancel my appointment", "€80",
    "80 euros", "I'd like a haircut", "Ana Silva, tomorrow at 3", "yes, tomorrow at 3pm",
    "hello", "Hi there", "thanks!", "parking", "I'll be 10 minutes late", "any time next week",
    "I want a manicure on friday at 11am", "my kid needs a haircut too", "running late sorry",
    "manicure", "Ana, ana@example.com", "I'm free tomorrow", "let me check with my wife",
    "nothing works this week", "please call me instead", "I'm late", "Late",
]  # fmt: skip

LABELLED = (
    [(text, "routine") for text in ROUTINE]
    + [(text, "question") for text in QUESTIONS]
    + [(text, "other") for text in OTHER]
)


def is_routine(text: str) -> bool:
    reading = read_message(text, now=NOW, time_zone=LISBON, country="PT", services=SERVICES)
    return reading.is_routine


def test_the_corpus_is_large_enough_to_mean_something():
    assert len(LABELLED) >= 80
    assert len({text for text, _ in LABELLED}) == len(LABELLED)


@pytest.mark.parametrize("text", QUESTIONS)
def test_a_question_is_never_classified_routine(text):
    assert not is_routine(text)


@pytest.mark.parametrize("text", OTHER)
def test_anything_unsure_includes_knowledge(text):
    assert not is_routine(text)


def test_no_question_is_skipped_and_every_routine_turn_is_skipped_100_percent():
    skipped_questions = [text for text in QUESTIONS if is_routine(text)]
    skipped_routine = [text for text in ROUTINE if is_routine(text)]
    share = len(skipped_routine) / len(ROUTINE)
    print(
        f"routine skipped {len(skipped_routine)}/{len(ROUTINE)} ({share:.0%}); "
        f"questions skipped {len(skipped_questions)}/{len(QUESTIONS)}"
    )

    assert skipped_questions == []
    assert share == 1.0, sorted(set(ROUTINE) - set(skipped_routine))
