"""The pure beam filter: edges over timestamps to hits and faults."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.hits import BeamFault, BeamFilter, BeamHit, BeamReport


def run(f: BeamFilter, edges: list[tuple[float, bool]]) -> list[BeamReport]:
    out: list[BeamReport] = []
    for t, broken in edges:
        out.extend(f.edge(t, broken))
    return out


def test_beams_interruption_is_one_hit_with_its_start_and_duration() -> None:
    f = BeamFilter(1)
    out = run(f, [(10.0, True), (10.012, False)])
    assert len(out) == 1
    hit = out[0]
    assert isinstance(hit, BeamHit)
    assert (hit.pocket, hit.t) == (1, 10.0)
    assert hit.duration == pytest.approx(0.012)


def test_beams_glitch_shorter_than_minimum_is_dropped() -> None:
    f = BeamFilter(2, glitch_s=0.0005)
    assert run(f, [(1.0, True), (1.0004, False)]) == []
    # and a later real interruption still counts, starting at its own edge
    out = run(f, [(1.1, True), (1.11, False)])
    assert out == [BeamHit(2, 1.1, pytest.approx(0.01))]


def test_beams_leading_chatter_merges_into_the_hit_from_the_first_edge() -> None:
    f = BeamFilter(3)
    edges = [(5.0, True), (5.0002, False), (5.0003, True), (5.0004, False), (5.0006, True)]
    edges.append((5.015, False))
    out = run(f, edges)
    assert out == [BeamHit(3, 5.0, pytest.approx(0.015))]


def test_beams_leading_chatter_longer_in_all_than_a_glitch_still_merges() -> None:
    # three 0.3 ms bounces span 1.5 ms, more than the glitch minimum, yet each
    # bounce is shorter than it: the hit starts at the first and lasts to the end
    f = BeamFilter(3, glitch_s=0.0005)
    edges = [(5.0, True), (5.0003, False), (5.0006, True), (5.0009, False), (5.0012, True)]
    edges.append((5.02, False))
    assert run(f, edges) == [BeamHit(3, 5.0, pytest.approx(0.02))]


def test_beams_trailing_chatter_is_absorbed_into_the_hit_already_reported() -> None:
    f = BeamFilter(4)
    edges = [(2.0, True), (2.010, False), (2.0102, True), (2.0104, False), (2.0110, True)]
    edges.append((2.0112, False))
    out = run(f, edges)
    assert out == [BeamHit(4, 2.0, pytest.approx(0.010))]


def test_beams_two_coins_20_ms_apart_are_two_hits() -> None:
    f = BeamFilter(1)
    out = run(f, [(0.0, True), (0.010, False), (0.030, True), (0.041, False)])
    assert [type(r) for r in out] == [BeamHit, BeamHit]
    assert [r.t for r in out] == [0.0, 0.030]


def test_beams_two_coins_with_no_gap_longer_than_merge_window_are_two_hits() -> None:
    f = BeamFilter(1, merge_s=0.005)
    out = run(f, [(0.0, True), (0.010, False), (0.0151, True), (0.025, False)])
    assert len(out) == 2


def test_beams_stuck_after_stuck_s_by_poll_then_cleared_without_a_hit() -> None:
    f = BeamFilter(2, stuck_s=2.0)
    assert f.edge(1.0, True) == []
    assert f.deadline() == 3.0
    assert f.poll(2.9) == []
    assert f.poll(3.2) == [BeamFault(2, "stuck", 3.0)]
    assert f.poll(4.0) == []  # reported once
    assert f.deadline() is None
    assert f.edge(5.0, False) == [BeamFault(2, "cleared", 5.0)]
    # it recovers: the next coin is a hit again
    assert run(f, [(6.0, True), (6.01, False)]) == [BeamHit(2, 6.0, pytest.approx(0.01))]


def test_beams_stuck_is_reported_by_a_late_edge_when_nobody_polled() -> None:
    f = BeamFilter(3, stuck_s=2.0)
    out = run(f, [(0.0, True), (2.5, False)])
    assert out == [BeamFault(3, "stuck", 2.0), BeamFault(3, "cleared", 2.5)]


def test_beams_blocked_at_start_is_reported_and_clears() -> None:
    f = BeamFilter(4)
    assert f.start(0.0, True) == [BeamFault(4, "blocked_at_start", 0.0)]
    assert f.poll(10.0) == []  # already known to be blocked: no "stuck" on top
    assert f.edge(12.0, False) == [BeamFault(4, "cleared", 12.0)]
    assert f.start(0.0, False) == []


def test_beams_repeated_level_is_ignored() -> None:
    f = BeamFilter(1)
    assert run(f, [(0.0, False), (0.0, True), (0.001, True), (0.01, False)]) == [
        BeamHit(1, 0.0, pytest.approx(0.01))
    ]


def test_beams_bad_settings_name_the_pocket() -> None:
    with pytest.raises(ValueError, match="pocket 2: glitch_s"):
        BeamFilter(2, glitch_s=-1.0)
    with pytest.raises(ValueError, match="pocket 3: stuck_s"):
        BeamFilter(3, stuck_s=0.001, merge_s=0.005)


def chattered(
    starts: list[float], lengths: list[float], bounces: list[int]
) -> list[tuple[float, bool]]:
    """Interruptions with short bounces (0.1 ms) at both ends."""
    edges: list[tuple[float, bool]] = []
    for start, length, n in zip(starts, lengths, bounces, strict=True):
        t = start
        for _ in range(n):  # leading chatter: break 0.1 ms, clear 0.1 ms
            edges += [(t, True), (t + 0.0001, False)]
            t += 0.0002
        end = t + length  # the main break itself lasts `length`
        edges += [(t, True), (end, False)]
        t = end
        for _ in range(n):  # trailing chatter
            edges += [(t + 0.0001, True), (t + 0.0002, False)]
            t += 0.0002
    return edges


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(0.020, 0.200),  # gap before the coin
            st.floats(0.001, 0.030),  # how long it breaks the beam
            st.integers(0, 3),  # bounces at each end
        ),
        min_size=1,
        max_size=20,  # 19 coins and the striker: more through one pocket is a flapping beam
    )
)
def test_beams_property_each_chattering_coin_is_exactly_one_hit(
    coins: list[tuple[float, float, int]],
) -> None:
    starts, lengths, bounces = [], [], []
    t = 0.0
    for gap, length, n in coins:
        t += gap
        starts.append(t)
        lengths.append(length)
        bounces.append(n)
        t += length + 0.001
    out = run(BeamFilter(1), chattered(starts, lengths, bounces))
    assert all(isinstance(r, BeamHit) for r in out)
    assert [r.t for r in out] == pytest.approx(starts, abs=1e-9)
