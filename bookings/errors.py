"""What the booking core answers when it cannot do what was asked. Each carries a message a
client can read; the API maps them to 400, 404 and 409."""

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext_noop

from bookings.availability import Interval
from bookings.refusal_reasons import Refusal


class BookingError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidBooking(BookingError):
    """The request itself is wrong (400): field name → message."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        super().__init__("; ".join(f"{field}: {message}" for field, message in errors.items()))
        self.errors = dict(errors)


class SlotUnavailable(BookingError):
    """The time cannot be booked (409), usually because someone just took it. Carries real
    alternatives, computed after the refusal, and — when the core decided it under the lock —
    the rules the time breaks (``refusals``) and the one that stands (``reason``): what a
    person booking by hand is told. ``message`` stays the client's general sentence."""

    def __init__(
        self,
        alternatives: Sequence[Interval],
        message: str | None = None,
        *,
        refusals: Sequence[Refusal] = (),
        reason: Refusal | None = None,
    ) -> None:
        super().__init__(message or gettext_noop("That time was just taken."))
        self.alternatives = list(alternatives)
        self.refusals = tuple(refusals)
        self.reason = reason if reason is not None else next(iter(self.refusals), None)

    @property
    def walk_in_would_book(self) -> bool:
        """Whether an owner's walk-in override could book this time (every rule it breaks may
        be set aside); False when no rule was named."""
        return bool(self.refusals) and all(refusal.overridable for refusal in self.refusals)


class IdempotencyConflict(BookingError):
    """The idempotency key was already used for a different booking request (409)."""

    def __init__(self) -> None:
        super().__init__(
            "This Idempotency-Key was already used for a different booking; "
            "use a new key for a new booking."
        )


class AppointmentNotChangeable(BookingError):
    """The appointment's state does not allow the change (409)."""


class TooManyHolds(BookingError):
    """The client's address already holds as many slots at this business as one client may
    (409): one of them must be booked, replaced or left to expire first."""

    def __init__(self, limit: int) -> None:
        plural = "slot" if limit == 1 else "slots"
        super().__init__(
            f"This connection already holds {limit} {plural} at this business, the most one "
            "client may hold at once. Book one of them, or wait for a hold to expire, before "
            "holding another."
        )
        self.limit = limit
