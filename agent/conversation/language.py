"""The language a conversation's assistant writes in: the business's when the chat starts,
the client's once they clearly write in another language the product speaks.

"Clearly" is the reading table's call (``clear_language``): a bare "ok", a name, an email or a
time says nothing, so a Spanish chat is not switched to English by "ok" or "10:30".
"""

from __future__ import annotations

from collections.abc import Collection

from django.conf import settings
from django.utils.translation import get_supported_language_variant

from agent.offline.languages import clear_language


def client_languages() -> tuple[str, ...]:
    """The languages a client can be answered in (settings.LANGUAGES)."""
    return tuple(code for code, _name in settings.LANGUAGES)


def starting_language(business_language: str) -> str:
    """The business's language as one the product speaks ("es-ES" is "es"); the project's
    default when it speaks no variant of it."""
    try:
        return get_supported_language_variant(business_language)
    except LookupError:
        return get_supported_language_variant(settings.LANGUAGE_CODE)


def language_after(current: str, text: str, supported: Collection[str]) -> str:
    """The conversation's language once the client wrote ``text``."""
    written = clear_language(text)
    return written if written is not None and written in supported else current
