from tests.agent.conversation.conftest import shop  # noqa: F401 - the fixture, by name
from tests.bookings.conftest import frozen_now, haircut, salon  # noqa: F401
from tests.payments.conftest import fake_stripe  # noqa: F401
