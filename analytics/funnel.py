"""The funnel's steps as an owner reads them: each step's count, its share of the conversations
started, and how many the step lost against the one before. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

# In the order of agent.conversation.stage_backfill.STEPS.
STEP_LABELS = (
    "Conversations started",
    "Service chosen",
    "Time offered",
    "Time held",
    "Details given",
    "Awaiting deposit (or past it)",
    "Confirmed",
)


@dataclass(frozen=True)
class FunnelRow:
    label: str
    count: int
    share: Decimal | None  # percent of the conversations started
    dropped: int  # lost since the step before (0 for the first)
    drop_rate: Decimal | None  # percent of the step before that was lost


def percent(part: int, whole: int) -> Decimal | None:
    if whole == 0:
        return None
    return (Decimal(part * 100) / whole).quantize(Decimal("0.1"))


def funnel_rows(reached: tuple[int, ...]) -> list[FunnelRow]:
    rows = []
    for index, (label, count) in enumerate(zip(STEP_LABELS, reached, strict=True)):
        before = reached[index - 1] if index else count
        rows.append(
            FunnelRow(
                label=label,
                count=count,
                share=percent(count, reached[0]),
                dropped=before - count,
                drop_rate=percent(before - count, before) if index else None,
            )
        )
    return rows
