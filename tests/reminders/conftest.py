from tests.bookings.conftest import frozen_now, haircut, salon  # noqa: F401
