"""The offline deterministic model: the embedded default behind the one model interface.

It proposes from what ``read_message`` found in the client's message and the stage of the
conversation, and narrates the core's facts with fixed templates. It has no network, no clock
and no database; like any model, it only proposes — the gates still judge everything it says,
and the guards still read its replies.

How it proposes, in the order a message is read:
- "a person", "human", "staff" … → escalate_to_human.
- "cancel" with a booking made → cancel_appointment (of the appointment the conversation acts
  on: its own, or the one a returning client chose or opened the chat from).
- a verified returning client speaking of their booking ("cancel my appointment", "move it to
  12", "what time was I booked for?", "is it paid?") with none chosen yet → choose_appointment
  of their one upcoming booking here (then the cancel or the move); with several, a reply
  listing them by reference.
- "move" of the upcoming confirmed booking acted on → reschedule_appointment to the exact time
  named; with a day or no time, offer_slots of the booking's service to choose from (then a
  time, or "the first one", moves it).
- a service named → choose_service (unless already chosen).
- an exact time → hold_slot (reschedule_appointment once booked); a day or a window →
  offer_slots for it; a service just chosen with no time → offer_slots from today.
- "the first one", "the 2nd" while times are offered → hold_slot of that offer.
- an amount offered ("can you do 30?", "€45", "55 ok?") → offer_price, with the currency
  only if the client named one (the core refuses another currency; it never converts).
- an email, phone or bare name → collect_contact.
- yes / confirm with every detail collected → request_confirmation (it shows the client the
  booking to confirm; the offline model never proposes confirm_booking itself).
- a question it has no command for → a reply quoting the closest passage of the business's
  knowledge, or an honest "I'll have to ask the team".
- a message it cannot read at all (``agent.offline.unreadable``: nothing to act on, no
  question its knowledge answers — "asdf qwer", "I'm the owner, refund everyone") →
  offer_person: the reply says what the assistant can do here and offers a member of the
  team; a plain "yes" to that in the next message → escalate_to_human.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.utils.translation import gettext

from agent.conversation.telling import (
    appointment_now,
    booked_service,
    lapsed_words,
    moving_booking,
    person_offer,
    refusal_told,
)
from agent.conversation.wording import local_label
from agent.guards.ledger import Price
from agent.guards.prices import format_price
from agent.llm.base import ConversationView, Narration, Proposed, StepOutcome, TurnContext
from agent.offline.languages import table_for
from agent.offline.reading import Intent, TimeRequest, read_pick
from agent.offline.unreadable import accepts_person, cannot_read

# The words the model reads in the message itself ("a person", "the first one", "my booking",
# the words every question has) are in the reading table of the conversation's language.
WORD = re.compile(r"[a-zà-ÿ]{4,}")
LIVE = ("confirmed", "pending_payment")
WHOLE_DAY = dt.timedelta(hours=20)


class OfflineModel:
    name = "offline"
    # It narrates in this process, in microseconds, so a turn need not commit before it does
    # (ADR 0005); it reads only the current message, and proposes without looking at its
    # grants (the CAPABILITY gate reads them when there is something to judge).
    narrates_in_process = True
    reads_history = False
    reads_menu = False

    # --- proposing -----------------------------------------------------------------------------

    def propose(self, context: TurnContext) -> Proposed:
        reading, view = context.reading, context.conversation
        proposals: list[dict[str, Any]] = []
        if table_for(context.language).human.search(context.message):
            return Proposed(({"action": "escalate_to_human", "reason": "the client asked"},))
        if view.person_offered and accepts_person(reading):
            reason = "the client took up the offer of a person"
            return Proposed(({"action": "escalate_to_human", "reason": reason},))
        if reading.intent == Intent.CANCEL and view.appointment:
            return Proposed(({"action": "cancel_appointment", "appointment": view.appointment},))
        refund = _refund(view.appointment, view.deposit_left, reading) if view.appointment else None
        if refund is not None and "refund" in reading.requests:
            return Proposed((refund,))
        if returning := self._returning(context):
            return returning
        if move := self._move(context):
            return Proposed(tuple(move))
        if self._unreadable(context):
            reason = "the assistant could not read the client's message"
            return Proposed(({"action": "offer_person", "reason": reason},))
        service = str(view.service.id) if view.service else None
        if reading.service_ids and str(reading.service_ids[0]) != service:
            service = str(reading.service_ids[0])
            proposals.append({"action": "choose_service", "service": service})
        if service is not None:
            proposals.extend(self._times(context, service, chose=bool(proposals)))
        contact = {
            key: value
            for key, value in (
                ("name", reading.name),
                ("email", reading.emails[0] if reading.emails else None),
                ("phone", reading.phones[0] if reading.phones else None),
            )
            if value
        }
        if contact:
            proposals.append({"action": "collect_contact", **contact})
        # Details that cannot be used are proposed all the same: the core refuses each with
        # what is wrong with it, the client reads that, and nothing invalid is stored.
        for key, bad in (("email", reading.bad_emails), ("phone", reading.bad_phones)):
            if bad and key not in contact:
                proposals.append({"action": "collect_contact", key: bad[0]})
        offer = self._offer(context)
        if offer is not None:
            proposals.append(offer)
        # "55 ok?" agrees to nothing but the price it names.
        agrees = reading.intent in (Intent.YES, Intent.CONFIRM) and offer is None
        if agrees and view.held and not view.missing and not contact:
            proposals.append({"action": "request_confirmation"})
        if agrees and not view.held and service and len(view.offered) == 1 and not proposals:
            # "Shall I hold it again?" — "yes": the one time offered.
            start = view.offered[0].isoformat()
            proposals.append({"action": "hold_slot", "service": service, "start": start})
        if proposals:
            return Proposed(tuple(proposals))
        if not reading.is_routine:
            return Proposed(reply=self._answer(context))
        return Proposed()

    def _returning(self, context: TurnContext) -> Proposed | None:
        """A verified client back in a new chat, about their booking: the one it must be."""
        view, reading = context.conversation, context.reading
        if view.appointment or not view.client_appointments:
            return None
        about_my_booking = table_for(context.language).about_my_booking
        # "cancel", or a move or refund asked before any booking is begun here ("another day"
        # while booking is about the times offered, not about a booking made before).
        asks = reading.intent == Intent.CANCEL or (reading.requests and view.service is None)
        if not asks and not about_my_booking.search(context.message):
            return None
        upcoming = [
            each
            for each in view.client_appointments
            if each.status in LIVE and each.start > context.now
        ]
        if "refund" in reading.requests:
            # A deposit back is as often for a visit that is over: the latest with one paid.
            paid = [each for each in view.client_appointments if each.deposit_left is not None]
            upcoming = paid[:1]
        if len(upcoming) != 1:
            zone = context.time_zone
            listed = "; ".join(
                gettext("%(reference)s: %(service)s on %(when)s")
                % {
                    "reference": each.reference,
                    "service": each.service,
                    "when": local_label(each.start, zone),
                }
                for each in (upcoming or view.client_appointments)[:5]
            )
            return Proposed(
                reply=gettext("Which booking do you mean? %(bookings)s.") % {"bookings": listed}
            )
        [chosen] = upcoming
        proposals: list[dict[str, Any]] = [
            {"action": "choose_appointment", "appointment": chosen.reference}
        ]
        exact = [request.start for request in reading.times if request.exact]
        if "refund" in reading.requests:
            if refund := _refund(chosen.reference, chosen.deposit_left, reading):
                proposals.append(refund)
        elif reading.intent == Intent.CANCEL:
            proposals.append({"action": "cancel_appointment", "appointment": chosen.reference})
        elif "move" in reading.requests and chosen.status == "confirmed":
            service = _service_id(context, chosen.service)
            proposals.extend(_moved_to(context, chosen.reference, service))
        elif exact and chosen.status == "confirmed":
            start = exact[0].isoformat()
            move = {"appointment": chosen.reference, "start": start}
            proposals.append({"action": "reschedule_appointment", **move})
        return Proposed(tuple(proposals))

    def _move(self, context: TurnContext) -> list[dict[str, Any]]:
        """The client asks to move the booking the conversation acts on — its own, or one
        chosen (a returning client's, or the manage link's, which has no service chosen to
        offer times of): to the time named, else times of its service to choose from."""
        view, reading = context.conversation, context.reading
        if "move" not in reading.requests or view.appointment is None:
            return []
        upcoming = view.appointment_start is not None and view.appointment_start > context.now
        if view.appointment_status != "confirmed" or not upcoming:
            return []  # the core's refusal of it is told when a time is named (_times)
        if view.held or (view.service and view.service.name != view.appointment_service):
            return []  # another booking in the making: "another day" is about its times
        service = _service_id(context, view.appointment_service)
        if reading.service_ids and str(reading.service_ids[0]) != service:
            return []  # another service named: a new booking, not this one moved
        return _moved_to(context, view.appointment, service)

    def _unreadable(self, context: TurnContext) -> bool:
        view, reading = context.conversation, context.reading
        return cannot_read(
            reading,
            context.message,
            answered=reading.is_question and bool(self._answer(context)),
            acts_on_booking=view.appointment is not None,
            name_expected=view.held is not None and "name" in view.missing,
            picked=self._picked(context) is not None,
        )

    def _times(self, context: TurnContext, service: str, *, chose: bool) -> list[dict[str, Any]]:
        reading, view = context.reading, context.conversation
        zone = ZoneInfo(context.time_zone)
        if reading.times:
            asked = reading.times[0]
            if asked.exact:
                return [_hold_or_move(view, service, asked.start)]
            return [{"action": "offer_slots", "service": service, **_window(asked, zone)}]
        picked = self._picked(context)
        if picked is not None:
            return [_hold_or_move(view, service, picked)]
        if chose or (view.state == "service_chosen" and not view.offered):
            return [{"action": "offer_slots", "service": service}]
        return []

    def _offer(self, context: TurnContext) -> dict[str, Any] | None:
        """The client's price offer, as written: its first amount. Money asked back ("a
        refund of €20") is a request, not an offer."""
        reading = context.reading
        if not reading.amounts or reading.requests:
            return None
        money = reading.amounts[0]
        offer: dict[str, Any] = {"action": "offer_price", "amount": str(money.amount)}
        if money.currency is not None:
            offer["currency"] = money.currency
        return offer

    def _picked(self, context: TurnContext) -> dt.datetime | None:
        offered = context.conversation.offered
        if not offered or context.reading.is_question:
            return None
        index = read_pick(context.message, context.language)
        if index is not None and -len(offered) <= index < len(offered):
            return offered[index]
        return None

    def _answer(self, context: TurnContext) -> str:
        """The knowledge passage sharing most words with the question, quoted; or honesty.
        Words match on their first letters ("park" finds "parking")."""
        asked = {_stem(word) for word in WORD.findall(context.message.lower())}
        asked -= table_for(context.language).question_stems
        best, best_score = "", 0
        # Headings ("## Parking") title a source; they are not an answer.
        text = "\n".join(
            line for line in context.knowledge.splitlines() if not line.lstrip().startswith("#")
        )
        for passage in re.split(r"\n\s*\n|(?<=[.!?])\s+", text):
            words = {_stem(word) for word in WORD.findall(passage.lower())}
            score = len(asked & words)
            if score > best_score:
                best, best_score = passage.strip(), score
        if best:
            return best
        return ""  # nothing to quote: the narration says what the assistant can do instead

    # --- narrating -----------------------------------------------------------------------------

    def narrate(self, narration: Narration) -> str:
        zone = narration.turn.time_zone
        parts: list[str] = list(narration.notes) or [self._unanswered(narration)]
        for step in narration.outcomes:
            # Several steps can say the same (the details form is one collect_contact per
            # field): the client reads each sentence once.
            if (sentence := self._step(step, narration)) is not None and sentence not in parts:
                parts.append(sentence)
        if narration.lapsed is not None:
            parts.append(self._lapsed(narration))
        elif narration.slots:
            times = "; ".join(local_label(start, zone) for start in narration.slots)
            parts.append(gettext("Open times: %(times)s.") % {"times": times})
        elif any(step.action == "offer_slots" and step.executed for step in narration.outcomes):
            parts.append(gettext("I couldn't find an open time in the next two weeks."))
        if narration.alternatives and narration.lapsed is None:
            times = "; ".join(local_label(start, zone) for start in narration.alternatives)
            parts.append(gettext("The nearest open times are %(times)s.") % {"times": times})
        after = narration.after
        if after.appointment_start and not narration.outcomes and narration.effect is None:
            # What is true of the booking now: upcoming, passed, refunded, cancelled…
            parts.append(appointment_now(after, narration.turn.now, zone))
        if after.state == "awaiting_payment" and narration.deposit:
            amount = format_price(Price(narration.deposit, narration.turn.currency))
            parts.append(
                gettext("A deposit of %(amount)s is due to complete the booking.")
                % {"amount": amount}
            )
        parts.append(narration.next_step)
        return " ".join(part for part in parts if part)

    def _unanswered(self, narration: Narration) -> str:
        """A message nothing was done for and nothing quoted: say so honestly, and what can
        be done here. Written from the turn's reading, so it is the core's own sentence."""
        turn = narration.turn
        # A person offered says all this itself; an offer refused (the business does not let
        # its assistant hand over) leaves the message unanswered.
        acted = [s for s in narration.outcomes if s.executed or s.action != "offer_person"]
        if acted or not turn.message or turn.reading.is_routine:
            return ""
        if "refund" in turn.reading.requests and narration.after.deposit_left is not None:
            return ""  # the narration tells where its deposit stands (refunded, or not)
        if "refund" in turn.reading.requests:
            return gettext(
                "I can't arrange a refund from this chat myself, but a member of the team can: "
                "ask me for a person and I'll hand you over."
            )
        if turn.reading.is_question:
            if narration.after.state in ("confirmed", "awaiting_payment"):
                return ""  # the narration tells where the booking stands
            about_my_booking = table_for(turn.language).about_my_booking.search(turn.message)
            if narration.after.appointment_start is not None and about_my_booking:
                return ""  # the booking acted on (a returning client's): its standing answers
            return gettext("I don't have that information, but a member of the team can tell you.")
        return gettext(
            "I can't do that from this chat. I can find a time and book it, or move or cancel "
            "a booking made here; for anything else, ask me for a person and a member of the "
            "team will reply."
        )

    def _lapsed(self, narration: Narration) -> str:
        lapsed = narration.lapsed
        assert lapsed is not None
        zone = narration.turn.time_zone
        told = lapsed_words(lapsed.start, zone, still_free=lapsed.still_free)
        if lapsed.still_free or not narration.alternatives:
            return told
        times = "; ".join(local_label(start, zone) for start in narration.alternatives)
        return f"{told} {gettext('The nearest open times are %(times)s.') % {'times': times}}"

    def _step(self, step: StepOutcome, narration: Narration) -> str | None:
        after, zone = narration.after, narration.turn.time_zone
        currency = narration.turn.currency
        if not step.executed:
            # The core's refusal in the client's words, never the gate's reason; only of what
            # the client asked for (not of what a model tried on its own).
            return step.said if refusal_told(step, narration) else None
        match step.action:
            case "choose_service" if after.service is not None:
                price = format_price(Price(after.service.price, currency))
                return gettext("%(service)s takes %(minutes)s minutes and costs %(price)s.") % {
                    "service": after.service.name,
                    "minutes": after.service.minutes,
                    "price": price,
                }
            case "hold_slot" if after.held is not None:
                return gettext("I'm holding %(when)s for you.") % {
                    "when": local_label(after.held, zone)
                }
            case "collect_contact":
                if after.name:
                    return gettext("Thank you, %(name)s.") % {"name": after.name}
                return gettext("Thank you.")
            case "confirm_booking" if after.appointment_start and after.state == "confirmed":
                return gettext("Your booking is confirmed: %(when)s.") % {
                    "when": local_label(after.appointment_start, zone)
                }
            case "confirm_booking" if after.state == "awaiting_payment":
                return gettext("This time is kept for you until the deposit is paid.")
            case "confirm_booking":
                # Booked, then released: no checkout could be opened, so nothing is kept.
                return gettext(
                    "Payments are unavailable at the moment, so nothing was booked. Please try "
                    "again in a little while."
                )
            case "choose_appointment":
                # The returning client's booking, as it stands: what they came to ask about.
                return appointment_now(after, narration.turn.now, zone) or None
            case "cancel_appointment" | "reschedule_appointment" | "refund" if step.prepared:
                return self._prepared(narration)
            case "cancel_appointment":
                return gettext("Your appointment is cancelled.")
            case "reschedule_appointment" if after.appointment_start is not None:
                return gettext("Your appointment is moved to %(when)s.") % {
                    "when": local_label(after.appointment_start, zone)
                }
            case "escalate_to_human":
                # The next step says who replies, and where: said once.
                return gettext("I've handed this conversation over.")
            case "offer_person":
                return person_offer(narration)
            case "offer_price" if narration.price_answer is not None:
                return self._price_answered(narration)
            case "refund":
                amount = format_price(Price(step.money_moved, currency))
                return gettext("A refund of %(amount)s has been issued to your card.") % {
                    "amount": amount
                }
        return None

    def _price_answered(self, narration: Narration) -> str:
        """The core's answer to the client's offer, with the core's number only — never the
        client's (a reply states no amount but the core's) and never the floor unless the
        answer is the floor."""
        answer = narration.price_answer
        assert answer is not None
        price = format_price(Price(answer.price, narration.turn.currency))
        service = narration.after.service
        told = {"price": price, "service": service.name if service is not None else ""}
        # The same answers of a service named and of none ("it"): a translation can then word
        # each whole.
        match answer.kind, service is not None:
            case "accept", True:
                return gettext("Agreed: the %(service)s for %(price)s.") % told
            case "accept", False:
                return gettext("Agreed: it for %(price)s.") % told
            case "counter", True:
                return (
                    gettext("I can't go that low, but I can do the %(service)s for %(price)s.")
                    % told
                )
            case "counter", False:
                return gettext("I can't go that low, but I can do it for %(price)s.") % told
        if answer.is_floor and service is not None:
            return gettext("%(price)s is the lowest I can go for the %(service)s.") % told
        if answer.is_floor:
            return gettext("%(price)s is the lowest I can go for it.") % told
        if service is not None:
            return gettext("I'm afraid I can't go below %(price)s for the %(service)s.") % told
        return gettext("I'm afraid I can't go below %(price)s for it.") % told

    def _prepared(self, narration: Narration) -> str | None:
        """What an effect card will do, said before the client presses it."""
        effect, after = narration.effect, narration.after
        if effect is None:
            return None
        zone, currency = narration.turn.time_zone, narration.turn.currency
        service = booked_service(after)
        when = local_label(after.appointment_start, zone) if after.appointment_start else ""
        match effect["action"]:
            case "cancel_appointment":
                return gettext("I can cancel your %(service)s on %(when)s.") % {
                    "service": service,
                    "when": when,
                }
            case "reschedule_appointment":
                to = local_label(dt.datetime.fromisoformat(effect["start"]), zone)
                return gettext("I can move your %(service)s from %(when)s to %(to)s.") % {
                    "service": service,
                    "when": when,
                    "to": to,
                }
            case _:
                amount = format_price(Price(Decimal(effect["amount"]), currency))
                return gettext("I can refund %(amount)s of your deposit to your card.") % {
                    "amount": amount
                }


def _hold_or_move(view: ConversationView, service: str, start: dt.datetime) -> dict[str, Any]:
    """A time the client named or picked: it moves the booking acted on while the times are for
    moving it (``moving_booking``); else it is held for a new booking."""
    if view.appointment is not None and moving_booking(view):
        move = {"appointment": view.appointment, "start": start.isoformat()}
        return {"action": "reschedule_appointment", **move}
    return {"action": "hold_slot", "service": service, "start": start.isoformat()}


def _moved_to(context: TurnContext, reference: str, service: str) -> list[dict[str, Any]]:
    """A move of the booking ``reference``: to the exact time the client named, else open
    times of its ``service`` on the day or window named (from today when none is)."""
    asked = context.reading.times[0] if context.reading.times else None
    if asked is not None and asked.exact:
        move = {"appointment": reference, "start": asked.start.isoformat()}
        return [{"action": "reschedule_appointment", **move}]
    offer: dict[str, Any] = {"action": "offer_slots", "service": service}
    if asked is not None:
        offer.update(_window(asked, ZoneInfo(context.time_zone)))
    return [offer]


def _service_id(context: TurnContext, name: str) -> str:
    """The business's service by its name, as a command names it (its id; else the name, which
    the gates resolve or refuse)."""
    ids = [service.id for service in context.services if service.name == name]
    return str(ids[0]) if ids else name


def _refund(reference: str, left: Decimal | None, reading: Any) -> dict[str, Any] | None:
    """A refund of what the client named, else of what is left of the deposit; the core's
    policy decides (window, already refunded, the business's maximum). Nothing to propose when
    no deposit was ever paid."""
    named = [money.amount for money in reading.money_back]
    amount = named[0] if named else left
    if amount is None or amount <= 0:
        return None
    return {"action": "refund", "appointment": reference, "amount": f"{amount:.2f}"}


def _window(asked: TimeRequest, zone: ZoneInfo) -> dict[str, str]:
    """The day (and the hours, for less than a whole day) of a time request, as offer_slots
    names them."""
    first = asked.start.astimezone(zone)
    window = {"day": first.date().isoformat()}
    if asked.end - asked.start < WHOLE_DAY:
        last = asked.end.astimezone(zone)
        window["from_time"] = f"{first:%H:%M}"
        window["to_time"] = "23:59" if last.date() != first.date() else f"{last:%H:%M}"
    return window


def _stem(word: str) -> str:
    return word[:4]
