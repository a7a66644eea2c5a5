"""Every translation catalogue in the project (``<app>/locale/<language>/LC_MESSAGES/django.po``)
is whole and is what the client is served: it parses, no entry is fuzzy or untranslated, every
placeholder of an English message is in its translation (a missing ``%(when)s`` would drop a
fact; an unknown one would fail the sentence), and the committed ``django.mo`` — what Django
reads at run time — says exactly what the ``.po`` says. ``make messages`` keeps them so.

Pure: Babel reads and compiles the catalogues here; no gettext tools are needed.
"""

from __future__ import annotations

import gettext
import re
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
# The project's own apps; the virtualenv and node_modules hold other people's catalogues.
CATALOGUES = sorted(
    path
    for path in ROOT.glob("*/locale/*/LC_MESSAGES/django.po")
    if path.parts[len(ROOT.parts)] not in {".venv", "node_modules"}
)
# "%(name)s", "%s", "%d" (python-format; "%%" is a percent sign) and "{name}" (brace format).
PERCENT = re.compile(r"%(?:\((?P<name>[^)]+)\))?[-#0 +]*\d*(?:\.\d+)?(?P<kind>[sdifr%])")
BRACE = re.compile(r"(?<!\{)\{(?P<name>[A-Za-z_]\w*)\}(?!\})")


def placeholders(text: str) -> list[str]:
    """The placeholders of ``text``, sorted; "%s" stands as itself, once per use."""
    found = [
        f"%({match['name']})" if match["name"] else f"%{match['kind']}"
        for match in PERCENT.finditer(text)
        if match["kind"] != "%"
    ]
    found += [f"{{{match['name']}}}" for match in BRACE.finditer(text)]
    return sorted(found)


def catalogue(path: Path) -> Catalog:
    with path.open("rb") as po:
        return read_po(po, abort_invalid=True)


def entries(path: Path) -> list[Message]:
    return [message for message in catalogue(path) if message.id]


def forms(text: str | list[str] | tuple[str, ...] | None) -> tuple[str, ...]:
    """A message's id or string as its forms: one, or one per plural form."""
    if text is None:
        return ("",)
    return (text,) if isinstance(text, str) else tuple(text)


def label(message: Message) -> str:
    return f"{message.context + ' | ' if message.context else ''}{forms(message.id)[0]}"


def as_served(mo: bytes) -> dict[object, str]:
    """The messages a compiled catalogue serves, keyed as Python's gettext keys them (the
    header, metadata rather than a message, left out)."""
    served = gettext.GNUTranslations(BytesIO(mo))._catalog  # type: ignore[attr-defined]
    return {key: value for key, value in served.items() if key != ""}


def test_the_project_has_catalogues():
    # The glob finding nothing would pass every test below without checking anything.
    assert ROOT / "agent/locale/es/LC_MESSAGES/django.po" in CATALOGUES


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda path: str(path.relative_to(ROOT)))
class TestCatalogue:
    def test_it_parses_and_is_not_fuzzy(self, path):
        parsed = catalogue(path)

        assert not parsed.fuzzy, "the header is marked fuzzy"
        fuzzy = [label(message) for message in parsed if message.id and message.fuzzy]
        assert fuzzy == [], "fuzzy entries (a guess of msgmerge) are served as English"

    def test_every_message_is_translated(self, path):
        untranslated = [
            label(message) for message in entries(path) if not all(forms(message.string))
        ]

        assert untranslated == []

    def test_every_placeholder_is_kept(self, path):
        wrong = []
        for message in entries(path):
            ids, strings = forms(message.id), forms(message.string)
            # Each form says every placeholder of the English (its singular: a plural form may
            # add the count), and none the English does not have.
            needed = set(placeholders(ids[0]))
            known = {each for english in ids for each in placeholders(english)}
            for string in strings:
                said = set(placeholders(string))
                if not needed <= said <= known or (len(ids) == 1 and said != needed):
                    wrong.append((label(message), sorted(needed), sorted(said)))

        assert wrong == []

    def test_the_committed_mo_is_the_po_compiled(self, path):
        committed = path.with_suffix(".mo")
        compiled = BytesIO()
        write_mo(compiled, catalogue(path))

        assert committed.exists(), "run `make messages`: the .mo is what Django reads"
        assert as_served(committed.read_bytes()) == as_served(compiled.getvalue())


def test_a_lost_placeholder_is_seen():
    assert placeholders("Le guardo el %(when)s.") == ["%(when)"]
    assert placeholders("Le guardo la hora.") != placeholders("I'm holding %(when)s for you.")
    assert placeholders("{email}: 100%% sure, %d") == ["%d", "{email}"]
