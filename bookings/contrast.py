"""Whether text stays readable on a business's accent colour: WCAG 2 relative luminance and
contrast ratio, and the ink (white or Ordina's near-black) that reads best on a given fill.

Pure: colours in, numbers and colours out. It decides nothing about a business and imports
no Django; ``bookings.validators`` turns its verdict into a form error.
"""

import re
from dataclasses import dataclass

WHITE = "#ffffff"
NEAR_BLACK = "#15171a"  # the light theme's text colour (pages/static/pages/ordina.css)
INKS = (WHITE, NEAR_BLACK)
# WCAG 2 AA for normal-size text: the button labels drawn on the accent are normal text.
MINIMUM_TEXT_CONTRAST = 4.5

HEX_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


def is_hex_colour(value: str) -> bool:
    """``#rrggbb`` (either case)."""
    return HEX_COLOUR.fullmatch(value) is not None


def _channel(byte: int) -> float:
    # sRGB to linear light, as WCAG 2 defines it (with the 0.04045 threshold of sRGB itself;
    # WCAG's older 0.03928 gives the same result for every 8-bit value).
    value = byte / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def relative_luminance(colour: str) -> float:
    """0 for black, 1 for white. ``colour`` is ``#rrggbb``; anything else raises ValueError."""
    if not is_hex_colour(colour):
        raise ValueError(f"{colour!r} is not a #rrggbb colour")
    red, green, blue = (int(colour[index : index + 2], 16) for index in (1, 3, 5))
    return 0.2126 * _channel(red) + 0.7152 * _channel(green) + 0.0722 * _channel(blue)


def contrast_ratio(first: str, second: str) -> float:
    """From 1 (the same luminance) to 21 (black on white); order does not matter."""
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


@dataclass(frozen=True)
class InkVerdict:
    """The better ink for a fill, its contrast on it, and whether that is enough for text."""

    fill: str
    ink: str
    ratio: float

    @property
    def readable(self) -> bool:
        return self.ratio >= MINIMUM_TEXT_CONTRAST


def ink_on(fill: str) -> InkVerdict:
    """White or near-black, whichever contrasts more with ``fill`` (white on a tie)."""
    ink = max(INKS, key=lambda candidate: contrast_ratio(candidate, fill))
    return InkVerdict(fill=fill.lower(), ink=ink, ratio=contrast_ratio(ink, fill))
