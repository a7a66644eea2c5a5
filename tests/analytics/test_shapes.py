"""The pure parts of the analytics page: the date range and its refusals, the funnel's rows, the
charts' markup, and the stage moves derived for old conversations. No database."""

import datetime as dt
import re
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from agent.conversation.stage_backfill import Kept, Move, derived_moves
from analytics.charts import bar_chart, line_chart
from analytics.funnel import funnel_rows
from analytics.periods import Period, PeriodRefused, period_from

TODAY = dt.date(2026, 12, 1)
T0 = dt.datetime(2026, 11, 2, 10, tzinfo=dt.UTC)


def minutes(n: int) -> dt.datetime:
    return T0 + dt.timedelta(minutes=n)


def test_the_default_period_is_the_last_30_days_today_included():
    assert period_from({}, today=TODAY) == Period(dt.date(2026, 11, 2), TODAY)


def test_a_period_of_366_days_is_allowed_and_one_more_is_not():
    assert period_from({"from": "2025-12-01", "to": "2026-12-01"}, today=TODAY).days == 366
    with pytest.raises(PeriodRefused, match="at most 366 days"):
        period_from({"from": "2025-11-30", "to": "2026-12-01"}, today=TODAY)


def test_a_periods_days_are_whole_days_in_its_zone_across_a_clock_change():
    start, end = Period(dt.date(2026, 10, 25), dt.date(2026, 10, 25)).bounds(
        ZoneInfo("Europe/Lisbon")
    )
    assert start == dt.datetime(2026, 10, 24, 23, tzinfo=dt.UTC)
    assert end - start == dt.timedelta(hours=25)  # the day the clocks go back


def test_every_week_the_period_touches_is_listed_from_its_monday():
    weeks = Period(dt.date(2026, 11, 1), dt.date(2026, 11, 9)).week_starts()
    assert weeks == [dt.date(2026, 10, 26), dt.date(2026, 11, 2), dt.date(2026, 11, 9)]


def test_funnel_rows_tell_each_steps_share_and_what_it_lost():
    rows = funnel_rows((10, 8, 8, 4, 4, 2, 1))
    assert [(r.count, r.share, r.dropped, r.drop_rate) for r in rows[:4]] == [
        (10, Decimal("100.0"), 0, None),
        (8, Decimal("80.0"), 2, Decimal("20.0")),
        (8, Decimal("80.0"), 0, Decimal("0.0")),
        (4, Decimal("40.0"), 4, Decimal("50.0")),
    ]
    assert funnel_rows((0,) * 7)[3].share is None


def test_a_chart_is_an_image_with_a_title_and_escapes_its_labels():
    svg = bar_chart(chart_id="c", title="Steps & <more>", bars=[("<b>Cut</b>", 3), ("Dye", 0)])
    assert 'role="img"' in svg
    assert '<title id="c-title">Steps &amp; &lt;more&gt;</title>' in svg
    assert "&lt;b&gt;Cut&lt;/b&gt;" in svg
    assert "<b>" not in svg
    assert "style=" not in svg


def test_a_line_breaks_where_a_week_has_no_value():
    svg = line_chart(chart_id="l", title="t", points=[("a", 1), ("b", 2), ("c", None), ("d", 4)])
    assert len(re.findall("<polyline", svg)) == 1  # a–b; d alone is a point, not a line
    assert len(re.findall("<circle", svg)) == 3


def test_an_old_booking_with_a_deposit_is_told_from_its_audit_and_appointment():
    kept = Kept(
        created_at=T0,
        updated_at=minutes(60),
        state="confirmed",
        executed=(
            ("choose_service", minutes(1)),
            ("hold_slot", minutes(2)),
            ("offer_slots", minutes(3)),
        ),
        booked_at=minutes(5),
        booked_pending=True,
        confirmed_at=minutes(30),
    )
    assert derived_moves(kept) == [
        Move("greeting", "", T0),
        Move("service_chosen", "greeting", minutes(1)),
        Move("slot_held", "service_chosen", minutes(2)),  # offering after holding: no step back
        Move("awaiting_payment", "slot_held", minutes(5)),
        Move("confirmed", "awaiting_payment", minutes(30)),
    ]


def test_an_old_conversation_ends_on_the_stage_it_holds_now():
    kept = Kept(
        created_at=T0,
        updated_at=minutes(9),
        state="escalated",
        executed=(("choose_service", minutes(1)), ("refund", minutes(2))),
    )
    assert [m.stage for m in derived_moves(kept)] == ["greeting", "service_chosen", "escalated"]
    assert derived_moves(kept)[-1].at == minutes(9)
