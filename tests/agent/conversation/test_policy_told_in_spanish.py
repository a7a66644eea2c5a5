"""The POLICY gate's and the refund policy's refusals, judged on plain facts (no database),
with the active language Spanish: the client's words (``said``) are Spanish, the reason the
audit keeps is the English one, word for word, whatever language is active."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from decimal import Decimal

import pytest
from django.utils import translation

from agent.actions import Refund
from agent.conversation.policy import ConversationFacts, conversation_policy
from agent.gates import RefundFacts, Structured, refund_policy_gate, structure_gate
from payments.models import PaymentStatus
from payments.refund_policy import RefundRequest, RefundState, refund_refusal, refund_rule_broken
from tests.agent.conversation.conftest import NOW

BOOKED = ConversationFacts(
    now=NOW,
    time_zone="Europe/Lisbon",
    country="PT",
    horizon_days=30,
    services={"7": 7, "haircut": 7},
    service_id=7,
    appointment="A-1",
    appointment_status="confirmed",
    asked=frozenset({"cancel", "move"}),
)
READY = replace(
    BOOKED, appointment=None, appointment_status=None, holds_slot=True, missing=(), card="c-1"
)


def judged(raw, facts: ConversationFacts, language: str, actor: str = "model"):
    structured = structure_gate(raw)
    assert isinstance(structured, Structured), structured
    with translation.override(language):
        return conversation_policy(structured, facts, actor=actor)


# Refusals a turn cannot easily reach (a state the chat seldom gets into), told in Spanish.
@pytest.mark.parametrize(
    ("raw", "facts", "actor", "spanish"),
    [
        pytest.param(
            {"action": "cancel_appointment", "appointment": "A-1"},
            replace(BOOKED, appointment_status="attended"),
            "model",
            "Su cita ya no se puede cancelar desde aquí.",
            id="no longer cancellable",
        ),
        pytest.param(
            {
                "action": "reschedule_appointment",
                "appointment": "A-1",
                "start": "2026-12-03T10:00",
            },
            replace(BOOKED, appointment_status="pending_payment"),
            "model",
            "Su cita no se puede cambiar desde aquí.",
            id="not movable",
        ),
        pytest.param(
            {"action": "choose_appointment", "appointment": "A-9"},
            replace(BOOKED, verified=True, client_appointments=frozenset({"A-1"})),
            "model",
            "Esa no es una de sus reservas aquí.",
            id="not one of the verified client's",
        ),
        pytest.param(
            {"action": "confirm_booking", "card": "c-0"},
            READY,
            "client",
            "La reserva ha cambiado desde que se le mostró: revísela y confirme la nueva.",
            id="a card changed since shown",
        ),
        pytest.param(
            {"action": "offer_price", "amount": "50"},
            replace(READY, negotiable=False, currency="EUR"),
            "model",
            "Lo siento, el precio de este servicio no es negociable.",
            id="a fixed price",
        ),
        pytest.param(
            {"action": "offer_price", "amount": "45.555"},
            replace(READY, negotiable=True, currency="EUR"),
            "model",
            "Una oferta se hace en céntimos enteros, como 45,50.",
            id="an offer finer than a cent",
        ),
        pytest.param(
            {"action": "collect_contact", "phone": "ninguno"},
            replace(READY, client_said="ninguno"),
            "model",
            "Eso no parece un número de teléfono. Escríbalo con su prefijo, o con + y el código "
            "del país.",
            id="not a phone number",
        ),
        pytest.param(
            {"action": "collect_contact", "email": "ana@example"},
            replace(READY, client_said="ana@example"),
            "model",
            "Esa dirección de correo electrónico parece incompleta: le falta un dominio, como "
            "example.com. Una dirección de correo electrónico tiene esta forma: "
            "nombre@example.com.",
            id="an email without a domain",
        ),
    ],
)
def test_a_rule_is_told_in_spanish_and_audited_in_english(raw, facts, actor, spanish):
    english = judged(raw, facts, "en", actor)

    told = judged(raw, facts, "es", actor)

    assert not told.passed
    assert told.said == spanish
    assert told.reason == english.reason
    assert english.said != spanish


# --- the refund policy ---------------------------------------------------------------------

VISIT_ENDS = dt.datetime(2026, 12, 2, 11, tzinfo=dt.UTC)
PAID = RefundState(
    payment_exists=True,
    status=PaymentStatus.PAID,
    paid=Decimal("50.00"),
    refunded=Decimal("0"),
    visit_ends_at=VISIT_ENDS,
    refund_window_days=30,
    max_refund=Decimal("40.00"),
    currency="EUR",
)
DURING = VISIT_ENDS + dt.timedelta(days=1)


@pytest.mark.parametrize(
    ("amount", "now", "state", "english", "spanish"),
    [
        pytest.param(
            "10.00",
            DURING,
            replace(PAID, status=PaymentStatus.REFUNDED),
            "This payment has already been fully refunded.",
            "Este pago ya se ha reembolsado por completo.",
            id="already refunded",
        ),
        pytest.param(
            "10.00",
            VISIT_ENDS + dt.timedelta(days=31),
            PAID,
            "The refund window of 30 days after the visit has passed.",
            "Ya ha pasado el plazo de reembolso de 30 días después de la cita.",
            id="the window passed",
        ),
        pytest.param(
            "12.345",
            DURING,
            PAID,
            "A refund is given in whole cents; 12.345 is not.",
            "Un reembolso se hace en céntimos enteros; 12,345 no lo es.",
            id="finer than a cent, every digit shown",
        ),
        pytest.param(
            "60.00",
            DURING,
            replace(PAID, max_refund=None),
            "60.00 EUR is more than the 50.00 EUR still refundable.",
            "60,00 EUR es más de los 50,00 EUR que aún se pueden reembolsar.",
            id="more than is left",
        ),
        pytest.param(
            "40.01",
            DURING,
            PAID,
            "40.01 EUR is more than this business's maximum refund of 40.00 EUR.",
            "40,01 EUR es más que el reembolso máximo de este negocio, 40,00 EUR.",
            id="more than the maximum",
        ),
    ],
)
def test_the_refund_policy_tells_the_client_in_their_language_and_keeps_english_for_the_audit(
    amount, now, state, english, spanish
):
    request = RefundRequest(Decimal(amount), now)
    refusal = refund_rule_broken(request, state)
    assert refusal is not None

    with translation.override("es"):
        # Built as the payments side may see it: the chat's schema refuses sub-cent amounts.
        proposal = Refund.model_construct(appointment="A-1", amount=Decimal(amount))
        verdict = refund_policy_gate(proposal, RefundFacts(state, now))
        # What the dashboard, the admin and the payments service read: English, in any
        # language.
        assert refund_refusal(request, state) == english

    assert (verdict.reason, verdict.said) == (english, spanish)
    assert refusal.in_english() == english
    with translation.override("en"):
        assert refusal.told() == english
