"""Reading a knowledge source's input — text written in the dashboard, an uploaded document or
a web page — into the text the assistant may be shown. Raises ``UnreadableSource`` with what
the owner reads. Writes nothing: ``knowledge.services`` stores the result, and
``knowledge.tasks`` decides where a document or page is read (a worker, not a request).

Web pages are fetched through the calendar feeds' fence (``bookings.calendar_fetch``): http(s)
only, public addresses only (checked on every connection, redirects included), time-limited and
size-capped. There is no second fence to keep in step.
"""

from pathlib import PurePosixPath

from bookings.calendar_fetch import FetchFailed, fetch_public
from knowledge.extract import (
    UnreadableSource,
    document_text,
    docx_text,
    finished,
    html_text,
    pdf_text,
    plain_text,
)
from knowledge.models import MAX_UPLOAD_BYTES, KnowledgeSource, SourceKind

PAGE_TIMEOUT_SECONDS = 15.0
MAX_PAGE_BYTES = 5 * 1024 * 1024
PAGE_USER_AGENT = "Ordina-Knowledge/1.0 (+reads a business's own pages for its booking assistant)"
PAGE_ACCEPT = (
    "text/html, application/xhtml+xml, text/plain;q=0.9, text/markdown;q=0.9, "
    "application/pdf;q=0.8, */*;q=0.1"
)
DOCX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def source_text(source: KnowledgeSource) -> str:
    """The text of ``source``'s input: the text written for it, its stored file, or its page."""
    if source.kind == SourceKind.TEXT:
        return finished(source.body)
    if source.kind == SourceKind.DOCUMENT:
        content = _stored_file(source)
        return document_text(content, extension=PurePosixPath(source.file.name or "").suffix)
    if source.kind == SourceKind.URL:
        return page_text(source.url)
    raise UnreadableSource(f"Unknown kind of source: {source.kind!r}.")


def _stored_file(source: KnowledgeSource) -> bytes:
    if not source.file:
        raise UnreadableSource("No document has been uploaded.")
    try:
        with source.file.open("rb") as stored:
            content = stored.read(MAX_UPLOAD_BYTES + 1)
    except (OSError, ValueError) as error:  # ValueError: a file handle whose file is gone
        raise UnreadableSource(
            "The uploaded document can no longer be found; upload it again."
        ) from error
    if len(content) > MAX_UPLOAD_BYTES:  # stored by some other way than the dashboard's form
        raise UnreadableSource("The file is larger than 10 MB.")
    return content


def page_text(
    url: str,
    *,
    timeout: float = PAGE_TIMEOUT_SECONDS,
    max_bytes: int = MAX_PAGE_BYTES,
) -> str:
    """The main text of the page (or document) at ``url``."""
    try:
        page = fetch_public(
            url,
            accept=PAGE_ACCEPT,
            user_agent=PAGE_USER_AGENT,
            timeout=timeout,
            max_bytes=max_bytes,
        )
    except FetchFailed as failure:
        raise UnreadableSource(f"Could not read the page: {failure}") from failure
    media_type = page.media_type
    if media_type in ("text/html", "application/xhtml+xml", ""):
        return finished(
            html_text(page.body, charset=page.charset),
            empty="The page has no text to read (a page built by JavaScript shows none until a "
            "browser runs it); paste its text instead.",
        )
    if media_type in ("text/plain", "text/markdown"):
        return finished(plain_text(page.body))
    if media_type == "application/pdf":
        return finished(pdf_text(page.body))
    if media_type == DOCX_MEDIA_TYPE:
        return finished(docx_text(page.body))
    raise UnreadableSource(
        f"The page is neither a web page nor a document that can be read (it is {media_type})."
    )
