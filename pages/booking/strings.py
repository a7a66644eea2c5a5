"""The words of the booking page's script, translated in the business's language when the page
is rendered and handed to the script in a JSON block: the script has no words of its own.

``{name}`` marks a value the script fills in (a time, an amount); keep them in translations.
"""

from babel.dates import get_month_names
from django.utils.dates import MONTHS, WEEKDAYS, WEEKDAYS_ABBR
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ordina.locales import babel_locale


def progress_steps() -> list[tuple[str, str]]:
    """The steps of a booking, in order, as the progress indicator names them."""
    return [
        ("service", pgettext("booking step", "Service")),
        ("time", pgettext("booking step", "Time")),
        ("details", pgettext("booking step", "Details")),
        ("deposit", pgettext("booking step", "Deposit")),
        ("confirmed", pgettext("booking step", "Confirmed")),
    ]


def script_strings() -> dict[str, object]:
    return {
        # who wrote each message
        "you": _("You"),
        "assistant": _("Assistant"),
        "staff": _("{business} team (a person)"),
        "sending": _("Sending…"),
        # what a reply offers
        "services": _("Services"),
        "minutes": _("{minutes} min"),
        "money": _("{amount} {currency}"),
        "timesOffered": _("Times offered"),
        "day": _("Days with open times"),
        "dayAtTime": _("{day} at {time}"),
        "dayLong": _("{weekday} {day} {month}"),
        "dayShort": pgettext("a day on a button", "{day} {month}"),
        "calendar": calendar_names(),
        "checkAndConfirm": _("Check and confirm"),
        "service": _("Service"),
        "when": _("When"),
        "price": _("Price"),
        "deposit": _("Deposit"),
        "depositNow": _("{amount}, paid now"),
        "name": _("Name"),
        "email": _("Email"),
        "phone": _("Phone"),
        "reference": _("Reference"),
        "confirm": _("Confirm booking"),
        "confirmAndPay": _("Confirm and pay the deposit"),
        "heldUntil": _("This time is held for you until {time}."),
        "depositAsked": _("Deposit asked: {amount}"),
        "bookedFor": _("Booked: {service}, {label}"),
        # the stage
        "stepDone": _("(done)"),
        "stepCurrent": _("(current step)"),
        "depositTitle": _("Pay the deposit"),
        "depositDue": _("A deposit of {amount} secures your booking."),
        "payBy": _("Please pay by {time}; until then the time is kept for you."),
        "payDeposit": _("Pay the deposit"),
        "waitingForPayment": _(
            "Thank you. We are waiting for the payment to be confirmed; this page updates "
            "by itself."
        ),
        "paymentCancelled": _(
            "The payment was cancelled, so your booking is not complete. You can pay the "
            "deposit again."
        ),
        "paidElsewhere": _(
            "If you have just paid a deposit, your booking is confirmed by email as soon as "
            "the payment arrives."
        ),
        "bookingConfirmed": _("Your booking is confirmed"),
        "addToCalendar": _("Add to calendar"),
        "manage": _("See, move or cancel it"),
        "escalated": _(
            "A person from the team has this conversation and will reply here. You can keep "
            "writing."
        ),
        "cancelled": _("This booking is cancelled. Start over to book again."),
        "expired": _("This conversation has expired. Start over to book."),
        # a returning client proves who they are (the form's own labels are in the page)
        "verifySent": _(
            "If {email} is the address you booked with here, we sent a {digits}-digit code "
            "to it. Type it below within {minutes} minutes."
        ),
        "verifyEmailNeeded": _("Write the email address you booked with."),
        "verifyCodeNeeded": _("Type the code from the email."),
        "verified": _(
            "You are verified as {name} ({email}). Ask the assistant about your bookings "
            "here: for example, “move my appointment”."
        ),
        "verifiedByLink": _(
            "This chat was opened from your appointment's page, so the assistant can act on that "
            "appointment. Ask about it: for example, “move my appointment”."
        ),
        "verifyRefused": {
            "wrong_code": _("That code is not right."),
            "wrongCodeTriesLeft": _("That code is not right. Tries left: {tries}."),
            "code_expired": _("That code has expired: ask for a new one."),
            "too_many_attempts": _("Too many wrong tries for that code: ask for a new one."),
            "no_code": _("No code is waiting: ask for one first."),
            "too_many_codes": _("Too many codes were asked for: try again in an hour."),
        },
        # the pick-a-time view
        "loadingTimes": _("Looking for open times…"),
        "timesUnavailable": _("The open times could not be loaded. Try again in a moment."),
        "noOpenings": _("No open times on these days. Try later days."),
        # what went wrong
        "typeSomething": _("Write a message first."),
        "detailsNeeded": _("Give a name, an email address or a phone number."),
        "offline": _(
            "We could not reach the server. Check your connection and try again: nothing you "
            "wrote is lost."
        ),
        "failed": _("Something went wrong on our side. Please try again."),
        "gone": _("This conversation is no longer available. Start over to book."),
        "tooMany": _("Too many requests at once. Please wait a moment and try again."),
        "tooLong": _("That is too long to send. Please make it shorter and try again."),
        "tryAgain": _("Try again"),
        "paymentsUnavailable": _("Payments are unavailable right now, so nothing was booked."),
        "conflicts": {
            "turn_in_progress": _("Still answering your last message. Please try again."),
            "conversation_closed": _(
                "This conversation is closed: a person from the team has it, or it ended."
            ),
            "not_offered": _("That time is no longer offered. Please choose another."),
            "already_booked": _("This booking is already made."),
            "idempotency_conflict": _("This booking changed. Please check it and confirm again."),
        },
    }


def calendar_names() -> dict[str, list[str]]:
    """Day and month names, as Django translates them: the page writes days as the
    conversation does ("Wednesday 2 December"), whatever the browser's own language."""
    return {
        "weekdays": [str(WEEKDAYS[day]) for day in range(7)],  # Monday first
        "weekdaysShort": [str(WEEKDAYS_ABBR[day]) for day in range(7)],
        "months": [str(MONTHS[month]) for month in range(1, 13)],
        # Babel's, not Django's: Django's are lower-case in every language, while English
        # writes "Dec" and Spanish "dic".
        "monthsShort": list(get_month_names("abbreviated", locale=babel_locale()).values()),
    }
