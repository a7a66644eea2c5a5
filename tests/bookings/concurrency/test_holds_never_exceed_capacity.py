"""Holds taken at the same instant for one slot never promise more places than it has: each in
its own thread with its own connection on real PostgreSQL, the holds are counted under the
booking lock of their day. Without that lock several clients could each hold the last place,
and each one's booking would then be refused for the others' holds while the place stayed
empty (seen in bench/http_scale.py). Checked by hand to fail with the lock taken away (rounds
end with more holds than places, and every booking refused)."""

import threading
from collections import Counter

import pytest

from bench import harness
from bookings.errors import SlotUnavailable
from bookings.models import Appointment, Service, SlotHold
from bookings.services import appointment_create, hold_slot
from bookings.services.clients import ClientDetails
from tests.agent.conversation.chat_http import THREAD_SECONDS, Worker

# Real commits: the other threads' connections must see them.
pytestmark = pytest.mark.django_db(transaction=True)

CLIENTS = 8  # holders asking for the same slot at once
ROUNDS = 4
HELD, REFUSED = "held", "refused"


def attempt(service_id: int, start, holder: str, gate: threading.Barrier):
    def work() -> str:
        service = Service.objects.select_related("business").get(pk=service_id)
        gate.wait(THREAD_SECONDS)
        try:
            hold_slot(service=service, start=start, holder=holder)
        except SlotUnavailable:
            return REFUSED
        return HELD

    return work


@pytest.mark.parametrize("capacity", [1, 2])
def test_holds_taken_at_once_never_exceed_the_places_and_each_holder_books(capacity):
    # Given a slot per round with `capacity` places
    service = harness.open_business(slug=f"held-at-once-{capacity}", capacity=capacity)
    starts = harness.distinct_starts(service, ROUNDS)

    for number, start in enumerate(starts):
        # When eight clients hold it at the same instant
        gate = threading.Barrier(CLIENTS)
        workers = [
            Worker(attempt(service.pk, start, f"r{number}-client-{n}", gate), f"hold-{n}")
            for n in range(CLIENTS)
        ]
        for worker in workers:
            worker.start()
        answers = [worker.finish() for worker in workers]

        # Then exactly `capacity` hold it, the rest are refused, and the table agrees
        assert [w.error for w in workers if w.error] == []
        assert Counter(answers) == {HELD: capacity, REFUSED: CLIENTS - capacity}, f"round {number}"
        holders = list(SlotHold.objects.filter(starts_at=start).values_list("holder", flat=True))
        assert len(holders) == capacity

        # And every holder books the place it holds: no place is left empty
        for n, holder in enumerate(holders):
            appointment_create(
                service=service,
                start=start,
                client=ClientDetails(name=f"Client {number}-{n}", email=f"c{number}{n}@x.test"),
                holder=holder,
            )
        assert Appointment.objects.filter(starts_at=start).count() == capacity
