"""How far a document may expand while it is read, and what the owner is told when it would go
further. Pure: plain values in (a zip directory's entries, sizes), a refusal message or None
out; it opens no file and decompresses nothing.

The limits are set before reading, not checked after: a 1 MB DOCX can unpack to hundreds of
megabytes of XML and a few kilobytes of PDF stream can inflate to gigabytes, and by the time
the text exists the memory is spent. Each number says below why it is that number.
"""

import zipfile

MB = 1024 * 1024

# The most text one source keeps (about 60 to 100 pages). A reader stops collecting once it
# has this much; more would be cut anyway.
MAX_TEXT_CHARS = 200_000

# --- DOCX: a zip of XML parts, judged by its directory before anything is unpacked ----------
# A Word document's parts are a few dozen XML files and its pictures; a long document with
# pictures has a few hundred. Thousands of parts are a package built to exhaust its reader.
MAX_DOCX_PARTS = 1_000
# Word's markup is about ten times the text it holds, so MAX_TEXT_CHARS of text is about 2 MB
# of document.xml; 16 MB leaves room for heavy formatting while keeping the parsed tree (a
# few times the XML in lxml and python-docx) in the low hundreds of megabytes.
MAX_DOCX_PART_BYTES = 16 * MB
# python-docx loads every part, pictures included, into memory: the whole package unpacked
# stays within a few times the 10 MB upload.
MAX_DOCX_UNPACKED_BYTES = 48 * MB
# Deflated XML reaches 10 to 30 times; only repetition built on purpose goes past 100. Parts
# under a megabyte are not judged by their ratio: small, repetitive XML (an empty style list)
# compresses far, and cannot grow large.
MAX_DOCX_RATIO = 100
RATIO_JUDGED_FROM_BYTES = 1 * MB
# The compression methods Word writes. Others (bzip2, lzma) hand back a read's worth of output
# with no bound on its size, so the limits above could not hold while unpacking.
DOCX_COMPRESSION = frozenset({zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED})
ENCRYPTED_PART = 0x1  # general-purpose bit 0 of a zip entry

# --- PDF: pypdf's own limits, made tighter ---------------------------------------------------
# A stream that inflates past 16 MB holds no page of text (a dense page is a few KB of drawing
# commands); pypdf's default lets one stream reach 75 MB, with 300 MB of decoding work.
MAX_PDF_STREAM_BYTES = 16 * MB
# MAX_TEXT_CHARS is 60 to 100 pages of dense text; 500 pages leaves room for sparse ones, and
# stops a file of a hundred thousand empty pages from being walked page by page.
MAX_PDF_PAGES = 500
PDF_LIMITS = {
    "zlib_maximum_output_length": MAX_PDF_STREAM_BYTES,
    "lzw_maximum_output_length": MAX_PDF_STREAM_BYTES,
    "run_length_maximum_output_length": MAX_PDF_STREAM_BYTES,
    "brotli_maximum_output_length": MAX_PDF_STREAM_BYTES,
    "jbig2_maximum_output_length": MAX_PDF_STREAM_BYTES,
    "array_based_stream_maximum_output_length": MAX_PDF_STREAM_BYTES,
    "image_maximum_buffer_size": MAX_PDF_STREAM_BYTES,
    "stream_decoding_work_maximum_length": 4 * MAX_PDF_STREAM_BYTES,
}

CANNOT_READ = "This file can't be read:"
PDF_BEYOND_LIMITS = (
    f"{CANNOT_READ} part of it expands beyond what is read (more than "
    f"{MAX_PDF_STREAM_BYTES // MB} MB from one compressed stream, or more objects than a "
    "document needs), as a compressed 'PDF bomb' or a damaged file does. Export the PDF again, "
    "or paste its text."
)


def docx_package_refusal(parts: list[zipfile.ZipInfo], *, packed_bytes: int) -> str | None:
    """Why a DOCX package whose zip directory lists ``parts`` (and which is ``packed_bytes``
    long) may not be unpacked, or None when it may.

    The sizes are the ones the directory declares. Python's zipfile never returns more than a
    part's declared size, and refuses a part whose data disagrees with its checksum, so the
    declared sizes bound what python-docx can unpack."""
    if "word/document.xml" not in {part.filename for part in parts}:
        return "This file is not a DOCX document."
    if len(parts) > MAX_DOCX_PARTS:
        return (
            f"{CANNOT_READ} it holds {len(parts):,} parts, more than the {MAX_DOCX_PARTS:,} a "
            "Word document needs."
        )
    for part in parts:
        if part.flag_bits & ENCRYPTED_PART:
            return "The DOCX document is encrypted; upload a copy saved without a password."
        if part.compress_type not in DOCX_COMPRESSION:
            return (
                "The DOCX document is damaged and cannot be read (it is compressed in a way "
                "Word never uses); save it again and upload it."
            )
        if part.file_size > MAX_DOCX_PART_BYTES:
            return zip_bomb(f"{MAX_DOCX_PART_BYTES // MB} MB in one part")
        if _too_compressed(part.file_size, part.compress_size):
            return zip_bomb(f"{MAX_DOCX_RATIO} times its packed size in one part")
    unpacked = sum(part.file_size for part in parts)
    if unpacked > MAX_DOCX_UNPACKED_BYTES:
        return zip_bomb(f"{MAX_DOCX_UNPACKED_BYTES // MB} MB in all")
    if _too_compressed(unpacked, packed_bytes):
        return zip_bomb(f"{MAX_DOCX_RATIO} times its own size")
    return None


def _too_compressed(unpacked: int, packed: int) -> bool:
    return unpacked >= RATIO_JUDGED_FROM_BYTES and unpacked > MAX_DOCX_RATIO * max(packed, 1)


def zip_bomb(how_far: str) -> str:
    return (
        f"{CANNOT_READ} it expands to more than {how_far} when unpacked (a compressed 'zip "
        "bomb'; a Word document of text never does). Save it again from Word, or paste its text."
    )


def xml_refusal(error: Exception) -> str:
    """What to tell the owner when a DOCX part's XML could not be parsed (``error`` is lxml's)."""
    if "entit" in str(error).lower():  # libxml2: "entity reference loop", "amplification"
        return (
            f"{CANNOT_READ} its XML declares entities that expand without limit (a 'billion "
            "laughs'), which Word never writes. Save it again from Word and upload the new copy."
        )
    return (
        f"{CANNOT_READ} its XML is malformed, so the DOCX document is damaged. Save it again "
        "from Word and upload the new copy."
    )
