"""Real documents built in the tests: a PDF written with pypdf (one standard font, one line of
text per row), a DOCX written with python-docx, and the hostile ones — a DOCX zip bomb, a
billion-laughs DOCX, a PDF bomb — built the same way. No fixture files to go stale."""

import io
import zipfile
import zlib

import docx
from pypdf import PdfReader, PdfWriter
from pypdf.generic import DictionaryObject, EncodedStreamObject, NameObject, StreamObject


def pdf_with_lines(*lines: str) -> bytes:
    writer = PdfWriter()
    page = _page_with_a_font(writer)
    shown = " ".join(f"({_escaped(line)}) Tj 0 -16 Td" for line in lines)
    content = StreamObject()
    content.set_data(f"BT /F1 11 Tf 56 780 Td {shown} ET".encode("latin-1"))
    page[NameObject("/Contents")] = writer._add_object(content)
    return _written(writer)


def _page_with_a_font(writer: PdfWriter):
    page = writer.add_blank_page(width=595, height=842)
    font = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/Type1"),
            NameObject("/BaseFont"): NameObject("/Helvetica"),
        }
    )
    page[NameObject("/Resources")] = DictionaryObject(
        {NameObject("/Font"): DictionaryObject({NameObject("/F1"): writer._add_object(font)})}
    )
    return page


def blank_pdf() -> bytes:
    """A PDF with a page and no text on it: what a scanned document looks like to a reader."""
    writer = PdfWriter()
    writer.add_blank_page(width=595, height=842)
    return _written(writer)


def encrypted_pdf(*lines: str) -> bytes:
    """A PDF that opens only with a password (RC4: pypdf writes it without extra packages)."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_with_lines(*lines))))
    writer.encrypt(user_password="secret", algorithm="RC4-128")
    return _written(writer)


def docx_with(*paragraphs: str, table: list[list[str]] | None = None) -> bytes:
    document = docx.Document()
    for paragraph in paragraphs:
        document.add_paragraph(paragraph)
    if table:
        grid = document.add_table(rows=len(table), cols=len(table[0]))
        for row, values in zip(grid.rows, table, strict=True):
            for cell, value in zip(row.cells, values, strict=True):
                cell.text = value
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _escaped(line: str) -> str:
    return line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _written(writer: PdfWriter) -> bytes:
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


# --- documents built to exhaust their reader --------------------------------------------------

MB = 1024 * 1024
PARAGRAPH_XML = b"<w:p><w:r><w:t>Repeated</w:t></w:r></w:p>"


def docx_with_part(content: bytes, name: str, data: bytes) -> bytes:
    """``content`` (a DOCX) with its part ``name`` replaced by ``data``, or added."""
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(content)) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package,
    ):
        for info in source.infolist():
            if info.filename != name:
                package.writestr(info.filename, source.read(info.filename))
        package.writestr(name, data)
    return out.getvalue()


def docx_zip_bomb(*, unpacked_bytes: int, part: str = "word/document.xml") -> bytes:
    """A real DOCX whose ``part`` unpacks to ``unpacked_bytes`` of repeated Word markup, written
    a megabyte at a time (the test never holds it whole); a few hundred times smaller packed."""
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(docx_with("Prices"))) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package,
    ):
        for info in source.infolist():
            if info.filename != part:
                package.writestr(info.filename, source.read(info.filename))
        chunk = PARAGRAPH_XML * (MB // len(PARAGRAPH_XML))
        with package.open(part, "w", force_zip64=True) as bomb:
            written = 0
            while written < unpacked_bytes:
                piece = chunk[: unpacked_bytes - written]
                bomb.write(piece)
                written += len(piece)
    return out.getvalue()


BILLION_LAUGHS = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<!DOCTYPE w:document [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>"""


def billion_laughs_docx() -> bytes:
    """A DOCX whose document.xml nests entities ten deep: a billion "lol"s once expanded."""
    return docx_with_part(docx_with("Prices"), "word/document.xml", BILLION_LAUGHS)


def pdf_bomb(*, inflated_bytes: int, text_first: list[str] | None = None) -> bytes:
    """A PDF whose page's content stream inflates from a few kilobytes to ``inflated_bytes``.
    With ``text_first``, a page of those lines comes before it."""
    writer = PdfWriter()
    if text_first is not None:
        writer.append(PdfReader(io.BytesIO(pdf_with_lines(*text_first))))
    page = _page_with_a_font(writer)
    stream = EncodedStreamObject()
    stream[NameObject("/Filter")] = NameObject("/FlateDecode")
    compressor = zlib.compressobj(9)
    # One line of text, then blank space: cheap to parse once inflated, so only a limit on
    # inflating refuses it (pypdf's limit on parsing work would refuse a stream of commands).
    packed = [compressor.compress(b"BT /F1 11 Tf (Bomb) Tj ET\n")]
    packed += [compressor.compress(b" " * MB) for _ in range(inflated_bytes // MB + 1)]
    stream._data = b"".join(packed) + compressor.flush()
    page[NameObject("/Contents")] = writer._add_object(stream)
    return _written(writer)


def pdf_of_pages(count: int, *, text_on: dict[int, str]) -> bytes:
    """A PDF of ``count`` pages, blank but for ``text_on`` (page number from 1 → its line)."""
    writer = PdfWriter()
    blank = PdfReader(io.BytesIO(blank_pdf())).pages[0]
    for number in range(1, count + 1):
        if number in text_on:
            writer.append(PdfReader(io.BytesIO(pdf_with_lines(text_on[number]))))
        else:
            writer.add_page(blank)
    return _written(writer)
