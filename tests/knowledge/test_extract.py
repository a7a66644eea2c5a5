"""Documents become text; a file that is not what its name says, or that would expand past the
limits of reading, is refused with the reason the owner reads."""

import struct
import zipfile

import pytest

from knowledge.extract import (
    MAX_TEXT_CHARS,
    UnreadableSource,
    cut_at_word,
    document_text,
    normalise_whitespace,
    upload_format,
)
from knowledge.read_limits import (
    MAX_DOCX_PART_BYTES,
    MAX_PDF_PAGES,
    MAX_PDF_STREAM_BYTES,
    MB,
    docx_package_refusal,
)
from tests.knowledge.documents import (
    billion_laughs_docx,
    blank_pdf,
    docx_with,
    docx_with_part,
    docx_zip_bomb,
    encrypted_pdf,
    pdf_bomb,
    pdf_of_pages,
    pdf_with_lines,
)


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


# --- the cheap check the dashboard makes on an upload's first bytes ----------------------------


@pytest.mark.parametrize(
    ("head", "extension", "message"),
    [
        (b"Just some notes", "pdf", "This file is not a PDF document."),
        (b"%PDF-1.7\n", "docx", "This file is not a DOCX document."),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "docx", "This is an old Word .doc file"),
        (b"PK\x03\x04\x14\x00\x00\x00", "txt", "This file is not plain text"),
        (b"MZ", "exe", "Files ending in .exe cannot be read"),
        (b"Notes", "", "Files without an extension cannot be read"),
    ],
)
def test_an_upload_is_judged_by_its_first_bytes_alone(head, extension, message):
    with pytest.raises(UnreadableSource) as refusal:
        upload_format(head, extension=extension)

    assert str(refusal.value).startswith(message)


def test_the_first_bytes_of_a_zip_bomb_look_like_any_docx():
    # The dashboard accepts it as reading; the worker refuses it (below).
    assert upload_format(docx_zip_bomb(unpacked_bytes=2 * MB)[:8192], extension="docx") == "docx"


# --- a DOCX is judged by its zip directory before anything in it is unpacked -------------------

ZIP_BOMB = "This file can't be read: it expands to more than"


def test_a_docx_part_unpacking_past_the_part_limit_is_refused_unread():
    bomb = docx_zip_bomb(unpacked_bytes=MAX_DOCX_PART_BYTES + MB)
    assert len(bomb) < MB  # what an owner uploads: under the 10 MB cap by far

    with pytest.raises(UnreadableSource) as refusal:
        document_text(bomb, extension="docx")

    assert str(refusal.value) == (
        f"{ZIP_BOMB} 16 MB in one part when unpacked (a compressed 'zip bomb'; a Word document "
        "of text never does). Save it again from Word, or paste its text."
    )


def test_a_docx_part_compressed_past_the_ratio_limit_is_refused_though_it_is_small():
    bomb = docx_zip_bomb(unpacked_bytes=2 * MB)

    with pytest.raises(UnreadableSource) as refusal:
        document_text(bomb, extension="docx")

    assert str(refusal.value).startswith(f"{ZIP_BOMB} 100 times its packed size in one part")


def test_a_docx_whose_xml_nests_entities_billions_deep_is_refused_with_the_reason():
    with pytest.raises(UnreadableSource) as refusal:
        document_text(billion_laughs_docx(), extension="docx")

    assert str(refusal.value) == (
        "This file can't be read: its XML declares entities that expand without limit (a "
        "'billion laughs'), which Word never writes. Save it again from Word and upload the new "
        "copy."
    )


def test_a_docx_whose_xml_is_malformed_is_refused_with_the_reason():
    broken = docx_with_part(docx_with("Prices"), "word/document.xml", b"<w:document><w:body>")

    with pytest.raises(UnreadableSource) as refusal:
        document_text(broken, extension="docx")

    assert str(refusal.value).startswith("This file can't be read: its XML is malformed")


def test_a_docx_part_that_unpacks_past_its_declared_size_is_refused_as_damaged():
    # The directory says 1,000 bytes, well under every limit; the data holds 2 MB. The limits
    # trust the declared sizes only because unpacking never goes past them.
    content = bytearray(docx_with_part(docx_with("Prices"), "word/document.xml", b" " * 2 * MB))
    entry = content.index(b"PK\x01\x02")  # the directory's first entry
    while not content[entry + 46 :].startswith(b"word/document.xml"):
        entry = content.index(b"PK\x01\x02", entry + 1)
    struct.pack_into("<I", content, entry + 24, 1000)  # uncompressed size

    with pytest.raises(UnreadableSource) as refusal:
        document_text(bytes(content), extension="docx")

    assert str(refusal.value).startswith("The DOCX document is damaged and cannot be read")


def part(name: str, *, unpacked: int, packed: int | None = None, **attributes) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.file_size = unpacked
    info.compress_size = unpacked if packed is None else packed
    info.compress_type = zipfile.ZIP_DEFLATED
    for attribute, value in attributes.items():
        setattr(info, attribute, value)
    return info


DOCUMENT = part("word/document.xml", unpacked=40_000, packed=8_000)


@pytest.mark.parametrize(
    ("parts", "refusal"),
    [
        pytest.param([DOCUMENT], None, id="a-plain-document"),
        pytest.param(
            [DOCUMENT, part("word/media/photo.jpg", unpacked=9 * MB, packed=9 * MB)],
            None,
            id="a-large-photo-stored-as-is",
        ),
        pytest.param(
            [DOCUMENT, part("word/styles.xml", unpacked=500_000, packed=1_000)],
            None,
            id="a-small-part-compressed-far",
        ),
        pytest.param(
            [DOCUMENT, *(part(f"word/media/{n}.png", unpacked=10, packed=10) for n in range(1000))],
            "This file can't be read: it holds 1,001 parts, more than the 1,000 a Word document",
            id="too-many-parts",
        ),
        pytest.param(
            [DOCUMENT, *(part(f"word/media/{n}.png", unpacked=13 * MB) for n in range(4))],
            f"{ZIP_BOMB} 48 MB in all",
            id="too-large-in-all",
        ),
        pytest.param(
            [part("word/document.xml", unpacked=10 * MB, packed=10 * MB // 101)],
            f"{ZIP_BOMB} 100 times its packed size in one part",
            id="compressed-too-far",
        ),
        pytest.param(
            [DOCUMENT, part("word/custom.xml", unpacked=10, packed=10, flag_bits=0x1)],
            "The DOCX document is encrypted",
            id="an-encrypted-part",
        ),
        pytest.param(
            [DOCUMENT, part("word/custom.xml", unpacked=10, compress_type=zipfile.ZIP_BZIP2)],
            "The DOCX document is damaged and cannot be read (it is compressed in a way Word",
            id="bzip2",
        ),
        pytest.param(
            [part("content.xml", unpacked=10)], "This file is not a DOCX document.", id="odt"
        ),
    ],
)
def test_a_docx_package_is_judged_by_its_directory(parts, refusal):
    found = docx_package_refusal(parts, packed_bytes=sum(p.compress_size for p in parts))

    if refusal is None:
        assert found is None
    else:
        assert found is not None
        assert found.startswith(refusal)


def test_the_limits_leave_a_long_real_document_readable():
    paragraphs = [f"Paragraph {n}: " + "aftercare advice " * 20 for n in range(2000)]

    text = document_text(docx_with(*paragraphs), extension="docx")

    assert text.startswith("Paragraph 0: aftercare advice")
    assert len(text) <= MAX_TEXT_CHARS
    assert text.endswith("…")


# --- a PDF is read under limits tighter than pypdf's own, and only as far as it must ---------


def test_a_pdf_stream_inflating_past_the_limit_is_refused_with_the_reason():
    bomb = pdf_bomb(inflated_bytes=MAX_PDF_STREAM_BYTES + MB)
    assert len(bomb) < MB

    with pytest.raises(UnreadableSource) as refusal:
        document_text(bomb, extension="pdf")

    assert str(refusal.value) == (
        "This file can't be read: part of it expands beyond what is read (more than 16 MB from "
        "one compressed stream, or more objects than a document needs), as a compressed 'PDF "
        "bomb' or a damaged file does. Export the PDF again, or paste its text."
    )


def test_a_pdf_past_pypdfs_own_limit_is_refused_with_the_reason_not_an_error():
    bomb = pdf_bomb(inflated_bytes=80 * MB)  # pypdf's own limit is 75 MB

    with pytest.raises(UnreadableSource, match="a compressed 'PDF bomb'"):
        document_text(bomb, extension="pdf")


def test_reading_a_pdf_stops_once_it_has_all_the_text_it_may_keep():
    # The first page holds more text than is kept; the bomb on the second is never unpacked.
    long_page = [f"Line {n} " + "of the price list " * 5 for n in range(2500)]
    content = pdf_bomb(inflated_bytes=MAX_PDF_STREAM_BYTES + MB, text_first=long_page)

    text = document_text(content, extension="pdf")

    assert text.startswith("Line 0 of the price list")
    assert len(text) <= MAX_TEXT_CHARS
    assert text.endswith("…")


def test_pages_past_the_page_limit_are_not_read():
    content = pdf_of_pages(
        MAX_PDF_PAGES + 1, text_on={1: "Opening hours", MAX_PDF_PAGES + 1: "Never read"}
    )

    text = document_text(content, extension="pdf")

    assert text == "Opening hours\n\n…"
