"""The timeline of a simulated game: hands, landings, pauses, turn ends."""

from __future__ import annotations

import numpy as np
import pytest

from vision.sim.timeline import Pacing, SimPlacement, build_timeline, seat_points

P = SimPlacement
CENTRES = {"A0": (500.0, 500.0), "B1": (450.0, 500.0), "M1": (550.0, 500.0), "E1": (475.0, 457.0)}
SEATS = seat_points((500.0, 500.0), 900.0, 2)


def _timeline(turns, pause_chance=0.0, seed=0):  # type: ignore[no-untyped-def]
    return build_timeline(
        turns, CENTRES, SEATS, Pacing(pause_chance=pause_chance), np.random.default_rng(seed)
    )


def test_tiles_land_in_order_while_the_hand_rests_on_their_cell_and_turns_end_after() -> None:
    tl = _timeline([[P("A0", "1"), P("M1", "3")], [], [P("B1", "6")]])
    assert [x.placement.address for x in tl.landings] == ["A0", "M1", "B1"]
    assert [x.seat for x in tl.landings] == [0, 0, 0]  # turn 3 is seat 0 again (two players)
    times = [x.t for x in tl.landings]
    assert times == sorted(times)
    assert [e.turn for e in tl.turn_ends] == [1, 2, 3]
    assert tl.turn_ends[0].t > times[1] and tl.turn_ends[2].t > times[2]
    for x in tl.landings:
        hand = tl.hand_at(x.seat, x.t - 0.05)
        assert (
            hand is not None
            and np.hypot(hand[0] - CENTRES[x.placement.address][0], hand[1] - CENTRES[x.placement.address][1])
            < 30
        )
        assert tl.carried_at(x.seat, x.t - 0.05) == tl.landings.index(x)
        assert tl.carried_at(x.seat, x.t + 0.01) != tl.landings.index(x)
    # the hand is back at the seat when the turn ends, and before the first turn
    assert tl.hand_at(0, tl.turn_ends[0].t) is None
    assert tl.hand_at(0, 0.1) is None
    assert [len(tl.placed_at(t)) for t in (0.0, times[0], times[1] - 1e-6, tl.duration)] == [0, 1, 1, 3]


def test_a_mid_turn_pause_takes_the_hand_off_the_board_between_two_landings() -> None:
    tl = _timeline([[P("A0", "1"), P("M1", "3"), P("B1", "5")]], pause_chance=1.0)
    first, last = tl.landings[0].t, tl.landings[-1].t
    ts = np.arange(first, last, 0.05)
    away = [t for t in ts if tl.hand_at(0, t) is None]
    assert sum(0.05 for _ in away) >= 1.0  # pacing.pause is 1.5 s, jittered by up to 25 %
    assert all(len(tl.placed_at(t)) in (1, 2) for t in away)


def test_cells_are_checked_and_the_hash_swap_is_allowed() -> None:
    tl = _timeline([[P("A0", "#")], [P("A0", "4")]])
    assert [x.placement.face for x in tl.landings] == ["#", "4"]
    with pytest.raises(ValueError, match=r"turn 2: cell 'A0' already holds a tile \('4'\)"):
        _timeline([[P("A0", "4")], [P("A0", "5")]])
    with pytest.raises(ValueError, match=r"turn 1: cell 'Q7' is not on the board"):
        _timeline([[P("Q7", "4")]])


def test_same_seed_same_timeline_and_pacing_is_checked() -> None:
    turns = [[P("A0", "1"), P("M1", "3")], [P("B1", "6")]]
    assert _timeline(turns, 0.5, seed=3) == _timeline(turns, 0.5, seed=3)
    assert _timeline(turns, 0.5, seed=3) != _timeline(turns, 0.5, seed=4)
    with pytest.raises(ValueError, match="pacing"):
        Pacing(rest=-1)
