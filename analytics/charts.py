"""Charts drawn on the server as SVG text: horizontal bars and weekly lines. Pure: values in,
markup out. Every label is escaped (a service's name is the owner's text, never markup); each
chart is an image with a title for assistive technology, and the page shows the same numbers
in a table right after it. Colours come from the stylesheet's classes, so the dashboard's
light and dark palettes apply and no inline style is needed (the CSP allows none).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

WIDTH = 640
LABEL_WIDTH = 200  # the bars' labels, left of the bars
BAR_ROW = 30
BAR_HEIGHT = 20
LINE_HEIGHT = 220
PLOT_LEFT, PLOT_RIGHT, PLOT_TOP, PLOT_BOTTOM = 48, 620, 16, 180


def _number(value: float) -> str:
    return f"{value:g}"


def _frame(chart_id: str, title: str, height: int, body: str) -> SafeString:
    return format_html(
        '<svg class="chart" id="{}" role="img" aria-labelledby="{}-title" '
        'viewBox="0 0 {} {}" preserveAspectRatio="xMinYMin meet">'
        '<title id="{}-title">{}</title>{}</svg>',
        chart_id,
        chart_id,
        WIDTH,
        height,
        chart_id,
        title,
        mark_safe(body),  # noqa: S308 - built below from escaped parts only
    )


def bar_chart(*, chart_id: str, title: str, bars: Sequence[tuple[str, float]]) -> SafeString:
    """One horizontal bar per (label, value), scaled to the largest value."""
    largest = max((value for _label, value in bars), default=0) or 1
    room = WIDTH - LABEL_WIDTH - 60
    parts: list[str] = []
    for index, (label, value) in enumerate(bars):
        top = index * BAR_ROW + 4
        length = round(room * value / largest, 1)
        parts.append(
            format_html(
                '<text class="chart-label" x="{}" y="{}" text-anchor="end">{}</text>'
                '<rect class="chart-bar" x="{}" y="{}" width="{}" height="{}" rx="3"></rect>'
                '<text class="chart-value" x="{}" y="{}">{}</text>',
                LABEL_WIDTH - 8,
                top + 15,
                label,
                LABEL_WIDTH,
                top,
                length,
                BAR_HEIGHT,
                LABEL_WIDTH + length + 6,
                top + 15,
                _number(value),
            )
        )
    return _frame(chart_id, title, max(len(bars), 1) * BAR_ROW + 8, "".join(parts))


def line_chart(
    *, chart_id: str, title: str, points: Sequence[tuple[str, float | None]], unit: str = ""
) -> SafeString:
    """A line through (label, value) points, evenly spaced; a value of None is a gap."""
    values = [value for _label, value in points if value is not None]
    top_value = max(values, default=0) or 1
    step = (PLOT_RIGHT - PLOT_LEFT) / max(len(points) - 1, 1)

    def x(index: int) -> float:
        return round(PLOT_LEFT + index * step, 1)

    def y(value: float) -> float:
        return round(PLOT_BOTTOM - (PLOT_BOTTOM - PLOT_TOP) * value / top_value, 1)

    parts: list[str] = [
        format_html(
            '<line class="chart-axis" x1="{}" y1="{}" x2="{}" y2="{}"></line>'
            '<text class="chart-label" x="{}" y="{}" text-anchor="end">{}</text>'
            '<text class="chart-label" x="{}" y="{}" text-anchor="end">0</text>',
            PLOT_LEFT,
            PLOT_BOTTOM,
            PLOT_RIGHT,
            PLOT_BOTTOM,
            PLOT_LEFT - 6,
            PLOT_TOP + 5,
            f"{_number(top_value)}{unit}",
            PLOT_LEFT - 6,
            PLOT_BOTTOM,
        )
    ]
    segment: list[str] = []
    for index, (label, value) in enumerate(points):
        parts.append(
            format_html(
                '<text class="chart-label" x="{}" y="{}" text-anchor="middle">{}</text>',
                x(index),
                PLOT_BOTTOM + 22,
                label,
            )
        )
        if value is None:
            parts.append(_polyline(segment))
            segment = []
            continue
        segment.append(f"{x(index)},{y(value)}")
        parts.append(
            format_html(
                '<circle class="chart-point" cx="{}" cy="{}" r="4"></circle>',
                x(index),
                y(value),
            )
        )
    parts.append(_polyline(segment))
    return _frame(chart_id, title, LINE_HEIGHT, "".join(parts))


def _polyline(points: list[str]) -> str:
    if len(points) < 2:
        return ""
    return format_html('<polyline class="chart-line" points="{}"></polyline>', " ".join(points))
