"""The per-address hold limit under real concurrency: many holds from one address at the same
instant, each in its own thread with its own connection to the test database on real
PostgreSQL. Counting and inserting happen under one advisory lock per (business, address), so
the limit holds however the requests interleave. Checked by hand to fail with the lock taken
away (several rounds end with more than the limit held)."""

import threading
from collections import Counter

import pytest

from bench import harness
from bookings.addresses import address_hash
from bookings.errors import TooManyHolds
from bookings.models import Service, SlotHold
from bookings.services import hold_slot
from tests.agent.conversation.chat_http import THREAD_SECONDS, Worker

# Real commits: the other threads' connections must see them.
pytestmark = pytest.mark.django_db(transaction=True)

LIMIT = 3
CLIENTS = 10  # holders one address makes up at once
ROUNDS = 5
ADDRESS = "203.0.113.99"
HELD, REFUSED = "held", "refused"


def attempt(service_id: int, start, holder: str, gate: threading.Barrier):
    def work() -> str:
        service = Service.objects.select_related("business").get(pk=service_id)
        gate.wait(THREAD_SECONDS)
        try:
            hold_slot(service=service, start=start, holder=holder, address=ADDRESS)
        except TooManyHolds:
            return REFUSED
        return HELD

    return work


def test_holds_sent_at_once_from_one_address_never_exceed_the_limit(settings):
    # Given one address allowed three holds, and ten free slots per round
    settings.HOLDS_PER_ADDRESS = LIMIT
    service = harness.open_business(slug="held-at-once", capacity=1)
    starts = harness.distinct_starts(service, CLIENTS * ROUNDS)
    fingerprint = address_hash(ADDRESS)

    for number in range(ROUNDS):
        # When ten holders of that address ask for ten different slots at the same instant
        round_starts = starts[number * CLIENTS : (number + 1) * CLIENTS]
        gate = threading.Barrier(CLIENTS)
        workers = [
            Worker(attempt(service.pk, start, f"r{number}-visitor-{n}", gate), f"hold-{n}")
            for n, start in enumerate(round_starts)
        ]
        for worker in workers:
            worker.start()
        answers = [worker.finish() for worker in workers]

        # Then exactly three are held and seven refused, and the table agrees
        assert [w.error for w in workers if w.error] == []
        assert Counter(answers) == {HELD: LIMIT, REFUSED: CLIENTS - LIMIT}, f"round {number}"
        assert SlotHold.objects.filter(address_hash=fingerprint).count() == LIMIT
        SlotHold.objects.all().delete()  # the next round starts from nothing held
