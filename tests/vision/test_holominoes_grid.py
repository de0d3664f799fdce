"""Holominoes tables seen from above: the engine's seeded random games laid out on a photo's
coordinates (turned by any angle, scaled, shifted, every tile jittered by a few percent of a tile),
placed back on the hex grid, and each placement read between two photos and replayed."""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.holominoes import (
    Game,
    Pass,
    Placement,
    Play,
    format_placement,
    parse_placement,
    random_game,
    replay,
    transcript_of,
)
from engine.holominoes.geometry import NUMBERED, centre_xy, corner_xy
from engine.holominoes.table_turn import table_turn, turned_by
from engine.holominoes.tiles import Cell
from vision.table.holominoes_grid import SeenCorner, SeenHex, holominoes_grid

#: A tile's radius (centre to corner), millimetres.
RADIUS_MM = 20.0
#: Where a corner's digit is printed: this part of the way from the centre to its corner.
DIGIT_REACH = 0.7


def photo(
    placements: Iterable[Placement],
    rng: np.random.Generator,
    turn: float,
    scale: float,
    jitter: float = 0.03,
    pushed: dict[Cell, np.ndarray] | None = None,
) -> list[SeenHex]:
    """The tiles as the table stage would see them: the layout turned by ``turn`` (radians,
    clockwise as seen), ``scale`` pixels a millimetre, somewhere on a 4000 px photo; each tile
    shifted by ``jitter`` of its radius and turned by about 2 degrees, its radius seen 2 % off;
    ``pushed`` moves tiles by a vector in millimetres (the layout's frame)."""
    c, s = math.cos(turn), math.sin(turn)
    rotation = np.array([[c, -s], [s, c]])
    shift = rng.uniform(1000, 3000, 2)
    out = []
    for p in placements:
        key = (p.cell.q, p.cell.r)
        centre = RADIUS_MM * np.array(centre_xy(key))
        centre += rng.normal(0, jitter * RADIUS_MM, 2) + (pushed or {}).get(p.cell, 0)
        wobble = rng.normal(0, 0.035)
        corners = []
        for name, digit in zip(NUMBERED, p.corners, strict=True):
            x, y = corner_xy((0, 0), name)
            cw, sw = math.cos(wobble), math.sin(wobble)
            at = centre + DIGIT_REACH * RADIUS_MM * np.array([x * cw - y * sw, x * sw + y * cw])
            seen_at = shift + scale * rotation @ at
            corners.append(SeenCorner((float(seen_at[0]), float(seen_at[1])), str(digit)))
        seen_centre = shift + scale * rotation @ centre
        radius = scale * RADIUS_MM * (1 + rng.normal(0, 0.02))
        rng.shuffle(corners)
        out.append(
            SeenHex(
                (float(seen_centre[0]), float(seen_centre[1])),
                radius,
                tuple(corners),
                float(rng.uniform(0.5, 1.0)),
            )
        )
    rng.shuffle(out)
    return out


def same_up_to_frame(got: Iterable[Placement], expected: Iterable[Placement]) -> bool:
    """Whether two layouts are one another turned by 0, 120 or 240 degrees and shifted."""
    want = set(expected)
    got = list(got)
    if not got or len(got) != len(want):
        return not got and not want
    anchor = next(iter(want))
    for thirds in range(3):
        turned = [turned_by(p, thirds) for p in got]
        match = next((p for p in turned if p.tile == anchor.tile), None)
        if match is None:
            return False
        dq, dr = anchor.cell.q - match.cell.q, anchor.cell.r - match.cell.r
        if {Placement(p.tile, Cell(p.cell.q + dq, p.cell.r + dr), p.first) for p in turned} == want:
            return True
    return False


@pytest.mark.parametrize("seed", range(6))
def test_every_position_of_a_random_game_comes_back(seed: int) -> None:
    rng = np.random.default_rng(seed)
    game, _ = random_game(seed, players=2)
    placed = game.position.placements
    for k in range(1, len(placed) + 1):
        seen = photo(placed[:k], rng, turn=rng.uniform(-math.pi, math.pi), scale=rng.uniform(2, 6))
        grid = holominoes_grid(seen)
        assert grid.problems == ()
        assert same_up_to_frame(grid.placements, placed[:k]), k
    assert len(placed) > 15


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 10_000),
    frame=st.tuples(st.floats(-math.pi, math.pi), st.floats(1.5, 8.0)),
    jitter=st.sampled_from((0.0, 0.05, 0.1, 0.15)),
)
def test_a_turned_scaled_jittered_table_comes_back(
    seed: int, frame: tuple[float, float], jitter: float
) -> None:
    game, _ = random_game(seed % 50, players=2, turns=14)
    placed = game.position.placements
    grid = holominoes_grid(photo(placed, np.random.default_rng(seed), *frame, jitter=jitter))
    assert same_up_to_frame(grid.placements, placed)


def test_the_json_of_games_md() -> None:
    layout = [parse_placement(t) for t in ("123@0,0/E", "145@1,0/SW", "236@2,0/NW")]
    grid = holominoes_grid(photo(layout, np.random.default_rng(1), turn=0.2, scale=3.0))
    assert grid.to_json() == {  # the tile nearest the middle at 0,0
        "tiles": [
            {"tile": "123", "q": -1, "r": 0, "first": "E"},
            {"tile": "145", "q": 0, "r": 0, "first": "SW"},
            {"tile": "236", "q": 1, "r": 0, "first": "NW"},
        ]
    }


def test_a_layout_turned_by_a_third_reads_in_the_frame_nearest_the_photo() -> None:
    layout = [parse_placement(t) for t in ("123@0,0/E", "145@1,0/SW", "236@2,0/NW")]
    turned = holominoes_grid(photo(layout, np.random.default_rng(2), turn=0.2 + 2 * math.pi / 3, scale=3.0))
    # turned a third clockwise: q,r -> -q-r,q and E -> SW -> NW -> E; the middle tile at 0,0
    assert [format_placement(p) for p in turned.placements] == ["236@-1,1/E", "145@0,0/NW", "123@1,-1/SW"]


def test_tiles_that_name_no_tile_are_listed_not_placed() -> None:
    layout = [parse_placement(t) for t in ("123@0,0/E", "145@1,0/SW", "236@2,0/NW")]
    seen = photo(layout, np.random.default_rng(3), turn=-0.5, scale=3.0)
    same = SeenHex(seen[0].centre, seen[0].radius, tuple(SeenCorner(c.at, "4") for c in seen[0].corners), 0.9)
    two = SeenHex(seen[1].centre, seen[1].radius, seen[1].corners[:2], 0.9)
    grid = holominoes_grid([same, two, seen[2]])
    assert len(grid.placements) == 1 and len(grid.problems) == 2
    assert all("are not three different numbers" in p for p in grid.problems)
    assert holominoes_grid([]).placements == ()


def test_a_tile_seen_twice_is_listed_once_placed() -> None:
    layout = [parse_placement(t) for t in ("123@0,0/E", "145@1,0/SW")]
    seen = photo(layout, np.random.default_rng(4), turn=1.0, scale=3.0)
    again = photo([parse_placement("123@0,1/E")], np.random.default_rng(4), turn=1.0, scale=3.0)  # same place
    grid = holominoes_grid(seen + [SeenHex(a.centre, a.radius, a.corners, 0.1) for a in again])
    assert [format_placement(p) for p in grid.placements] == ["123@-1,0/E", "145@0,0/SW"]
    assert len(grid.problems) == 1 and "123@-1,1/E clashes with 123@-1,0/E" in grid.problems[0]


@pytest.mark.parametrize(("seed", "players"), [(0, 2), (1, 3), (2, 4), (3, 2)])
def test_each_placement_read_from_two_photos_is_the_one_played(seed: int, players: int) -> None:
    rng = np.random.default_rng(seed)
    played, _ = random_game(seed, players)
    game = Game(played.settings)
    for record in played.history:
        move = record.result.move if record.result else None
        if isinstance(move, Play):
            after = game.position.apply(move.placement).placements
            seen = photo(after, rng, rng.uniform(-math.pi, math.pi), rng.uniform(2, 6))
            found = table_turn(game, holominoes_grid(seen).placements)
            assert found is not None and found.result.legal
            assert found.placement == move.placement
            game.play(Play(found.placement))
        else:
            assert isinstance(move, Pass)
            game.play(move)  # a pass is not seen on the table
    replayed, report = replay(transcript_of(game))
    assert all(t.legal for t in report.turns)
    assert replayed.scores == played.scores and replayed.position == played.position


def test_a_layout_drifting_and_turning_between_two_photos_is_no_move() -> None:
    game, _ = random_game(5, players=2, turns=12)
    rng = np.random.default_rng(5)
    placed = game.position.placements
    for turn in (0.1, 1.2, 2.9, -2.0):
        seen = photo(placed, rng, turn=turn, scale=rng.uniform(2, 5))
        assert table_turn(game, holominoes_grid(seen).placements) is None


def test_a_tile_pushed_two_millimetres_is_no_move() -> None:
    game, _ = random_game(6, players=2, turns=12)
    rng = np.random.default_rng(6)
    placed = game.position.placements
    for p in placed:
        direction = rng.uniform(-math.pi, math.pi)
        push = {p.cell: 2.0 * np.array([math.cos(direction), math.sin(direction)])}
        seen = photo(placed, rng, turn=float(rng.uniform(-3, 3)), scale=3.0, pushed=push)
        assert table_turn(game, holominoes_grid(seen).placements) is None
