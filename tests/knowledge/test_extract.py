"""Documents become text; a file that is not what its name says is refused with the reason the
owner reads."""

import pytest

from knowledge.extract import (
    MAX_TEXT_CHARS,
    UnreadableSource,
    cut_at_word,
    document_text,
    normalise_whitespace,
)
from tests.knowledge.documents import blank_pdf, docx_with, encrypted_pdf, pdf_with_lines


def test_a_pdf_is_read_line_by_line():
    content = pdf_with_lines("Cancellation policy", "Cancel up to 24 hours before, free of charge.")

    text = document_text(content, extension="pdf")

    assert text == "Cancellation policy\nCancel up to 24 hours before, free of charge."


def test_a_docx_is_read_with_its_paragraphs_and_tables():
    content = docx_with(
        "Aftercare",
        "Do not wash coloured hair for   48 hours.",
        table=[["Service", "Price"], ["Colour", "60 €"]],
    )

    text = document_text(content, extension="DOCX")

    assert text == (
        "Aftercare\n\nDo not wash coloured hair for 48 hours.\n\nService | Price\n\nColour | 60 €"
    )


@pytest.mark.parametrize("extension", ["txt", "md", ".md"])
def test_text_and_markdown_are_read_as_utf8(extension):
    content = "# Parking\r\n\r\n\r\n\r\nFree   parking\tbehind the salon — ask Zé.\n".encode()

    assert document_text(content, extension=extension) == (
        "# Parking\n\nFree parking behind the salon — ask Zé."
    )


def test_text_that_is_not_utf8_is_read_as_latin1():
    assert document_text("Café e pastéis".encode("latin-1"), extension="txt") == "Café e pastéis"


def test_a_utf8_byte_order_mark_is_not_part_of_the_text():
    assert document_text(b"\xef\xbb\xbfHello", extension="txt") == "Hello"


@pytest.mark.parametrize(
    ("content", "extension", "message"),
    [
        pytest.param(
            b"Just some notes", "pdf", "This file is not a PDF document.", id="txt-as-pdf"
        ),
        pytest.param(
            pdf_with_lines("Prices"), "docx", "This file is not a DOCX document.", id="pdf-as-docx"
        ),
        pytest.param(
            b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(500),
            "docx",
            "This is an old Word .doc file, not a DOCX document; save it as .docx and upload it.",
            id="doc-as-docx",
        ),
        pytest.param(
            docx_with("Prices"),
            "txt",
            "This file is not plain text (it looks like a binary file)",
            id="docx-as-txt",
        ),
        pytest.param(
            encrypted_pdf("Secret prices"),
            "pdf",
            "The PDF is encrypted; upload a copy saved without a password.",
            id="encrypted",
        ),
        pytest.param(
            b"%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage with no xref and no trailer",
            "pdf",
            "The PDF is damaged and cannot be read",
            id="corrupt",
        ),
        pytest.param(
            pdf_with_lines("Opening hours")[:300],
            "pdf",
            "The PDF is damaged and cannot be read",
            id="cut-short",
        ),
        pytest.param(blank_pdf(), "pdf", "The PDF has no text to read", id="scanned"),
        pytest.param(b"   \n\n\t ", "md", "There is no text in it to read.", id="empty"),
        pytest.param(b"MZ\x90\x00", "exe", "Files ending in .exe cannot be read", id="exe"),
    ],
)
def test_a_file_that_cannot_be_read_is_refused_with_the_specific_reason(
    content, extension, message
):
    with pytest.raises(UnreadableSource) as refusal:
        document_text(content, extension=extension)

    assert str(refusal.value).startswith(message)


def test_a_huge_document_is_stored_cut_at_a_word_with_an_ellipsis():
    content = ("word " * (MAX_TEXT_CHARS // 4)).encode()

    text = document_text(content, extension="txt")

    assert len(text) <= MAX_TEXT_CHARS
    assert text.endswith("word…")


def test_whitespace_is_one_space_between_words_and_one_blank_line_between_paragraphs():
    assert normalise_whitespace("  a \u00a0 b\u200b \n\n\n\n c\x00d  \n") == "a b\n\ncd"


@pytest.mark.parametrize(
    ("text", "limit", "cut"),
    [
        ("Free parking behind the salon", 100, "Free parking behind the salon"),
        ("Free parking behind the salon", 16, "Free parking…"),
        ("Free parking behind the salon", 13, "Free parking…"),
        ("Free parking behind the salon", 12, "Free…"),
        ("Supercalifragilistic", 6, "Super…"),
        ("Free parking", 0, ""),
    ],
)
def test_text_is_cut_at_a_word_boundary_with_an_ellipsis(text, limit, cut):
    assert cut_at_word(text, limit) == cut
    assert len(cut_at_word(text, limit)) <= limit
