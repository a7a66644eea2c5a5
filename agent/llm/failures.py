"""What a model's SDK failing means to the shell: the model is unavailable this time.

Both official SDKs (``openai``, ``anthropic``) are generated alike and name their errors alike,
so one mapping reads either: an HTTP status, a timeout, a refused connection, or an answer the
SDK could not read. Checked in that order (a timeout is a kind of connection error).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from agent.llm.base import ModelUnavailable


@contextmanager
def unavailable_on_failure(
    name: str, sdk: ModuleType, sdk_error: type[Exception]
) -> Iterator[None]:
    """Run an SDK call; any failure of ``sdk`` (base class ``sdk_error``) is ModelUnavailable."""
    try:
        yield
    except sdk.APIStatusError as error:
        raise ModelUnavailable(f"{name}: HTTP {error.status_code}") from error
    except sdk.APITimeoutError as error:
        raise ModelUnavailable(f"{name}: timed out") from error
    except sdk.APIConnectionError as error:
        raise ModelUnavailable(f"{name}: cannot connect") from error
    except (sdk_error, ValueError) as error:  # e.g. a body that is not JSON
        raise ModelUnavailable(f"{name}: unreadable answer") from error
