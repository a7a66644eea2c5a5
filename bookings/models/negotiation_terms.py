"""The owner's negotiation terms as columns: a business-wide default on ``Business`` and an
override on ``Service``, the same fields on both. The arithmetic they feed is
``bookings.negotiation`` (pure); this module only stores the terms, refuses unusable ones (in
the database where it can, on the right form field where it cannot), and turns a row into
``negotiation.Terms``."""

from decimal import Decimal

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models
from django.db.models import Q

from bookings.negotiation import Rule, Terms, terms_problems

from .base import money_field


class ConcessionRule(models.TextChoices):
    # Values are bookings.negotiation.Rule's: a stored rule is read back with Rule(value).
    FIXED = Rule.FIXED.value, "Fixed: the list price is the answer"
    HALFWAY = Rule.HALFWAY.value, "Meet halfway"
    STEPS = Rule.STEPS.value, "Steps toward the floor"


RULE_HELP = (
    "How the asking price moves when a client offers less. Fixed: it does not move; every "
    "offer below the list price is answered with the list price. Meet halfway: each counter is "
    "halfway between the client's offer and the current ask, rounded up to the rounding step, "
    "never below the floor. Steps: each counter lowers the ask by the step amount (or the step "
    "percentage of the gap between list price and floor), never below the floor. Whatever the "
    "rule, an offer that reaches the current ask is accepted at the ask, and the ask never rises."
)

# Each sentence of negotiation.terms_problems is about one field; the form shows it there.
# A sentence not listed here (a new rule) is still shown, above the form.
PROBLEM_FIELDS = {
    "The price floor cannot be negative.": "price_floor",
    "The price floor cannot be above the list price.": "price_floor",
    "Allow at least one round of counter-offers.": "concession_max_rounds",
    "Meeting halfway rounds to a step that must be more than 0.": "concession_rounding",
    "Concede in steps of an amount or of a percentage (one of them).": "concession_step_amount",
    "The step must be more than 0.": "concession_step_amount",
    "The step's percentage must be more than 0 and at most 100.": "concession_step_percent",
    "Last-minute pricing starts at least 1 hour before the visit.": "last_minute_hours",
}


class NegotiationTermsFields(models.Model):
    """The terms' columns, shared by the business (its default) and a service (its own)."""

    negotiable = models.BooleanField(
        "prices negotiable",
        default=False,
        help_text=(
            "On: the assistant answers a client's price offer by the rule below. Off: clients "
            "are quoted the list price and offers are not taken."
        ),
    )
    concession_rule = models.CharField(
        "concession rule",
        max_length=10,
        choices=ConcessionRule.choices,
        default=ConcessionRule.HALFWAY,
        help_text=RULE_HELP,
    )
    concession_rounding = money_field(
        "rounding step",
        default=Decimal("5.00"),
        help_text=(
            "Meet halfway: counters are rounded up to a multiple of this amount (e.g. 5.00), "
            "so they stay round numbers. More than 0."
        ),
    )
    concession_step_amount = money_field(
        "step amount",
        null=True,
        blank=True,
        help_text=(
            "Steps: each counter lowers the ask by this amount. Give an amount or a "
            "percentage, not both. More than 0."
        ),
    )
    concession_step_percent = models.DecimalField(
        "step percentage",
        max_digits=5,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=(
            "Steps: each counter lowers the ask by this percentage of (list price − floor); "
            "25 reaches the floor in four counters. More than 0, at most 100."
        ),
    )
    concession_max_rounds = models.PositiveSmallIntegerField(
        "maximum counter-offers",
        default=3,
        help_text=(
            "How many times the ask may come down in one conversation; after that it holds "
            "firm. At least 1."
        ),
    )
    last_minute_hours = models.PositiveSmallIntegerField(
        "last-minute hours",
        null=True,
        blank=True,
        help_text=(
            "Within this many hours of a visit's start, the floor is offered at once (an offer "
            "at or above it is taken). Empty: no last-minute pricing."
        ),
    )

    class Meta:
        abstract = True

    def terms_at(self, *, list_price: Decimal, floor: Decimal) -> Terms:
        """These terms applied to a service's list price and floor."""
        return Terms(
            list_price=list_price,
            floor=floor,
            rule=Rule(self.concession_rule),
            rounding=self.concession_rounding,
            step_amount=self.concession_step_amount,
            step_percent=self.concession_step_percent,
            max_rounds=self.concession_max_rounds,
            last_minute_hours=self.last_minute_hours,
        )

    def terms_errors(self, *, list_price: Decimal | None, floor: Decimal | None) -> None:
        """ValidationError on the fields whose values make the terms unusable. A value that is
        missing was refused by its own field's check; the rest are still checked."""
        if self.concession_rule not in ConcessionRule.values:
            return  # the field's choices refuse it, in its own words
        required = (self.concession_rounding, self.concession_max_rounds)
        if any(value is None for value in required):
            return
        if list_price is None or floor is None:
            list_price = floor = Decimal(0)  # nothing to say about prices that are not there
        problems = terms_problems(self.terms_at(list_price=list_price, floor=floor))
        errors: dict[str, list[str]] = {}
        for problem in problems:
            errors.setdefault(PROBLEM_FIELDS.get(problem, NON_FIELD_ERRORS), []).append(problem)
        if errors:
            raise ValidationError(errors)


def negotiation_constraints(table: str) -> list[models.CheckConstraint]:
    """What the database can hold of the terms' rules, for the model stored in ``table``
    (constraint names are unique per database)."""
    steps = ConcessionRule.STEPS
    return [
        models.CheckConstraint(
            condition=Q(concession_rule__in=ConcessionRule.values),
            name=f"{table}_concession_rule_known",
            violation_error_message="Unknown concession rule.",
        ),
        models.CheckConstraint(
            condition=Q(concession_max_rounds__gte=1),
            name=f"{table}_concession_rounds_at_least_one",
            violation_error_message="Allow at least one round of counter-offers.",
        ),
        models.CheckConstraint(
            condition=Q(concession_rounding__gt=0),
            name=f"{table}_concession_rounding_positive",
            violation_error_message="Meeting halfway rounds to a step that must be more than 0.",
        ),
        models.CheckConstraint(
            condition=Q(concession_step_amount__isnull=True) | Q(concession_step_amount__gt=0),
            name=f"{table}_concession_step_positive",
            violation_error_message="The step must be more than 0.",
        ),
        models.CheckConstraint(
            condition=Q(concession_step_percent__isnull=True)
            | Q(concession_step_percent__gt=0, concession_step_percent__lte=100),
            name=f"{table}_concession_percent_0_to_100",
            violation_error_message="The step's percentage must be more than 0 and at most 100.",
        ),
        models.CheckConstraint(
            # "IS NULL" / "IS NOT NULL" spelled out: a check on NULL is unknown, which passes.
            condition=~Q(concession_rule=steps)
            | Q(concession_step_amount__isnull=False, concession_step_percent__isnull=True)
            | Q(concession_step_amount__isnull=True, concession_step_percent__isnull=False),
            name=f"{table}_concession_steps_one_measure",
            violation_error_message=(
                "Concede in steps of an amount or of a percentage (one of them)."
            ),
        ),
        models.CheckConstraint(
            condition=Q(last_minute_hours__isnull=True) | Q(last_minute_hours__gte=1),
            name=f"{table}_last_minute_at_least_one_hour",
            violation_error_message="Last-minute pricing starts at least 1 hour before the visit.",
        ),
    ]
