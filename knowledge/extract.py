"""Bytes to plain text: what a knowledge source says, read from a PDF, a DOCX, a text or
Markdown file, or a web page. Pure: no database, no network, no clock.

Every refusal is an ``UnreadableSource`` whose message an owner can act on ("The PDF is
encrypted", "This file is not a DOCX document"); a file is judged by its content, never by its
name alone, so a renamed file is refused with the reason.

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
from enum import StrEnum

MAX_TEXT_CHARS = 200_000
ELLIPSIS = "…"


class UnreadableSource(Exception):
    """A source whose text cannot be read; the message is what the owner reads."""


class DocumentFormat(StrEnum):
    """The files an owner may upload, by extension."""

    PDF = "pdf"
    DOCX = "docx"
    TEXT = "txt"
    MARKDOWN = "md"


def document_text(content: bytes, *, extension: str) -> str:
    """The normalised, capped text of an uploaded file whose name ends in ``.extension``."""
    extension = extension.lower().lstrip(".")
    try:
        document_format = DocumentFormat(extension)
    except ValueError:
        allowed = ", ".join(f".{member.value}" for member in DocumentFormat)
        raise UnreadableSource(
            f"Files ending in .{extension} cannot be read; upload one of {allowed}."
        ) from None
    readers = {
        DocumentFormat.PDF: pdf_text,
        DocumentFormat.DOCX: docx_text,
        DocumentFormat.TEXT: plain_text,
        DocumentFormat.MARKDOWN: plain_text,
    }
    return finished(readers[document_format](content))


def finished(text: str, *, empty: str = "There is no text in it to read.") -> str:
    """``text`` normalised, refused with ``empty`` if nothing is left, capped to MAX_TEXT_CHARS."""
    text = normalise_whitespace(text)
    if not text:
        raise UnreadableSource(empty)
    return cut_at_word(text, MAX_TEXT_CHARS)


# --- formats ---------------------------------------------------------------------------------

OLD_OFFICE_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # .doc, .xls: not Office Open XML


def pdf_text(content: bytes) -> str:
    # pypdf is imported here, not at module level: only PDF reading pays for it.
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError

    if b"%PDF-" not in content[:1024]:  # the header may follow up to 1 KiB of junk
        raise UnreadableSource("This file is not a PDF document.")
    try:
        reader = PdfReader(io.BytesIO(content))
        if reader.is_encrypted and not reader.decrypt(""):
            raise UnreadableSource("The PDF is encrypted; upload a copy saved without a password.")
        pages = [page.extract_text() or "" for page in reader.pages]
    except (FileNotDecryptedError, DependencyError) as error:
        raise UnreadableSource(
            "The PDF is encrypted; upload a copy saved without a password."
        ) from error
    except UnreadableSource:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError) as error:
        # pypdf reports a damaged file through its own error and, deeper in, plain ones.
        raise UnreadableSource(
            "The PDF is damaged and cannot be read; export it again and upload the new copy."
        ) from error
    text = "\n\n".join(pages)
    if not text.strip():
        raise UnreadableSource(
            "The PDF has no text to read (a scanned document is only pictures of pages); "
            "upload a PDF with selectable text, or paste the text instead."
        )
    return text


def docx_text(content: bytes) -> str:
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    if content.startswith(OLD_OFFICE_SIGNATURE):
        raise UnreadableSource(
            "This is an old Word .doc file, not a DOCX document; save it as .docx and upload it."
        )
    if not _is_docx_package(content):
        raise UnreadableSource("This file is not a DOCX document.")
    try:
        document = docx.Document(io.BytesIO(content))
    except (PackageNotFoundError, KeyError, ValueError, zipfile.BadZipFile) as error:
        raise UnreadableSource(
            "The DOCX document is damaged and cannot be read; save it again and upload it."
        ) from error
    blocks = [paragraph.text for paragraph in document.paragraphs]
    for table in document.tables:
        for row in table.rows:
            blocks.append(" | ".join(cell.text.strip() for cell in row.cells))
    return "\n\n".join(blocks)


def _is_docx_package(content: bytes) -> bool:
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as package:
            return "word/document.xml" in package.namelist()
    except zipfile.BadZipFile:
        return False


def plain_text(content: bytes) -> str:
    """UTF-8 (with or without a byte-order mark), else Latin-1 — which decodes any byte, so a
    binary file is recognised by its NUL bytes instead."""
    if b"\x00" in content[:8192]:
        raise UnreadableSource(
            "This file is not plain text (it looks like a binary file); upload a .txt or .md "
            "file, or a PDF or DOCX document under its own extension."
        )
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
