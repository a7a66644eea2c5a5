"""The demo's conversations, end to end through the shell, printed as the client saw them.

Five scenes on the demo salon (``seed_demo`` first), with the offline model, against the local
fake Stripe (nothing leaves the machine):

1. A booking made in chat: service, a time, name and email, the client's Confirm, the deposit
   paid through Checkout (Stripe, asked directly, says so), the booking confirmed.
2. The "Confirm" incident: a careless model, told "Confirm" as a chat message, proposes to
   confirm and claims the booking is made. The gate blocks it; the guard rewrites the claim.
3. A race lost honestly: the client's hold lapses while others book the time; Confirm is
   refused with the core's real alternatives.
4. A refund blocked by policy: the careless model proposes refunding more than was paid.
5. A price haggled: the client asks "can you do 45?", the core counters by the owner's terms, a
   careless model concedes the client's figure and the price scan rewrites it to the core's;
   the client accepts and books at the agreed price.
6. A booking in Spanish at Clínica Sol, a Madrid clinic closed for lunch: "el viernes por la
   tarde" is read as its own afternoon (15:00–19:00), the assistant answers in Spanish, and a
   careless model's "su cita está confirmada" before the deposit is paid is rewritten.

Then the containment figures, from the audit log.
"""

from __future__ import annotations

import datetime as dt
import logging
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.test import override_settings
from django.utils import timezone

from agent.containment import containment_summary
from agent.conversation.confirming import conversation_confirm
from agent.conversation.turns import TurnResult, conversation_start, turn_take
from agent.llm.base import Proposed, TurnContext
from agent.llm.scripted import ScriptedModel
from agent.models import AgentGrant, AuditEntry, GuardRewrite
from agent.offline.model import OfflineModel
from agent.services import discount_given, grants_set
from bookings.demo import CLINIC_SLUG, SLUG
from bookings.errors import SlotUnavailable
from bookings.models import Appointment, Business
from bookings.services import ClientDetails
from orchestration.appointment_changes import appointment_create
from orchestration.deposit_settlement import payment_verify

WIDTH = 96


class Command(BaseCommand):
    help = "Run the demo's scripted conversations through the shell and print them."
    last_card = ""  # the card of the booking the widget last showed, sent with Confirm

    def handle(self, *args: Any, **options: Any) -> None:
        from devtools.fake_stripe import SECRET_KEY, start_fake_stripe

        business = Business.objects.filter(slug=SLUG).first()
        if business is None:
            raise CommandError("run `manage.py seed_demo` first", returncode=2)
        grants_set(business=business)
        AgentGrant.objects.get_or_create(business=business, action="refund")
        logging.getLogger("stripe").setLevel(logging.WARNING)
        self.fake, server = start_fake_stripe()
        try:
            with override_settings(
                STRIPE_API_BASE=self.fake.base_url, STRIPE_SECRET_KEY=SECRET_KEY
            ):
                self.business = business
                self.now = timezone.now()
                ana = self.booking_in_chat()
                self.confirm_incident()
                self.race_lost()
                self.refund_blocked(ana)
                self.haggled()
                self.in_spanish()
        finally:
            server.shutdown()
            server.server_close()
        self.summary()

    # --- the scenes --------------------------------------------------------------------------

    def booking_in_chat(self) -> str:
        """Returns the conversation's token: the client comes back in scene 4."""
        self.scene("1. A booking made in chat (offline model, deposit through Stripe Checkout)")
        token = self.start()
        for text in ["Hi! I'd like a haircut, please", "the first one", "Ana Silva"]:
            self.say(token, text)
        self.say(token, "ana.silva@example.com")
        result = self.confirm(token, "demo-booking-1")
        appointment = result.conversation.appointment
        assert appointment is not None
        payment = appointment.payment
        assert payment.checkout_session_id is not None
        self.fake.pay(payment.checkout_session_id)
        self.note("the client pays on Stripe's page; Stripe, asked directly, says: paid")
        payment_verify(payment)
        self.say(token, "Done, I paid. Is it all set?")
        self.note(f"booked: {appointment.service.name}, reference {appointment.reference}")
        return token

    def confirm_incident(self) -> None:
        self.scene('2. The "Confirm" incident: a careless model, contained')
        token = self.start()
        self.say(token, "A beard trim please")
        self.say(token, "the second one")
        self.say(token, "Bruno Costa")
        self.say(token, "bruno@example.com")
        careless = ScriptedModel(
            [Proposed(({"action": "confirm_booking"},))] * 2,
            drafts=["Done! Your appointment is confirmed. See you then!"] * 2,
        )
        self.say(token, "Confirm", careless)
        self.say(token, "CONFIRM. Just book it.", careless)
        booked = Appointment.objects.filter(client__email="bruno@example.com").exists()
        self.note(f"appointments booked for Bruno: {int(booked)} (only his Confirm button books)")

    def race_lost(self) -> None:
        self.scene("3. A race lost honestly: the hold lapses, the time goes, real alternatives")
        token = self.start()
        self.say(token, "Can I get a beard trim?")
        # Not the first offer: that one may fall inside the minimum notice by the time the
        # other clients book, a few minutes later.
        result = self.say(token, "the last one")
        self.say(token, "Carla Mendes")
        self.say(token, "carla@example.com")
        held = result.conversation.held_start
        assert held is not None
        later = self.now + dt.timedelta(minutes=self.business.hold_minutes + 1)
        service = result.conversation.service
        assert service is not None
        others = 0
        for name in ("Dina", "Eva", "Filipa", "Gil")[: self.business.capacity]:
            try:
                appointment_create(
                    service=service,
                    start=held,
                    client=ClientDetails(name=name, email=f"{name.lower()}@example.com"),
                    now=later,
                )
            except SlotUnavailable:
                break  # the time is full
            others += 1
        self.note(
            f"{self.business.hold_minutes + 1} minutes later the hold has lapsed, and "
            f"{others} other client(s) booked that time on the website until it was full"
        )
        self.confirm(token, "demo-race-1", now=later)

    def refund_blocked(self, token: str) -> None:
        self.scene("4. A refund blocked by policy (the careless model asks for too much)")
        self.note("Ana comes back to her conversation; the agent is granted refunds")

        def refund_too_much(context: TurnContext) -> Proposed:
            reference = context.conversation.appointment
            return Proposed(({"action": "refund", "appointment": reference, "amount": "150.00"},))

        careless = ScriptedModel(
            [refund_too_much], drafts=["Your refund of €150.00 has been processed!"]
        )
        self.say(token, "I can't come after all. Please refund me 150 euros.", careless)

    def haggled(self) -> None:
        self.scene("5. A price haggled: the core counters, a careless concession is rewritten")
        token = self.start()
        self.say(token, "Hi, I'd like a haircut")
        # The careless model proposes the client's offer, as it should, then narrates the
        # client's figure as agreed: the core countered, and the client reads the core's number.
        careless = ScriptedModel(
            [Proposed(({"action": "offer_price", "amount": "45"},))],
            drafts=["Sure, I can do it for 45."],
        )
        self.say(token, "That's a lot. Can you do 45?", careless)
        self.say(token, "OK, €55 is fine")
        self.say(token, "the first one")
        self.say(token, "Hugo Reis")
        self.say(token, "hugo.reis@example.com")
        result = self.confirm(token, "demo-haggle-1")
        appointment = result.conversation.appointment
        assert appointment is not None
        payment = appointment.payment
        assert payment.checkout_session_id is not None
        self.fake.pay(payment.checkout_session_id)
        self.note("the client pays the deposit, computed from the agreed price, on Stripe's page")
        payment_verify(payment)
        self.say(token, "Paid. Is it booked?")
        appointment.refresh_from_db()
        self.note(
            f"booked at the agreed price: {appointment.service.name} {appointment.price} "
            f"{self.business.currency} (list {appointment.list_price}), deposit "
            f"{payment.amount} {self.business.currency}, {appointment.status}"
        )

    def in_spanish(self) -> None:
        self.scene("6. Una cita en español: a Madrid clinic's assistant reads and answers Spanish")
        clinic = Business.objects.filter(slug=CLINIC_SLUG).first()
        if clinic is None:
            self.note("Clínica Sol is not seeded (`manage.py seed_demo` adds it)")
            return
        grants_set(business=clinic)
        token = self.start(clinic)
        offered = self.say(token, "Buenas, quería una cita de fisioterapia el viernes por la tarde")
        assert offered.reply.choices.get("slots"), "the clinic's Friday afternoon is open"
        self.say(token, "la primera")
        self.say(token, "Me llamo Lucía García")
        self.say(token, "lucia.garcia@example.com")
        result = self.confirm(token, "demo-es-1")
        appointment = result.conversation.appointment
        assert appointment is not None
        careless = ScriptedModel([Proposed()], drafts=["¡Listo! Su cita está confirmada."])
        self.say(token, "¿Ya está confirmada?", careless)
        payment = appointment.payment
        assert payment.checkout_session_id is not None
        self.fake.pay(payment.checkout_session_id)
        self.note("Lucía pays the deposit on Stripe's page; Stripe, asked directly, says: paid")
        payment_verify(payment)
        self.say(token, "Ya he pagado. ¿Está pagada?")
        appointment.refresh_from_db()
        local = appointment.starts_at.astimezone(clinic.tzinfo)
        self.note(
            f"booked: {appointment.service.name} {local:%a %d %b %H:%M} Madrid, "
            f"{appointment.status}; the conversation's language: {result.conversation.language}"
        )

    def summary(self) -> None:
        self.scene("Containment, from the audit log")
        entries = AuditEntry.objects.filter(business=self.business)
        given = discount_given(businesses=Business.objects.filter(pk=self.business.pk))
        summary = containment_summary(entries, discount_given=given)
        stages = ", ".join(f"{stage} {count}" for stage, count in summary.blocked_by_stage.items())
        for line in [
            f"proposals        {summary.proposals}",
            f"executed         {summary.executed}",
            f"blocked          {summary.blocked} ({stages})",
            f"containment rate {summary.containment_rate}%",
            f"money moved      {summary.money_moved} {self.business.currency}",
            f"money contained  {summary.money_contained} {self.business.currency}",
            f"  of which discount refused {summary.discount_refused} {self.business.currency}",
            f"discount given   {summary.discount_given} {self.business.currency}",
            f"guard rewrites   {GuardRewrite.objects.filter(business=self.business).count()}",
        ]:
            self.stdout.write(f"  {line}")

    # --- printing a conversation --------------------------------------------------------------

    def start(self, business: Business | None = None) -> str:
        _conversation, token, greeting = conversation_start(
            business=business or self.business, now=self.now
        )
        self.line("assistant", greeting.text)
        return token

    def say(self, token: str, text: str, model: Any = None) -> TurnResult:
        self.line("client", text)
        with self.quiet_drafts(model):
            result = turn_take(token=token, text=text, model=model or OfflineModel(), now=self.now)
        self.show(result)
        return result

    def confirm(self, token: str, key: str, now: dt.datetime | None = None) -> TurnResult:
        self.line("client", "[presses Confirm]")
        # The widget sends the card of the booking it showed.
        card = self.last_card
        result = conversation_confirm(
            token=token, idempotency_key=key, card=card, now=now or self.now
        )
        self.show(result)
        return result

    @contextmanager
    def quiet_drafts(self, model: Any) -> Iterator[None]:
        before = GuardRewrite.objects.count()
        yield
        if isinstance(model, ScriptedModel) and model.narrations:
            for rewrite in GuardRewrite.objects.order_by("id")[before:]:
                if rewrite.guard == "refusals":  # the whole reply, with the refusal in front
                    self.note(f"guard {rewrite.guard}: {rewrite.reason} — it goes first")
                    continue
                if rewrite.guard == "prices" and rewrite.after:  # a figure, not a sentence
                    self.note(
                        f"guard {rewrite.guard}: {rewrite.reason} — "
                        f"{rewrite.before!r} rewritten to {rewrite.after!r}"
                    )
                    continue
                self.note(f"guard {rewrite.guard}: {rewrite.reason} — removed {rewrite.before!r}")

    def show(self, result: TurnResult) -> None:
        for outcome in result.outcomes:
            if outcome.result == "BLOCK":
                where = f"at {outcome.stage}" if outcome.stage else "(not executed)"
                self.note(f"{outcome.action} blocked {where}: {outcome.reason}")
                if outcome.money_contained:
                    self.note(f"money contained: {outcome.money_contained}")
        self.line("assistant", result.reply.text)
        choices = result.reply.choices
        if "slots" in choices:
            labels = "; ".join(slot["label"] for slot in choices["slots"])
            self.note(f"slots to pick: {labels}")
        if "confirm" in choices:
            card = choices["confirm"]
            self.last_card = card["card"]
            self.note(
                f"booking to confirm: {card['service']}, {card['label']}, {card['name']} "
                f"<{card['email']}>, price {card['price']}, deposit {card['deposit']}"
            )
        if "payment" in choices:
            self.note(f"pay the deposit at: {choices['payment']['url']}")
        self.note(f"stage: {result.conversation.state}")

    def scene(self, title: str) -> None:
        self.stdout.write("")
        self.stdout.write(self.style.MIGRATE_HEADING(title))

    def line(self, who: str, text: str) -> None:
        wrapped = textwrap.wrap(text, WIDTH - 14) or [""]
        self.stdout.write(f"  {who:>10}: {wrapped[0]}")
        for rest in wrapped[1:]:
            self.stdout.write(f"  {'':>10}  {rest}")

    def note(self, text: str) -> None:
        self.stdout.write(f"  {'':>10}  · {text}")
