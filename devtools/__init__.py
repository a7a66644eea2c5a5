"""Tools for developing Ordina, never used by a running service: the local fake Stripe that the
tests, ``make demo`` and ``make capstone`` point the real Stripe SDK at, so nothing leaves the
machine."""
