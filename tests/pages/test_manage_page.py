"""The client's appointment page, /manage/<token>/, as a browser without script meets it:
the appointment in the business's zone and words, cancel through a confirmation step, move
through a picker of the core's open times, the .ics, the terms — and what the token must never
do: leak (headers, links), answer differently when unknown or expired, or change anything on a
GET. Built through the real booking and payment services (the local fake Stripe for deposits).
"""

import datetime as dt
import re
from decimal import Decimal
from html.parser import HTMLParser
from urllib.parse import urlsplit

import icalendar
import pytest
import time_machine
from django.test import Client as HttpClient

from bench.harness import open_salon
from bookings.actors import Actor
from bookings.models import (
    Appointment,
    AppointmentEvent,
    AppointmentEventKind,
    AppointmentStatus,
    Role,
)
from bookings.selectors import open_slots_for
from bookings.services import (
    ClientDetails,
    appointment_cancel,
    appointment_create,
    appointment_record_outcome,
    appointment_reschedule,
)
from bookings.tokens import manage_url
from payments.models import Payment, PaymentStatus
from payments.services import apply_payment_facts
from payments.services.refunds import RefundRefused
from tests.bookings.conftest import WEDNESDAY, lisbon
from tests.factories import ServiceFactory, owner_of
from tests.payments.test_refunds import deposit_booked, refund

TEN_AM = lisbon(WEDNESDAY, "10:00")
TWO_PM = lisbon(WEDNESDAY, "14:00")
UNKNOWN = "A" * 43  # the shape of a real token


@pytest.fixture
def browser() -> HttpClient:
    return HttpClient()


def booked(service, start=TEN_AM, **options) -> tuple[Appointment, str]:
    """An appointment booked through the core, and the path of its manage link."""
    outcome = appointment_create(
        service=service,
        start=start,
        client=ClientDetails(name="Ana Silva", email="ana@example.com"),
        **options,
    )
    return outcome.appointment, urlsplit(manage_url(outcome.appointment.public_id)).path


@pytest.fixture
def ana(salon, haircut, frozen_now) -> tuple[Appointment, str]:
    """Ana's haircut on Wednesday 10:00 in Lisbon, no deposit."""
    return booked(haircut)


def path_of(payment: Payment) -> str:
    return urlsplit(manage_url(payment.appointment.public_id)).path


def text_of(response) -> str:
    """The page's words as a reader gets them: tags dropped, whitespace collapsed."""
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


class Controls(HTMLParser):
    """The forms, buttons and links of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.forms: list[dict[str, str]] = []
        self.buttons: list[dict[str, str]] = []

    def handle_starttag(self, tag, attrs) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "a":
            self.links.append(found.get("href", ""))
        elif tag == "form":
            self.forms.append(found)
        elif tag == "button":
            self.buttons.append(found)


def controls(response) -> Controls:
    parsed = Controls()
    parsed.feed(response.content.decode())
    return parsed


def history(appointment: Appointment) -> list[str]:
    return list(
        AppointmentEvent.objects.filter(appointment=appointment)
        .order_by("id")
        .values_list("kind", flat=True)
    )


# --- the page ---------------------------------------------------------------------------------


def test_the_page_shows_the_appointment_in_the_businesss_zone_and_words(browser, db, frozen_now):
    business = open_salon(name="Studio Lumen", time_zone="America/New_York", capacity=1)
    service = ServiceFactory(business=business, name="Colour", duration_minutes=60)
    # 15:00 UTC is 10:00 in New York on 2 December
    _, path = booked(service, start=dt.datetime(2026, 12, 2, 15, tzinfo=dt.UTC))

    response = browser.get(path)

    assert response.status_code == 200
    words = text_of(response)
    assert "Studio Lumen" in words
    assert "Colour" in words
    assert "Wednesday 2 December 2026, 10:00–11:00 (America/New_York)" in words
    assert "Confirmed" in words
    assert "€60.00" in words
    assert "No deposit: nothing was paid in advance." in words
    assert '<html lang="en">' in response.content.decode()


def test_a_changeable_appointment_offers_move_cancel_and_calendar(browser, ana):
    _, path = ana

    links = controls(browser.get(path)).links

    assert f"{path}reschedule/" in links
    assert f"{path}cancel/" in links
    assert f"{path}calendar.ics" in links


# Every status, with the payment that goes with it, in words: (status words, payment words).
STATES = {
    "no deposit": ("Confirmed", "No deposit: nothing was paid in advance."),
    "deposit due": (
        "Awaiting deposit",
        "Deposit of €12.00 not paid yet: due by 08:30 on Monday 30 November 2026.",
    ),
    "deposit paid": ("Confirmed", "Deposit of €12.00 paid."),
    "partly refunded": ("Confirmed", "Deposit of €12.00 paid; €5.00 of it refunded."),
    "refunded": ("Confirmed", "Deposit of €12.00 paid and refunded in full."),
    "cancelled, paid": ("Cancelled", "Deposit of €12.00 paid."),
    "released": (
        "Released: the deposit was not paid in time",
        "Deposit of €12.00 not paid in time.",
    ),
    "payment failed": (
        "Released: the deposit was not paid in time",
        "The payment of the €12.00 deposit failed.",
    ),
    "attended, paid": ("Attended", "Deposit of €12.00 paid."),
    "no-show": ("Missed (no-show)", "No deposit: nothing was paid in advance."),
}
DURING_THE_VISIT = TEN_AM + dt.timedelta(minutes=30)


def in_state(state: str, fake_stripe, salon, haircut) -> tuple[str, dt.datetime]:
    """The manage path of an appointment brought into ``state`` through the real services,
    and the moment to look at it."""
    now = dt.datetime.now(dt.UTC)
    if state in ("no deposit", "no-show"):
        appointment, path = booked(haircut)
    else:
        payment = deposit_booked(
            fake_stripe,
            salon,
            haircut,
            paid=state not in ("deposit due", "released", "payment failed"),
        )
        if state == "released":
            payment = apply_payment_facts(payment, source=Actor.system(), expired_at=now)
        elif state == "payment failed":
            payment = apply_payment_facts(payment, source=Actor.payments(), failed_at=now)
        elif state == "partly refunded":
            refund(payment, "5.00")
        elif state == "refunded":
            refund(payment, "12.00")
        elif state == "cancelled, paid":
            appointment_cancel(appointment=payment.appointment)
        appointment, path = payment.appointment, path_of(payment)
    if state in ("attended, paid", "no-show"):
        owner = Actor.of_user(owner_of(salon), Role.OWNER)
        outcome = "attended" if state == "attended, paid" else "no_show"
        appointment_record_outcome(
            appointment=appointment, outcome=outcome, actor=owner, now=DURING_THE_VISIT
        )
        return path, DURING_THE_VISIT
    return path, now


@pytest.mark.parametrize("state", STATES)
def test_every_status_and_payment_is_told_in_words(
    browser, fake_stripe, salon, haircut, frozen_now, state
):
    path, moment = in_state(state, fake_stripe, salon, haircut)

    with time_machine.travel(moment, tick=False):
        response = browser.get(path)

    assert response.status_code == 200
    status_words, payment_words = STATES[state]
    words = text_of(response)
    assert f"Status {status_words} " in words
    assert f"Payment {payment_words} " in words


# Why a state offers no cancel or move, as the page says it.
WHY_UNCHANGEABLE = {
    "cancelled, paid": "This appointment is cancelled.",
    "released": "This appointment was released because its deposit was not paid in time.",
    "attended, paid": "This appointment has taken place, so it can no longer be moved",
    "no-show": "This appointment was missed, so it can no longer be moved",
}


@pytest.mark.parametrize("state", WHY_UNCHANGEABLE)
def test_a_cancelled_past_or_released_appointment_offers_no_cancel_or_move_and_says_why(
    browser, fake_stripe, salon, haircut, frozen_now, state
):
    path, moment = in_state(state, fake_stripe, salon, haircut)

    with time_machine.travel(moment, tick=False):
        response = browser.get(path)

    links = controls(response).links
    assert f"{path}cancel/" not in links
    assert f"{path}reschedule/" not in links
    assert f"{path}calendar.ics" in links
    assert WHY_UNCHANGEABLE[state] in text_of(response)


def test_an_appointment_that_has_started_offers_no_cancel_or_move(browser, ana):
    _, path = ana

    with time_machine.travel(DURING_THE_VISIT, tick=False):
        response = browser.get(path)

    assert "has started, so it can no longer be moved or cancelled" in text_of(response)
    assert f"{path}cancel/" not in controls(response).links


def test_a_started_appointment_refuses_a_cancel_or_move_sent_anyway_and_says_why(browser, ana):
    appointment, path = ana

    with time_machine.travel(DURING_THE_VISIT, tick=False):
        answers = [
            browser.get(f"{path}cancel/"),
            browser.post(f"{path}cancel/"),
            browser.get(f"{path}reschedule/"),
            browser.post(f"{path}reschedule/", {"start": TWO_PM.isoformat()}),
        ]
        page = browser.get(f"{path}?done=not_changeable")

    assert [answer.status_code for answer in answers] == [303] * 4
    assert {answer["Location"] for answer in answers} == {f"{path}?done=not_changeable"}
    words = text_of(page)
    assert "This appointment can no longer be moved or cancelled." in words
    assert "This appointment has started, so it can no longer be moved or cancelled." in words
    appointment.refresh_from_db()
    assert (appointment.status, appointment.starts_at) == (AppointmentStatus.CONFIRMED, TEN_AM)
    assert history(appointment) == [AppointmentEventKind.CREATED]


def test_a_deposit_still_due_can_be_paid_from_the_page_without_the_token(
    browser, fake_stripe, salon, haircut, frozen_now
):
    payment = deposit_booked(fake_stripe, salon, haircut, paid=False)

    response = browser.get(path_of(payment))

    assert payment.checkout_url in controls(response).links
    assert "Pay the deposit" in text_of(response)


def test_no_link_to_another_site_carries_the_token(
    browser, fake_stripe, salon, haircut, frozen_now
):
    payment = deposit_booked(fake_stripe, salon, haircut, paid=False)
    path = path_of(payment)
    token = path.split("/")[2]
    pages = [path, f"{path}cancel/", f"{path}reschedule/"]

    for page in pages:
        page_controls = controls(browser.get(page))
        targets = page_controls.links + [form.get("action", "") for form in page_controls.forms]
        elsewhere = [url for url in targets if urlsplit(url).netloc]

        assert set(elsewhere) <= {payment.checkout_url}, page
        assert not [url for url in elsewhere if token in url], page


def test_stripe_sends_the_client_back_to_pages_that_exist(
    browser, fake_stripe, salon, haircut, frozen_now
):
    deposit_booked(fake_stripe, salon, haircut, paid=False)
    [session] = [
        request["form"]
        for request in fake_stripe.requests
        if request["method"] == "POST" and request["path"] == "/v1/checkout/sessions"
    ]

    for url in (session["success_url"], session["cancel_url"]):
        address = urlsplit(url)
        response = browser.get(f"{address.path}?{address.query}")

        assert response.status_code == 200, url


# --- the same 404 for every key that opens nothing --------------------------------------------


def every_path(token: str) -> list[tuple[str, str]]:
    base = f"/manage/{token}/"
    return [
        ("get", base),
        ("get", f"{base}cancel/"),
        ("post", f"{base}cancel/"),
        ("get", f"{base}reschedule/"),
        ("post", f"{base}reschedule/"),
        ("get", f"{base}calendar.ics"),
    ]


@pytest.mark.parametrize(
    "token",
    [UNKNOWN, "not-a-token", "x" * 5000, "%00" * 20, "%F0%9F%98%80" * 20, "..", "a%2Fb"],
)
def test_unknown_and_malformed_tokens_answer_the_one_404_page(browser, ana, token):
    reference = browser.get(f"/manage/{UNKNOWN}/")

    for method, path in every_path(token):
        response = getattr(browser, method)(path)

        assert response.status_code == 404, path
        assert response.content == reference.content, path
    assert "This page could not be found" in text_of(reference)


def test_an_expired_token_answers_exactly_like_an_unknown_one(browser, ana):
    appointment, path = ana
    token = path.split("/")[2]
    reference = browser.get(f"/manage/{UNKNOWN}/").content

    # the link expires when the appointment ends
    with time_machine.travel(appointment.ends_at, tick=False):
        for method, expired_path in every_path(token):
            response = getattr(browser, method)(expired_path, {"start": TWO_PM.isoformat()})

            assert response.status_code == 404
            assert response.content == reference
            assert "no-store" in response["Cache-Control"]
            assert response["Referrer-Policy"] == "no-referrer"
    assert Appointment.objects.get().status == AppointmentStatus.CONFIRMED
    assert history(appointment) == [AppointmentEventKind.CREATED]


def test_another_path_under_the_token_is_the_same_404(browser, ana):
    _, path = ana
    reference = browser.get(f"/manage/{UNKNOWN}/").content

    for extra in ("nonsense", "cancel/extra/", "calendar.ics/x"):
        response = browser.get(f"{path}{extra}")

        assert response.status_code == 404
        assert response.content == reference


def test_a_link_missing_its_last_slash_is_sent_to_the_page(browser, ana):
    _, path = ana

    response = browser.get(path.rstrip("/"))

    assert response.status_code == 302
    assert response["Location"] == path
    assert "no-store" in response["Cache-Control"]


# --- what no answer may let out ---------------------------------------------------------------


def test_every_answer_is_unstored_unreferred_and_unframable(browser, ana):
    appointment, path = ana
    taken, _ = booked(appointment.service, start=TWO_PM)
    answers = {
        "page": browser.get(path),
        "page after a change": browser.get(f"{path}?done=moved"),
        "cancel step": browser.get(f"{path}cancel/"),
        "picker": browser.get(f"{path}reschedule/"),
        "picker, bad day": browser.get(f"{path}reschedule/", {"day": "soon"}),
        "move refused": browser.post(f"{path}reschedule/", {"start": taken.starts_at.isoformat()}),
        "move unreadable": browser.post(f"{path}reschedule/", {"start": "noon"}),
        "moved": browser.post(
            f"{path}reschedule/", {"start": lisbon(WEDNESDAY, "11:00").isoformat()}
        ),
        "calendar": browser.get(f"{path}calendar.ics"),
        "cancelled": browser.post(f"{path}cancel/"),
        "cancelled again": browser.post(f"{path}cancel/"),
        "wrong method": browser.put(f"{path}cancel/"),
        "unknown token": browser.get(f"/manage/{UNKNOWN}/"),
        "another path": browser.get(f"{path}nonsense"),
    }

    assert {name: answer.status_code for name, answer in answers.items()} == {
        "page": 200,
        "page after a change": 200,
        "cancel step": 200,
        "picker": 200,
        "picker, bad day": 400,
        "move refused": 409,
        "move unreadable": 400,
        "moved": 303,
        "calendar": 200,
        "cancelled": 303,
        "cancelled again": 303,
        "wrong method": 405,
        "unknown token": 404,
        "another path": 404,
    }
    for name, answer in answers.items():
        assert "no-store" in answer["Cache-Control"], name
        assert answer["Referrer-Policy"] == "no-referrer", name
        assert answer["X-Frame-Options"] == "DENY", name
        assert not answer.cookies, name


# --- a GET changes nothing ------------------------------------------------------------------


def test_no_get_changes_the_appointment(browser, ana):
    appointment, path = ana
    before = Appointment.objects.values().get(pk=appointment.pk)

    for page in (
        path,
        f"{path}?done=cancelled",
        f"{path}cancel/",
        f"{path}cancel/?confirm=yes",
        f"{path}reschedule/",
        f"{path}reschedule/?start={TWO_PM.isoformat()}",
        f"{path}calendar.ics",
    ):
        assert browser.get(page).status_code == 200, page
        assert browser.head(page).status_code == 200, page

    assert Appointment.objects.values().get(pk=appointment.pk) == before
    assert history(appointment) == [AppointmentEventKind.CREATED]


# --- cancel -----------------------------------------------------------------------------------


def test_cancelling_goes_through_a_step_that_says_what_happens_then_a_post(browser, ana):
    appointment, path = ana

    step = browser.get(f"{path}cancel/")
    [form] = [form for form in controls(step).forms if form.get("method") == "post"]
    done = browser.post(form["action"])

    words = text_of(step)
    assert "Cancel this appointment?" in words
    assert "is cancelled at once, and its time is offered to others" in words
    assert "Nothing was paid in advance, so there is nothing to refund." in words
    assert done.status_code == 303
    assert done["Location"] == f"{path}?done=cancelled"
    appointment.refresh_from_db()
    assert appointment.status == AppointmentStatus.CANCELLED
    page = browser.get(done["Location"])
    assert "Your appointment is cancelled." in text_of(page)
    assert "Status Cancelled " in text_of(page)


def test_cancelling_twice_is_harmless_and_says_it_was_already_cancelled(browser, ana):
    appointment, path = ana

    first = browser.post(f"{path}cancel/")
    second = browser.post(f"{path}cancel/")
    step_after = browser.get(f"{path}cancel/")

    assert first["Location"] == f"{path}?done=cancelled"
    assert second.status_code == 303
    assert second["Location"] == f"{path}?done=already_cancelled"
    assert step_after["Location"] == f"{path}?done=already_cancelled"
    assert "This appointment was already cancelled." in text_of(browser.get(second["Location"]))
    assert history(appointment).count(AppointmentEventKind.CANCELLED) == 1


def test_cancelling_frees_the_time_for_others(browser, ana):
    appointment, path = ana

    browser.post(f"{path}cancel/")

    open_starts = [
        slot.start
        for slot in open_slots_for(
            appointment.service,
            first_day=WEDNESDAY,
            last_day=WEDNESDAY,
            now=dt.datetime.now(dt.UTC),
        )
    ]
    assert TEN_AM in open_starts


def test_a_paid_deposit_is_said_to_stay_with_the_business_and_it_does(
    browser, fake_stripe, salon, haircut, frozen_now
):
    payment = deposit_booked(fake_stripe, salon, haircut)
    path = path_of(payment)

    step = browser.get(f"{path}cancel/")
    browser.post(f"{path}cancel/")

    assert (
        "Cancelling does not refund your deposit: the €12.00 stays with "
        f"{salon.name}. Under its refund policy, {salon.name} can refund up to €12.00 of it "
        f"until 11:00 on Friday 1 January 2027; ask {salon.name} if you want it back."
    ) in text_of(step)
    # what the step said is what happened: cancelled, the deposit kept
    payment.refresh_from_db()
    assert payment.appointment.status == AppointmentStatus.CANCELLED
    assert (payment.status, payment.amount_refunded) == (PaymentStatus.PAID, Decimal("0"))
    assert not [r for r in fake_stripe.requests if r["path"] == "/v1/refunds"]


def test_a_deposit_the_policy_does_not_refund_is_said_to_be_not_refundable(
    browser, fake_stripe, salon, haircut, frozen_now
):
    salon.max_refund = Decimal("0")
    salon.save()
    payment = deposit_booked(fake_stripe, salon, haircut)

    step = browser.get(f"{path_of(payment)}cancel/")

    words = text_of(step)
    assert (
        f"Your deposit is not refundable: {salon.name} keeps the €12.00 when you cancel." in words
    )
    assert f"{salon.name} does not refund deposits." in words


def test_the_refund_the_step_names_is_capped_by_the_businesss_maximum(
    browser, fake_stripe, salon, haircut, frozen_now
):
    salon.max_refund = Decimal("10.00")
    salon.save()
    payment = deposit_booked(fake_stripe, salon, haircut)

    words = text_of(browser.get(f"{path_of(payment)}cancel/"))

    assert "can refund up to €10.00 of it until" in words
    assert "can refund a deposit until 30 days after the visit, at most €10.00." in words


PROMISED_REFUND = re.compile(
    r"can refund up to €(?P<amount>[0-9.]+) of it until (?P<time>[0-9:]+) on (?P<day>[^;]+);"
)


def test_the_refund_the_step_promises_is_exactly_what_the_refund_policy_lets_out(
    browser, fake_stripe, salon, haircut, frozen_now
):
    salon.max_refund = Decimal("10.00")
    salon.save()
    payment = deposit_booked(fake_stripe, salon, haircut)
    path = path_of(payment)

    promised = PROMISED_REFUND.search(text_of(browser.get(f"{path}cancel/")))
    browser.post(f"{path}cancel/")

    # read back as the client would: that much, until that moment (in the business's zone)
    assert promised is not None
    amount = Decimal(promised["amount"])
    deadline = dt.datetime.strptime(
        f"{promised['day']} {promised['time']}", "%A %d %B %Y %H:%M"
    ).replace(tzinfo=salon.tzinfo)
    with time_machine.travel(deadline, tick=False):
        with pytest.raises(RefundRefused, match="maximum refund"):
            refund(payment, str(amount + Decimal("0.01")))
        assert refund(payment, str(amount)).amount == amount
    with (
        time_machine.travel(deadline + dt.timedelta(minutes=1), tick=False),
        pytest.raises(RefundRefused, match="refund window"),
    ):
        refund(payment, "0.01")


def test_a_deposit_not_yet_paid_is_said_to_need_no_refund(
    browser, fake_stripe, salon, haircut, frozen_now
):
    payment = deposit_booked(fake_stripe, salon, haircut, paid=False)

    words = text_of(browser.get(f"{path_of(payment)}cancel/"))

    assert (
        "Your €12.00 deposit has not been paid, so there is nothing to refund; "
        "do not pay it after cancelling."
    ) in words


# --- reschedule -------------------------------------------------------------------------------


def slot_values(response) -> list[str]:
    return [
        button["value"] for button in controls(response).buttons if button.get("name") == "start"
    ]


def test_the_picker_offers_the_cores_open_times_of_the_day_but_the_current_one(browser, ana):
    appointment, path = ana
    booked(appointment.service, start=TWO_PM)  # someone else's

    response = browser.get(f"{path}reschedule/")

    expected = [
        slot.start.isoformat()
        for slot in open_slots_for(
            appointment.service,
            first_day=WEDNESDAY,
            last_day=WEDNESDAY,
            now=dt.datetime.now(dt.UTC),
            excluding_appointment=appointment.pk,
        )
        if slot.start != TEN_AM
    ]
    offered = slot_values(response)
    assert offered == expected
    assert TWO_PM.isoformat() not in offered
    assert TEN_AM.isoformat() not in offered
    assert "10:00 (current time)" in text_of(response)
    assert "Open times on Wednesday 2 December 2026" in text_of(response)


def test_the_picker_walks_day_by_day_within_the_booking_horizon(browser, ana, salon):
    _, path = ana

    wednesday = controls(browser.get(f"{path}reschedule/")).links
    today = controls(browser.get(f"{path}reschedule/", {"day": "2026-11-30"})).links
    last = controls(browser.get(f"{path}reschedule/", {"day": "2026-12-30"})).links

    assert f"{path}reschedule/?day=2026-12-01" in wednesday
    assert f"{path}reschedule/?day=2026-12-03" in wednesday
    assert not any("day=2026-11-29" in link for link in today)
    assert not any("day=2026-12-31" in link for link in last)  # horizon: 30 days


@pytest.mark.parametrize(
    ("day", "message"),
    [
        ("soon", "That day could not be read"),
        ("2026-02-30", "That day could not be read"),
        ("2026-11-01", "That day has passed"),
        ("2027-06-01", "further ahead than bookings are taken"),
    ],
)
def test_a_day_that_cannot_be_shown_is_said_so(browser, ana, day, message):
    _, path = ana

    response = browser.get(f"{path}reschedule/", {"day": day})

    assert response.status_code == 400
    assert message in text_of(response)


def test_moving_through_the_picker_moves_the_appointment(browser, ana):
    appointment, path = ana
    picker = browser.get(f"{path}reschedule/")
    eleven = lisbon(WEDNESDAY, "11:00").isoformat()
    assert eleven in slot_values(picker)

    done = browser.post(f"{path}reschedule/", {"start": eleven})

    assert done.status_code == 303
    assert done["Location"] == f"{path}?done=moved"
    appointment.refresh_from_db()
    assert appointment.starts_at == lisbon(WEDNESDAY, "11:00")
    assert "Wednesday 2 December 2026, 11:00–12:00 (Europe/Lisbon)" in text_of(
        browser.get(done["Location"])
    )
    assert history(appointment) == [AppointmentEventKind.CREATED, AppointmentEventKind.RESCHEDULED]


def test_a_time_taken_meanwhile_shows_the_picker_again_with_fresh_alternatives(browser, ana):
    appointment, path = ana
    picker = browser.get(f"{path}reschedule/")
    assert TWO_PM.isoformat() in slot_values(picker)
    booked(appointment.service, start=TWO_PM)  # another client is faster

    response = browser.post(f"{path}reschedule/", {"start": TWO_PM.isoformat()})

    assert response.status_code == 409
    words = text_of(response)
    assert "That time is not open any more (someone may have just taken it)" in words
    assert "The nearest open times" in words
    offered = slot_values(response)
    assert TWO_PM.isoformat() not in offered
    assert lisbon(WEDNESDAY, "13:00").isoformat() in offered  # the nearest, still open
    appointment.refresh_from_db()
    assert appointment.starts_at == TEN_AM


@pytest.mark.parametrize(
    "start",
    ["", "noon", "2026-12-02T14:00:00", "2026-12-02 14:00", "9" * 5000, "2026-12-02T14:00:00\x00Z"],
)
def test_an_unreadable_start_is_a_clear_400_and_moves_nothing(browser, ana, start):
    appointment, path = ana

    response = browser.post(f"{path}reschedule/", {"start": start})

    assert response.status_code == 400
    assert "That time could not be read" in text_of(response)
    appointment.refresh_from_db()
    assert appointment.starts_at == TEN_AM


def test_a_start_outside_the_open_times_is_refused_with_the_picker(browser, ana):
    appointment, path = ana

    for start in ("2026-12-02T03:00:00+00:00", "2999-01-01T10:00:00+00:00", "2026-11-30T08:30:00Z"):
        response = browser.post(f"{path}reschedule/", {"start": start})

        assert response.status_code == 409, start
        assert "That time is not open any more" in text_of(response)
    appointment.refresh_from_db()
    assert appointment.starts_at == TEN_AM


def test_moving_to_its_own_time_changes_nothing(browser, ana):
    appointment, path = ana

    response = browser.post(f"{path}reschedule/", {"start": TEN_AM.isoformat()})

    assert response["Location"] == f"{path}?done=unchanged"
    assert history(appointment) == [AppointmentEventKind.CREATED]


def test_a_cancelled_appointment_cannot_be_moved_from_a_stale_picker(browser, ana):
    appointment, path = ana
    browser.post(f"{path}cancel/")

    response = browser.post(f"{path}reschedule/", {"start": TWO_PM.isoformat()})

    assert response["Location"] == f"{path}?done=already_cancelled"
    appointment.refresh_from_db()
    assert (appointment.status, appointment.starts_at) == (AppointmentStatus.CANCELLED, TEN_AM)


# --- add to calendar --------------------------------------------------------------------------


def calendar_event(browser, path) -> icalendar.Event:
    response = browser.get(f"{path}calendar.ics")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment; filename=")
    calendar = icalendar.Calendar.from_ical(response.content)
    [event] = calendar.walk("VEVENT")
    return event


def test_the_calendar_file_holds_the_appointment(browser, ana, salon):
    appointment, path = ana

    event = calendar_event(browser, path)

    assert event.decoded("DTSTART") == TEN_AM
    assert event.decoded("DTEND") == TEN_AM + dt.timedelta(hours=1)
    assert event.decoded("DTSTART").utcoffset() == dt.timedelta(0)
    assert str(event["SUMMARY"]) == f"Haircut — {salon.name}"
    assert str(event["URL"]) == manage_url(appointment.public_id)
    assert str(event["STATUS"]) == "CONFIRMED"
    assert event["SEQUENCE"] == 0
    assert "Wednesday 2 December 2026, 10:00–11:00 (Europe/Lisbon)" in str(event["DESCRIPTION"])


def test_the_calendar_event_keeps_its_uid_and_counts_changes_up_to_cancelled(browser, ana):
    appointment, path = ana
    first = calendar_event(browser, path)

    appointment_reschedule(appointment=appointment, new_start=TWO_PM)
    moved = calendar_event(browser, path)
    appointment_cancel(appointment=appointment)
    cancelled = calendar_event(browser, path)

    assert str(first["UID"]) == str(moved["UID"]) == str(cancelled["UID"])
    assert [first["SEQUENCE"], moved["SEQUENCE"], cancelled["SEQUENCE"]] == [0, 1, 2]
    assert moved.decoded("DTSTART") == TWO_PM
    assert str(cancelled["STATUS"]) == "CANCELLED"
