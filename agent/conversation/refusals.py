"""What a client reads when something they wanted was refused. Pure.

A gate's ``reason`` is written for the audit log and for operators: it names commands, fields
and capabilities ("hold_slot is not in the agent's capabilities", "card: String should have at
least 1 character"). A client never reads it. A rule with words of its own for the client
gives them in ``GateVerdict.said`` (the POLICY rules, the refund policy, the booking core's
refusals); anything else is told with one plain sentence per kind of request, and a refusal of
something the client never asked about (free text, an unknown command) is not told at all.
"""

from __future__ import annotations

from django.utils.translation import gettext

from agent.gates import GateVerdict, Stage
from agent.message_ids import gettext_noop

# One plain sentence per command, for refusals without words of their own. The English is the
# catalogue's message id: the client reads it in the active language (``plain_refusal``).
BY_ACTION = {
    "offer_slots": gettext_noop("I couldn't look up open times just now."),
    "choose_service": gettext_noop("I couldn't choose that service."),
    "hold_slot": gettext_noop("I can't hold that time."),
    "collect_contact": gettext_noop("I couldn't use those details."),
    "request_confirmation": gettext_noop("I can't book it yet."),
    "confirm_booking": gettext_noop("I can't book it yet."),
    "request_payment": gettext_noop("I can't open the payment just now."),
    "cancel_appointment": gettext_noop("I can't cancel it here."),
    "reschedule_appointment": gettext_noop("I can't move it here."),
    "refund": gettext_noop("I can't arrange a refund here."),
    "offer_price": gettext_noop("I can't take price offers here; the price is the one shown."),
}
NOT_IN_THIS_CHAT = gettext_noop(
    "That isn't something I can do in this chat; a member of the team can help."
)
# Refused at STRUCTURE, the command was fine but what it carried was not: an offer too long to be
# an amount is no price, and the client is not told that offers are not taken.
AT_STRUCTURE = {
    "offer_price": gettext_noop(
        "That amount is not a price: an offer is money, such as 45 or 45.50."
    ),
}


def plain_refusal(action: str, verdict: GateVerdict) -> str:
    """The client's words for ``verdict`` refusing ``action``; "" when there is nothing the
    client needs to hear (a command the client never asked about)."""
    if verdict.passed:
        return ""
    if verdict.said:
        return verdict.said
    if action not in BY_ACTION:
        return ""
    if verdict.stage == Stage.CAPABILITY:
        return f"{gettext(BY_ACTION[action])} {gettext(NOT_IN_THIS_CHAT)}"
    if verdict.stage == Stage.STRUCTURE and action in AT_STRUCTURE:
        return gettext(AT_STRUCTURE[action])
    return gettext(BY_ACTION[action])
