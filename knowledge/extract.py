"""Bytes to plain text: what a knowledge source says, read from a PDF, a DOCX, a text or
Markdown file, or a web page. Pure: no database, no network, no clock.

Every refusal is an ``UnreadableSource`` whose message an owner can act on ("The PDF is
encrypted", "This file is not a DOCX document"); a file is judged by its content, never by its
name alone, so a renamed file is refused with the reason.

Reading is bounded before it starts (``knowledge.read_limits``): a DOCX's zip directory is
checked before any part is unpacked; a PDF is read under pypdf limits tighter than its own and
from at most ``MAX_PDF_PAGES`` pages; no reader collects much more than ``MAX_TEXT_CHARS``.
Malformed or hostile XML (a "billion laughs" of nested entities included) and every limit
pypdf reaches become an ``UnreadableSource`` with the reason, never an uncaught error. What
the limits cannot bound — a file that is merely slow to parse — is bounded by the worker's
time limit (``knowledge.tasks``). ``upload_format`` judges a file by its first bytes only,
which is cheap enough for the owner's request; the rest runs in the worker.

HTML is read with BeautifulSoup (``beautifulsoup4``, Python's standard ``html.parser``), not
trafilatura. A business's pages are small and structured — a price list in a table, a FAQ in
lists — and the owner must be able to predict what is kept: the rule here is stated in one
sentence (the ``<main>``/``<article>`` if the page has one, else the ``<body>``, less
navigation, headers, footers, asides, forms and scripts). trafilatura's scoring is built for
news articles, can drop short pages and tables as boilerplate, and brings several packages
(lxml, courlan, htmldate, justext); BeautifulSoup is pure Python, maintained since 2004, and
reads offline with nothing downloaded at run time.
"""

import io
import re
import unicodedata
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from enum import StrEnum

from knowledge.read_limits import (
    MAX_PDF_PAGES,
    MAX_TEXT_CHARS,
    PDF_BEYOND_LIMITS,
    PDF_LIMITS,
    docx_package_refusal,
    xml_refusal,
)

ELLIPSIS = "…"
# How much of a file ``upload_format`` looks at: the PDF header may follow up to 1 KiB of junk,
# and a text file is told from a binary one by NUL bytes near its start.
HEAD_BYTES = 8192


class UnreadableSource(Exception):
    """A source whose text cannot be read; the message is what the owner reads."""


class DocumentFormat(StrEnum):
    """The files an owner may upload, by extension."""

    PDF = "pdf"
    DOCX = "docx"
    TEXT = "txt"
    MARKDOWN = "md"


def upload_format(head: bytes, *, extension: str) -> DocumentFormat:
    """The format of a file named ``*.extension`` whose first bytes are ``head``, judged by
    those bytes alone (nothing is unpacked or parsed). Raises ``UnreadableSource`` when the
    name is not one that can be read or the content is not what the name says."""
    extension = extension.lower().lstrip(".")
    try:
        document_format = DocumentFormat(extension)
    except ValueError:
        allowed = ", ".join(f".{member.value}" for member in DocumentFormat)
        named = f"ending in .{extension}" if extension else "without an extension"
        raise UnreadableSource(f"Files {named} cannot be read; upload one of {allowed}.") from None
    checks = {
        DocumentFormat.PDF: _check_pdf_head,
        DocumentFormat.DOCX: _check_docx_head,
        DocumentFormat.TEXT: _check_text_head,
        DocumentFormat.MARKDOWN: _check_text_head,
    }
    checks[document_format](head[:HEAD_BYTES])
    return document_format


def document_text(content: bytes, *, extension: str) -> str:
    """The normalised, capped text of an uploaded file whose name ends in ``.extension``."""
    readers = {
        DocumentFormat.PDF: pdf_text,
        DocumentFormat.DOCX: docx_text,
        DocumentFormat.TEXT: plain_text,
        DocumentFormat.MARKDOWN: plain_text,
    }
    return finished(readers[upload_format(content, extension=extension)](content))


def finished(text: str, *, empty: str = "There is no text in it to read.") -> str:
    """``text`` normalised, refused with ``empty`` if nothing is left, capped to MAX_TEXT_CHARS."""
    text = normalise_whitespace(text)
    if not text:
        raise UnreadableSource(empty)
    return cut_at_word(text, MAX_TEXT_CHARS)


def enough_text(blocks: Iterable[str]) -> str:
    """``blocks`` joined by blank lines, taken only until they hold more than MAX_TEXT_CHARS
    characters of normalised text: the reader is asked for no more, and ``finished`` cuts the
    excess at a word with an ellipsis."""
    kept: list[str] = []
    length = 0
    for block in blocks:
        kept.append(block)
        length += len(normalise_whitespace(block)) + 2
        if length > MAX_TEXT_CHARS:
            break
    return "\n\n".join(kept)


# --- formats ---------------------------------------------------------------------------------

OLD_OFFICE_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # .doc, .xls: not Office Open XML
ZIP_SIGNATURE = b"PK\x03\x04"  # what every zip Word writes starts with


def _check_pdf_head(head: bytes) -> None:
    if b"%PDF-" not in head[:1024]:  # the header may follow up to 1 KiB of junk
        raise UnreadableSource("This file is not a PDF document.")


def _check_docx_head(head: bytes) -> None:
    if head.startswith(OLD_OFFICE_SIGNATURE):
        raise UnreadableSource(
            "This is an old Word .doc file, not a DOCX document; save it as .docx and upload it."
        )
    if not head.startswith(ZIP_SIGNATURE):
        raise UnreadableSource("This file is not a DOCX document.")


def _check_text_head(head: bytes) -> None:
    if b"\x00" in head[:HEAD_BYTES]:
        raise UnreadableSource(
            "This file is not plain text (it looks like a binary file); upload a .txt or .md "
            "file, or a PDF or DOCX document under its own extension."
        )


def pdf_text(content: bytes) -> str:
    """The text of the first MAX_PDF_PAGES pages, read only until MAX_TEXT_CHARS is passed; an
    ellipsis stands for pages beyond MAX_PDF_PAGES."""
    # pypdf is imported here, not at module level: only PDF reading pays for it.
    from pypdf import PdfReader, apply_configuration
    from pypdf.errors import (
        DependencyError,
        FileNotDecryptedError,
        LimitReachedError,
        PyPdfError,
    )

    _check_pdf_head(content)
    try:
        with apply_configuration(None, **PDF_LIMITS):  # None: over the current configuration
            reader = PdfReader(io.BytesIO(content))
            if reader.is_encrypted and not reader.decrypt(""):
                raise UnreadableSource(
                    "The PDF is encrypted; upload a copy saved without a password."
                )
            text = enough_text(_pdf_pages(reader))
    except (FileNotDecryptedError, DependencyError) as error:
        raise UnreadableSource(
            "The PDF is encrypted; upload a copy saved without a password."
        ) from error
    except UnreadableSource:
        raise
    except LimitReachedError as error:
        raise UnreadableSource(PDF_BEYOND_LIMITS) from error
    except (
        PyPdfError,
        ValueError,
        KeyError,
        TypeError,
        AttributeError,
        IndexError,
        ArithmeticError,
        RecursionError,
    ) as error:
        # pypdf reports a damaged file through its own error and, deeper in, plain ones.
        raise UnreadableSource(
            "The PDF is damaged and cannot be read; export it again and upload the new copy."
        ) from error
    if not text.strip():
        raise UnreadableSource(
            "The PDF has no text to read (a scanned document is only pictures of pages); "
            "upload a PDF with selectable text, or paste the text instead."
        )
    return text


def _pdf_pages(reader) -> Iterator[str]:
    """Each page's text in turn, extracted only when asked for."""
    pages = reader.pages
    for number in range(min(len(pages), MAX_PDF_PAGES)):
        yield pages[number].extract_text() or ""
    if len(pages) > MAX_PDF_PAGES:
        yield ELLIPSIS


def docx_text(content: bytes) -> str:
    """The paragraphs, then the tables' rows, of a Word document whose package was checked
    against ``knowledge.read_limits`` before anything in it was unpacked."""
    import docx
    from docx.opc.exceptions import PackageNotFoundError
    from lxml.etree import LxmlError

    _check_docx_head(content)
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as package:
            parts = package.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as error:
        raise UnreadableSource("This file is not a DOCX document.") from error
    if refusal := docx_package_refusal(parts, packed_bytes=len(content)):
        raise UnreadableSource(refusal)
    try:
        return enough_text(_docx_blocks(docx.Document(io.BytesIO(content))))
    except LxmlError as error:  # XMLSyntaxError, and whatever else lxml raises
        raise UnreadableSource(xml_refusal(error)) from error
    except (
        PackageNotFoundError,
        KeyError,
        ValueError,
        zipfile.BadZipFile,
        zlib.error,
        NotImplementedError,
        RuntimeError,  # RecursionError included
        EOFError,
    ) as error:
        raise UnreadableSource(
            "The DOCX document is damaged and cannot be read; save it again and upload it."
        ) from error


def _docx_blocks(document) -> Iterator[str]:
    for paragraph in document.paragraphs:
        yield paragraph.text
    for table in document.tables:
        for row in table.rows:
            yield " | ".join(cell.text.strip() for cell in row.cells)


def plain_text(content: bytes) -> str:
    """UTF-8 (with or without a byte-order mark), else Latin-1 — which decodes any byte, so a
    binary file is recognised by its NUL bytes instead."""
    _check_text_head(content)
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        return content.decode("latin-1")


# What is never the page's own content, wherever it stands.
NEVER_CONTENT = [
    "script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "embed",
    "nav", "aside", "form", "button", "select", "input", "textarea", "dialog",
]  # fmt: skip
NOT_CONTENT_ROLES = {"navigation", "banner", "contentinfo", "complementary", "search", "dialog"}
BLOCKS = [
    "p", "div", "section", "article", "main", "li", "ul", "ol", "dl", "dt", "dd", "table",
    "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "address", "figure",
    "figcaption", "details", "summary", "hr",
]  # fmt: skip


def html_text(content: bytes, *, charset: str | None = None) -> str:
    """The main text of a web page: its ``<main>`` (or ``<article>``) if it has one, else its
    ``<body>`` less the page's header and footer; navigation, asides, forms and scripts are
    dropped everywhere."""
    from bs4 import BeautifulSoup, Tag

    soup = BeautifulSoup(content, "html.parser", from_encoding=charset)
    for tag in soup.find_all(NEVER_CONTENT):
        tag.decompose()
    for tag in soup.find_all(_hidden_or_not_content):
        tag.decompose()
    root = soup.find("main") or soup.find(role="main") or soup.find("article")
    if not isinstance(root, Tag):
        root = soup.body or soup
        for tag in root.find_all(["header", "footer"]):
            tag.decompose()
    for tag in root.find_all("br"):
        tag.replace_with("\n")
    for row in root.find_all("tr"):  # a price list's row reads "Haircut | 30 €"
        cells = [cell.get_text(" ", strip=True) for cell in row.find_all(["td", "th"])]
        row.replace_with("\n" + " | ".join(cell for cell in cells if cell) + "\n")
    for tag in root.find_all(BLOCKS):
        tag.insert_before("\n\n")
        tag.insert_after("\n\n")
    return root.get_text()


def _hidden_or_not_content(tag) -> bool:
    attributes = tag.attrs or {}
    return (
        "hidden" in attributes
        or str(attributes.get("aria-hidden", "")).lower() == "true"
        or str(attributes.get("role", "")).lower() in NOT_CONTENT_ROLES
    )


# --- shaping the text ------------------------------------------------------------------------

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u00ad\u200b\ufeff]")


def normalise_whitespace(text: str) -> str:
    """One space between words, one blank line between paragraphs, no trailing space, no
    control characters: what a model reads best, in the fewest characters."""
    text = unicodedata.normalize("NFC", text).replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTROL.sub("", text)
    lines = [" ".join(line.split()) for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def cut_at_word(text: str, limit: int) -> str:
    """``text`` if it fits in ``limit`` characters; otherwise as much of it as fits, ending at a
    word boundary, with an ellipsis — never longer than ``limit``."""
    if len(text) <= limit:
        return text
    if limit < 1:
        return ""
    kept = text[: limit - len(ELLIPSIS)]
    if not text[len(kept)].isspace():
        space = max(kept.rfind(" "), kept.rfind("\n"))
        if space > 0:  # one word longer than the limit is cut inside the word
            kept = kept[:space]
    return kept.rstrip() + ELLIPSIS
