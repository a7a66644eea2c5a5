"""Letting go of a hold: the one writer that deletes a holder's hold, whether a booking consumed
it or the chat moved on (another service, a time lost, a booking released)."""

from bookings.models import SlotHold


def hold_release(*, business_id: int, holder: str) -> None:
    """The holder's hold at the business, if any, is gone: its time is offered to others."""
    SlotHold.objects.filter(business_id=business_id, holder=holder).delete()
