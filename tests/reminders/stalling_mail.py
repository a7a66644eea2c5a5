"""A file email backend that stalls at one message, so a test can kill a real worker exactly
where it wants: before that message is written (claimed, not sent) or after it (sent, not yet
marked). Test-only: a worker gets it through TEST_EMAIL_BACKEND, with its options in
TEST_EMAIL_URL (``filemail:///dir?stall_at=4&stall=after``)."""

import itertools
import time

from django.core.mail.backends.filebased import EmailBackend

# Counted per process, not per backend: Django may build a backend for each message.
_message_numbers = itertools.count(1)


class StallingFileBackend(EmailBackend):
    def __init__(
        self,
        *args,
        stall_at: int | str = 0,
        stall: str = "before",
        stall_seconds: float | str = 120,
        **kwargs,
    ) -> None:
        if stall not in ("before", "after"):
            raise ValueError(f"stall is 'before' or 'after', not {stall!r}")
        self.stall_at = int(stall_at)
        self.stall = stall
        self.stall_seconds = float(stall_seconds)
        super().__init__(*args, **kwargs)

    def send_messages(self, email_messages):
        written = 0
        for message in email_messages:
            stalling = next(_message_numbers) == self.stall_at
            if stalling and self.stall == "before":
                time.sleep(self.stall_seconds)  # the test kills the worker in here
            written += super().send_messages([message])
            if stalling and self.stall == "after":
                time.sleep(self.stall_seconds)  # the test kills the worker in here
        return written
