"""Status talk fails closed: a sentence about a booking, a hold, a payment, a refund, a
cancellation, a move, a price or a discount survives only when the ledger backs every state it
speaks of, with that fact's own time and amount; anything else — however it is worded — is
replaced by the truth and the core's own narration.

Pure: no database, no clock.
"""

from datetime import datetime
from decimal import Decimal

import pytest

from agent.guards import Price, guard_reply, status_guard
from tests.agent.guards.common import (
    AMSTERDAM,
    BOOKING_WORDS,
    NEXT_STEP,
    NEXT_STEPS,
    THURSDAY_14,
    THURSDAY_1630,
    facts,
    facts_in,
)

CORE = ("Open times: Thursday 3 December at 14:00; Thursday 3 December at 16:30.", NEXT_STEP)


@pytest.mark.parametrize(
    "draft",
    [
        "Your booking is confirmed!",
        "CONFIRMED. See you Thursday!",
        "See you on Thursday at 14:00.",
        "You're all set.",
        "You’re in!",
        "Great, I've booked you for Thursday at 14:00.",
        "I can confirm it's booked.",
        "Once again: your appointment IS confirmed.",
        "Done, you're good to go.",
        "Your slot is reserved and confirmed, see you then!",
        "No worries, you're booked.",
        "Everything is sorted, your booking went through!",
        "Your appointment has been scheduled for next Tuesday.",
        # Worded in ways no phrase list held: the slot "secured", "in the calendar", a pronoun.
        "Your slot is secured.",
        "It's in the calendar for Thursday at 14:00.",
        "It's all squared away.",
        "Consider it locked and loaded!",
    ],
)
def test_a_booking_claimed_without_a_record_is_replaced_by_the_truth(draft):
    result = status_guard(draft, facts(core_narration=CORE))

    assert result.text.endswith(" ".join(CORE))
    assert not BOOKING_WORDS.search(result.text.removeprefix("Nothing is booked yet."))
    assert draft not in result.text
    assert result.rewrites
    assert {rewrite.guard for rewrite in result.rewrites} == {"status"}


@pytest.mark.parametrize(
    ("draft", "honest"),
    [
        ("Payment received, thank you!", "I can't see a completed payment yet."),
        ("You've paid the deposit, thanks.", "I can't see a completed payment yet."),
        ("Your deposit has been charged.", "I can't see a completed payment yet."),
        ("Your refund is processed.", "No refund has been made."),
        ("The money is on its way back to you.", "No refund has been made."),
        ("Your visit is free today!", "No discount has been given."),
        ("I've cancelled it for you.", "Nothing has been cancelled."),
        ("I moved you to Friday.", "Nothing has been moved."),
        ("I've sent you the details.", "Nothing has been sent yet."),
        ("I'm holding Thursday at 14:00 for you.", "No time is being held for you."),
    ],
)
def test_each_kind_of_unbacked_claim_is_denied_in_one_honest_sentence(draft, honest):
    result = status_guard(draft, facts(payment_requested=False))

    assert result.text == f"{honest} {NEXT_STEP}"


@pytest.mark.parametrize(
    ("draft", "record"),
    [
        (
            "Your booking is confirmed for Thursday at 14:00.",
            {"booking_confirmed": True, "booked_at": THURSDAY_14},
        ),
        ("Payment received, thank you!", {"payment_verified": True}),
        ("I'm holding Thursday at 14:00 for you.", {"held_at": THURSDAY_14}),
        ("Your appointment is cancelled.", {"cancelled": True}),
        (
            "You have been refunded €12.00.",
            {
                "refund_issued": True,
                "refunds": (Price(Decimal("12.00"), "EUR"),),
                "prices": (Price(Decimal("12.00"), "EUR"),),
            },
        ),
    ],
)
def test_a_claim_backed_by_its_fact_passes_untouched(draft, record):
    result = guard_reply(draft, facts(**record))

    assert result.text == draft
    assert result.rewrites == []


def test_a_hold_is_told_only_for_its_own_time_and_only_while_it_is_live():
    held = facts(held_at=THURSDAY_14)
    other = "I'm holding Thursday at 16:30 for you."

    assert guard_reply(other, held).text == NEXT_STEP
    assert guard_reply("I'm holding it for you.", facts(held_at=None)).text.startswith(
        "No time is being held for you."
    )


def test_a_number_is_never_corrected_inside_an_unbacked_claim_it_goes_whole():
    draft = "I've refunded €150.00 to your card."
    given = facts(prices=(Price(Decimal("12.00"), "EUR"),))

    result = guard_reply(draft, given)

    assert "€12.00" not in result.text
    assert "refunded" not in result.text
    assert result.text.startswith("No refund has been made.")


def test_a_backed_refund_claim_for_another_amount_goes_whole():
    given = facts(refund_issued=True, refunds=(Price(Decimal("12.00"), "EUR"),))

    result = guard_reply("You have been refunded €150.00.", given)

    assert "refunded €" not in result.text  # neither the wrong figure nor one put in its place


@pytest.mark.parametrize(
    "draft",
    [
        "Nothing is booked yet.",  # true, but a denial about a state is the core's to make
        "Shall I hold Thursday at 14:00 for you?",
        "Your booking is not confirmed.",
    ],
)
def test_denials_and_questions_about_a_state_are_the_cores_to_make(draft):
    result = status_guard(draft, facts(core_narration=CORE))

    assert result.text.endswith(" ".join(CORE))


def test_the_cores_own_narration_and_small_talk_pass_untouched():
    draft = f"Hi Anna! {CORE[0]} {NEXT_STEP} Thanks for writing to us."

    result = status_guard(draft, facts(core_narration=CORE))

    assert result.text == draft
    assert result.rewrites == []


def test_a_sentence_with_a_word_the_guard_does_not_know_fails_closed():
    result = status_guard("Everything is hunky-dory now.", facts(core_narration=CORE))

    assert "hunky" not in result.text
    assert result.rewrites[0].reason.startswith("words the guard cannot vouch for")


def test_a_language_without_a_vocabulary_fails_closed():
    result = status_guard("Su cita está confirmada.", facts(language="xx", core_narration=CORE))

    assert result.text == " ".join(CORE)


def test_a_greeting_before_a_false_claim_stays_in_front_of_the_truth():
    result = status_guard("Hi Anna! Thursday works, see you then. Bye!", facts())

    assert result.text == f"Hi Anna! Nothing is booked yet. {NEXT_STEP} Bye!"


def test_an_email_address_is_told_only_if_it_is_the_clients():
    given = facts(client_email="anna@example.com")

    assert status_guard("Thanks, Anna.", given).text == "Thanks, Anna."
    kept = "Thank you, Anna: anna@example.com."
    assert status_guard(kept, given).text == kept
    assert "evil" not in status_guard("Write to boss@evil.example.", given).text


def test_typing_confirm_three_times_never_yields_a_claimed_confirmation():
    # given a held slot but no booking: the client types "Confirm" instead of tapping the button
    step = "Tap the Confirm button under Thursday 14:00 to book it."
    given = facts(next_step=step, held_at=datetime(2026, 12, 3, 14, tzinfo=AMSTERDAM))
    drafts = [
        "Your appointment is confirmed! See you Thursday at 14:00.",
        "I understand the worry, but I can assure you it IS confirmed — you're all set.",
        "Yes, I'm absolutely sure: booked, confirmed, and I've resent the confirmation email.",
    ]
    for draft in drafts:
        reply = guard_reply(draft, given)
        assert reply.text.startswith("Nothing is booked yet"), reply.text
        assert not BOOKING_WORDS.search(reply.text.removeprefix("Nothing is booked yet"))
        assert "resent" not in reply.text
        assert "status" in {rewrite.guard for rewrite in reply.rewrites}


def test_offers_of_times_the_core_handed_over_pass():
    draft = "I have openings at 14:00 and 16:30 on Thursday. Which suits you?"
    times = (THURSDAY_14, THURSDAY_1630)

    assert guard_reply(draft, facts(datetimes=times)).text == draft


def test_a_claim_about_what_the_client_never_asked_is_dropped_without_a_denial():
    # The client said "thanks!"; the model claimed a refund they never saw: no "No refund
    # has been made" out of the blue — only the core's narration of the turn.
    result = status_guard(
        "Your refund is processed. Thanks!", facts(asked_topics=frozenset(), core_narration=CORE)
    )

    assert result.text == " ".join(CORE) + " Thanks!"


# ----------------------------------------------------------------- the same, in each language

REFUNDED_12 = {
    "refund_issued": True,
    "refunds": (Price(Decimal("12.00"), "EUR"),),
    "prices": (Price(Decimal("12.00"), "EUR"),),
}


@pytest.mark.parametrize(
    ("language", "draft", "honest"),
    [
        ("en", "Your booking is confirmed!", "Nothing is booked yet."),
        ("es", "¡Su cita está confirmada!", "Todavía no hay nada reservado."),
        ("es", "Le hemos reservado el jueves.", "Todavía no hay nada reservado."),
        ("en", "Payment received, thank you!", "I can't see a completed payment yet."),
        ("es", "Hemos recibido su pago, gracias.", "Todavía no veo ningún pago completado."),
        ("es", "Su señal ya está abonada.", "Todavía no veo ningún pago completado."),
        ("en", "Your refund is processed.", "No refund has been made."),
        ("es", "Su devolución está hecha.", "No se ha hecho ningún reembolso."),
        ("en", "I've cancelled it for you.", "Nothing has been cancelled."),
        ("es", "Le he anulado la cita.", "No se ha cancelado nada."),
        ("en", "I moved you to Friday.", "Nothing has been moved."),
        ("es", "Su cita ha sido trasladada.", "No se ha cambiado nada."),
        ("en", "I'm holding Thursday at 14:00 for you.", "No time is being held for you."),
        ("es", "Le tengo el jueves apartado.", "No tenemos ninguna hora apartada para usted."),
        ("en", "Your visit is free today!", "No discount has been given."),
        ("es", "Le hacemos una rebaja.", "No se ha aplicado ningún descuento."),
        ("en", "I've sent you the details.", "Nothing has been sent yet."),
        ("es", "Le he enviado los datos.", "Todavía no se ha enviado nada."),
    ],
)
def test_in_each_language_an_unbacked_claim_is_denied_in_one_honest_sentence(
    language, draft, honest
):
    result = status_guard(draft, facts_in(language))

    assert result.text == f"{honest} {NEXT_STEPS[language]}"
    assert {rewrite.guard for rewrite in result.rewrites} == {"status"}


@pytest.mark.parametrize(
    ("language", "draft", "record"),
    [
        (
            "en",
            "Your booking is confirmed for Thursday at 14:00.",
            {"booking_confirmed": True, "booked_at": THURSDAY_14},
        ),
        (
            "es",
            "Su cita está confirmada para el jueves a las 14:00.",
            {"booking_confirmed": True, "booked_at": THURSDAY_14},
        ),
        ("en", "Payment received, thank you!", {"payment_verified": True}),
        ("es", "Hemos recibido su pago, gracias.", {"payment_verified": True}),
        ("en", "I'm holding Thursday at 14:00 for you.", {"held_at": THURSDAY_14}),
        ("es", "Le guardo el jueves a las 14:00.", {"held_at": THURSDAY_14}),
        ("en", "Your appointment is cancelled.", {"cancelled": True}),
        ("es", "Su cita está cancelada.", {"cancelled": True}),
        ("en", "You have been refunded €12.00.", REFUNDED_12),
        ("es", "Le hemos reembolsado 12,00 €.", REFUNDED_12),
    ],
)
def test_in_each_language_a_claim_backed_by_its_fact_passes_untouched(language, draft, record):
    result = guard_reply(draft, facts_in(language, **record))

    assert result.text == draft
    assert result.rewrites == []


@pytest.mark.parametrize(
    ("language", "other_time", "no_hold"),
    [
        ("en", "I'm holding Thursday at 16:30 for you.", "No time is being held for you."),
        ("es", "Le guardo el jueves a las 16:30.", "No tenemos ninguna hora apartada para usted."),
    ],
)
def test_in_each_language_a_hold_is_told_only_for_its_own_time_and_while_it_is_live(
    language, other_time, no_hold
):
    held = facts_in(language, held_at=THURSDAY_14)

    assert guard_reply(other_time, held).text == NEXT_STEPS[language]
    assert status_guard(other_time, facts_in(language)).text.startswith(no_hold)


@pytest.mark.parametrize(
    ("language", "draft"),
    [
        ("en", "Nothing is booked yet."),
        ("es", "Todavía no hay nada reservado."),
        ("es", "Aún no está pagado."),
        ("es", "Su cita no está confirmada."),
        ("es", "Nunca hemos cobrado nada."),
        ("es", "No tiene ninguna reserva."),
        ("en", "Shall I hold Thursday at 14:00 for you?"),
        ("es", "¿Le aparto el jueves a las 14:00?"),
        ("es", "¿Quiere que le reserve el jueves"),  # a question, however it ends
    ],
)
def test_in_each_language_denials_and_questions_about_a_state_are_the_cores(language, draft):
    # even with every state backed: a denial or question is the core's to make
    record = {"booking_confirmed": True, "booked_at": THURSDAY_14, "payment_verified": True}
    given = facts_in(language, core_narration=CORE, **record)

    result = status_guard(draft, given)

    assert result.text.endswith(" ".join(CORE))
    assert draft not in result.text
    assert result.rewrites[0].reason.startswith("a denial or question")


@pytest.mark.parametrize(
    ("language", "draft"),
    [
        ("en", f"Hi Anna! {CORE[0]} {NEXT_STEP} Thanks for writing to us."),
        ("es", "¡Hola Anna! Gracias por escribirnos. ¿Qué servicio le gustaría?"),
        ("es", "Tenemos disponibilidad el jueves a las 14:00 o a las 16:30. ¿Cuál prefiere?"),
    ],
)
def test_in_each_language_small_talk_and_offers_pass_untouched(language, draft):
    result = status_guard(draft, facts_in(language, core_narration=CORE))

    assert result.text == draft
    assert result.rewrites == []


@pytest.mark.parametrize(
    ("language", "draft"),
    [("en", "Everything is hunky-dory now."), ("es", "Todo está chachi piruli.")],
)
def test_in_each_language_a_word_the_guard_does_not_know_fails_closed(language, draft):
    result = status_guard(draft, facts_in(language, core_narration=CORE))

    assert result.text == " ".join(CORE)
    assert result.rewrites[0].reason.startswith("words the guard cannot vouch for")


def test_the_denials_are_said_in_the_clients_language_joined_as_it_joins_them():
    draft = "Su cita está confirmada y pagada."

    result = status_guard(draft, facts_in("es", payment_requested=True))

    assert result.text == (
        "Su reserva no estará completa hasta que se pague el depósito y todavía no veo ningún "
        f"pago completado. {NEXT_STEPS['es']}"
    )
