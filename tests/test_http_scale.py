"""Two web machines, one database: clients racing for the same slots through two real gunicorn
instances on the production settings — some by the booking API, some by the chat's Confirm —
get each slot booked exactly to its capacity, every other client a conflict answer, no 5xx,
and the table holds no double booking.

The small version of ``bench/http_scale.py`` (the race is ``bench/http_race.py``, shared by
both). Behind a load balancer (``TRUSTED_PROXY_COUNT=1``), each client with its own
X-Forwarded-For address. Checked once by hand to fail with the booking lock made a no-op and
the seat exclusion constraint dropped (docs/benchmarks.md, "Scale-out").
"""

import pytest

from bench import http_race
from bench.http_race import API, CHAT, CONFIRMED, FAILED, REFUSED, TURNED_AWAY

pytestmark = pytest.mark.django_db(transaction=True)  # the servers must see the salons

BEHIND_ONE_PROXY = {"TRUSTED_PROXY_COUNT": "1", "PUBLIC_API_RATE": "10000/minute"}
API_CLIENTS_PER_SLOT = 6
# Several chats per slot: each holds its time before its Confirm, and holds are counted under
# the booking lock, so chats holding at the same instant never hold more places than there are
# (with optimistic holds, two could hold one chair and refuse each other's Confirm, leaving it
# empty: tests/bookings/concurrency/test_holds_never_exceed_capacity.py).
CHAT_CLIENTS_PER_SLOT = 3
RACE_SECONDS = 60.0


@pytest.fixture
def two_machines(production_servers) -> list[str]:
    """Two gunicorn instances with two workers each, on ports of their own; their bases."""
    return [production_servers(workers=2, **BEHIND_ONE_PROXY).http.base for _ in range(2)]


def test_clients_racing_through_two_servers_book_each_slot_to_its_capacity_never_beyond(
    two_machines,
):
    one_chair = http_race.race_salon(slug="one-chair", capacity=1)
    two_chairs = http_race.race_salon(slug="two-chairs", capacity=2)
    slots = [http_race.raced_slot(one_chair, hour=10), http_race.raced_slot(two_chairs, hour=10)]
    entrants = http_race.contenders(
        slots, two_machines, api=API_CLIENTS_PER_SLOT, chats=CHAT_CLIENTS_PER_SLOT
    )

    finished = http_race.race(entrants, deadline=RACE_SECONDS)

    failures = [(o.contender.way, o.code) for o in finished.outcomes if o.result == FAILED]
    assert failures == []
    assert finished.exchanges.server_errors() == []
    assert {o.contender.base for o in finished.outcomes} == set(two_machines)
    for tally in http_race.tallies(finished):
        capacity = tally.slot.capacity
        assert (tally.stored, tally.confirmed_answers) == (capacity, capacity), tally
        assert tally.double_bookings == tally.seat_clashes == 0
    for outcome in finished.outcomes:
        if outcome.result == CONFIRMED:
            assert outcome.replay_matches is not False, "a retry on the other machine rebooked"
        elif outcome.contender.way == API:
            assert (outcome.result, outcome.code) == (REFUSED, "slot_unavailable")
        else:
            assert outcome.contender.way == CHAT
            assert outcome.result in (REFUSED, TURNED_AWAY)
