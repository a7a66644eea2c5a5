"""Real documents built in the tests: a PDF written with pypdf (one standard font, one line of
text per row), a DOCX written with python-docx. No fixture files to go stale."""

import io

import docx
from pypdf import PdfReader, PdfWriter
from pypdf.generic import DictionaryObject, NameObject, StreamObject


def pdf_with_lines(*lines: str) -> bytes:
    writer = PdfWriter()
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
    shown = " ".join(f"({_escaped(line)}) Tj 0 -16 Td" for line in lines)
    content = StreamObject()
    content.set_data(f"BT /F1 11 Tf 56 780 Td {shown} ET".encode("latin-1"))
    page[NameObject("/Contents")] = writer._add_object(content)
    return _written(writer)


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
