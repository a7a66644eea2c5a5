"""WCAG 2 contrast, checked against pairs whose ratios are published (WebAIM's checker and the
WCAG techniques' examples), and the choice of ink for an accent fill."""

import pytest

from bookings.contrast import (
    NEAR_BLACK,
    WHITE,
    contrast_ratio,
    ink_on,
    is_hex_colour,
    relative_luminance,
)


@pytest.mark.parametrize(
    ("colour", "luminance"),
    [("#000000", 0.0), ("#ffffff", 1.0), ("#808080", 0.2159), ("#ff0000", 0.2126)],
)
def test_relative_luminance_of_known_colours(colour, luminance):
    assert relative_luminance(colour) == pytest.approx(luminance, abs=1e-4)


@pytest.mark.parametrize(
    ("first", "second", "ratio"),
    [
        pytest.param("#000000", "#ffffff", 21.0, id="black on white"),
        pytest.param("#ffffff", "#2563eb", 5.17, id="white on blue 600"),
        pytest.param("#ffffff", "#767676", 4.54, id="white on the lightest AA grey"),
        pytest.param("#ffffff", "#777777", 4.48, id="white on one step lighter"),
        pytest.param("#ffffff", "#ffff00", 1.07, id="white on yellow"),
        pytest.param("#ffffff", "#ff0000", 4.0, id="white on red"),
        pytest.param("#ffffff", "#ffffff", 1.0, id="the same colour"),
    ],
)
def test_contrast_ratio_of_known_pairs(first, second, ratio):
    assert contrast_ratio(first, second) == pytest.approx(ratio, abs=0.01)
    assert contrast_ratio(second, first) == contrast_ratio(first, second)


@pytest.mark.parametrize(
    ("fill", "ink", "readable"),
    [
        pytest.param("#2563eb", WHITE, True, id="blue takes white"),
        pytest.param("#ffff00", NEAR_BLACK, True, id="yellow takes near-black"),
        pytest.param("#808080", NEAR_BLACK, True, id="mid grey takes near-black at 4.55"),
        pytest.param("#777777", WHITE, False, id="a grey neither ink reads on"),
        pytest.param("#ff0000", NEAR_BLACK, False, id="pure red: 4.0 and 4.49, both short"),
        pytest.param("#15171a", WHITE, True, id="near-black takes white"),
    ],
)
def test_ink_is_the_better_of_white_and_near_black(fill, ink, readable):
    verdict = ink_on(fill)

    assert verdict.ink == ink
    assert verdict.readable is readable
    assert verdict.ratio == max(contrast_ratio(WHITE, fill), contrast_ratio(NEAR_BLACK, fill))


def test_upper_case_hex_is_the_same_colour():
    assert ink_on("#2563EB") == ink_on("#2563eb")


@pytest.mark.parametrize("value", ["2563eb", "#2563e", "#2563ebb", "#abc", "#gggggg", "blue", ""])
def test_only_hash_and_six_hex_digits_is_a_colour(value):
    assert not is_hex_colour(value)
    with pytest.raises(ValueError, match="not a #rrggbb colour"):
        relative_luminance(value)
