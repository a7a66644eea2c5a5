"""Every sentence marked for translation in what a client sees — the assistant's words and its
chat API's errors (``agent``), the refund policy's reasons a client is told (``payments``), the
pages (their Python and ``templates/pages``), the emails (``templates/reminders`` and the
verification code's) and the public API's core errors — is in its app's catalogue, translated.

The catalogue test (test_catalogues.py) checks what a catalogue holds; this checks that it
holds everything. Without it a new marked sentence, or a catalogue remade from its app's own
folder alone (the templates live outside it, in ``templates/``), would leave a Spanish page
with English in it, and nothing would say so.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_python
from babel.messages.pofile import read_po
from django.utils.translation.template import templatize

ROOT = Path(__file__).resolve().parent.parent
# Each catalogue, and the sources whose marked sentences it must hold.
SOURCES = {
    "agent": ["agent/**/*.py"],
    "payments": ["payments/**/*.py"],
    "pages": ["pages/**/*.py", "templates/pages/**/*.html"],
    "reminders": [
        "reminders/**/*.py",
        "templates/reminders/*.txt",
        "templates/agent/verification_code.txt",
    ],
    "bookings": ["bookings/**/*.py"],
}
# Django's names for the gettext functions, as Babel's extractor should read them.
KEYWORDS = {
    **DEFAULT_KEYWORDS,
    # A message kept marked for later (a table of refusals, a rule's sentence): read as is.
    "gettext_noop": None,
    "gettext_lazy": None,
    "ngettext_lazy": (1, 2),
    "pgettext": ((1, "c"), 2),
    "pgettext_lazy": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "npgettext_lazy": ((1, "c"), 2, 3),
}

WITH_CONTEXT = {"pgettext", "pgettext_lazy", "npgettext", "npgettext_lazy"}


def sources(app: str) -> list[Path]:
    found = [path for pattern in SOURCES[app] for path in ROOT.glob(pattern)]
    return sorted(path for path in found if "migrations" not in path.parts)


def as_python(path: Path) -> bytes:
    """The file as Python gettext calls: a template through Django's own reading of it (the
    one makemessages uses)."""
    text = path.read_text()
    if path.suffix != ".py":
        text = templatize(text, origin=str(path))
    return text.encode()


def marked(app: str) -> set[tuple[str | None, str]]:
    """(context, msgid) of every sentence marked in the app's sources."""
    found: set[tuple[str | None, str]] = set()
    for path in sources(app):
        for _line, function, message, _comments in extract_python(
            io.BytesIO(as_python(path)), KEYWORDS, [], {}
        ):
            parts = [
                str(part or "") for part in (message if isinstance(message, tuple) else [message])
            ]
            context = parts.pop(0) if function in WITH_CONTEXT else None
            if parts and parts[0]:
                found.add((context, parts[0]))
    return found


def translated(app: str) -> set[tuple[str | None, str]]:
    with (ROOT / app / "locale/es/LC_MESSAGES/django.po").open("rb") as po:
        catalogue = read_po(po)
    return {
        (message.context, message.id if isinstance(message.id, str) else message.id[0])
        for message in catalogue
        if message.id and message.string and not message.fuzzy
    }


@pytest.mark.parametrize("app", sorted(SOURCES))
def test_every_marked_sentence_a_client_sees_is_translated_in_its_apps_catalogue(app):
    assert marked(app), f"nothing marked found in {app}'s sources: the extraction is broken"

    missing = marked(app) - translated(app)

    named = sorted(f"{context + ' | ' if context else ''}{msgid}" for context, msgid in missing)
    assert not missing, f"{app}: marked but not in its Spanish catalogue:\n" + "\n".join(named)
