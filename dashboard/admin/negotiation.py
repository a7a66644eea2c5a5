"""How prices and the negotiation terms read on the dashboard: the same fields and explanation
on the business's page (its default terms) and a service's page (its own)."""

from django.contrib import admin

NEGOTIATION_FIELDS = (
    "negotiable",
    "concession_rule",
    "concession_rounding",
    "concession_step_amount",
    "concession_step_percent",
    "concession_max_rounds",
    "last_minute_hours",
)

# The rules are few and each is arithmetic: shown as a list to choose from, with its meaning.
RADIO_FIELDS = {"concession_rule": admin.VERTICAL}

TERMS_HELP = (
    "When prices are negotiable, a client's offer is answered by these terms alone; the "
    "assistant only puts the answer into words, and a reply naming any other amount is "
    "corrected before it is sent. An offer at or above the current asking price is accepted at "
    "that price. Otherwise the concession rule gives one counter-offer, or the ask holds firm "
    "(rule Fixed, the counter-offers used up, or the floor reached). The ask never rises, and "
    "never leaves the range from the service's floor to its list price."
)

PRICE_HELP = (
    "The floor is a hard boundary: whatever a client says, no price below it is agreed or "
    "booked, and clients are not told it unless the asking price has come down to it. No "
    "booking is above the list price either."
)

BUSINESS_TERMS_HELP = (
    "The default for every service set to use the business's terms; each service brings its "
    "own list price and floor. " + TERMS_HELP
)
