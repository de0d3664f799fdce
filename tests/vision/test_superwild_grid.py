"""Super Wild tables seen from above: the engine's seeded random rounds laid out on a photo's
coordinates (turned by any angle, scaled, shifted, every tile jittered by a few percent of a tile),
placed back on the grid, and each turn read between two photos and replayed through the engine."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.superwild import Game, Pos, Table, Tile, Turn, format_transcript, random_round, replay_round
from engine.superwild.table_turn import table_turn
from engine.superwild.tiles import format_tile, parse_tile
from vision.table.superwild_grid import GridError, SeenTile, superwild_grid

#: A portrait Rummikub-style tile, millimetres, and the gap players leave between two tiles.
WIDTH_MM, HEIGHT_MM, GAP_MM = 27.0, 36.0, 1.0


def photo(
    layout: Mapping[Pos, Tile],
    rng: np.random.Generator,
    turn: float,
    scale: float,
    jitter: float = 0.03,
    pushed: dict[Pos, np.ndarray] | None = None,
) -> list[SeenTile]:
    """The tiles of ``layout`` as the table stage would see them: the layout turned by ``turn``
    (radians, clockwise as seen), ``scale`` pixels a millimetre, somewhere on a 4000 px photo; each
    centre jittered by ``jitter`` of a tile's width, each angle by about 2 degrees, each size by 2 %;
    ``pushed`` moves tiles by a vector in millimetres (the layout's frame)."""
    c, s = math.cos(turn), math.sin(turn)
    rotation = np.array([[c, -s], [s, c]])
    shift = rng.uniform(1000, 3000, 2)
    out = []
    for pos, tile in layout.items():
        local = np.array([pos.x * (WIDTH_MM + GAP_MM), pos.y * (HEIGHT_MM + GAP_MM)])
        local += rng.normal(0, jitter * WIDTH_MM, 2) + (pushed or {}).get(pos, 0)
        centre = shift + scale * rotation @ local
        angle = turn + math.pi / 2 + rng.normal(0, 0.035)
        six_nine = tile.is_six_nine
        if six_nine:  # printed to read the same both ways: which end is up is not known
            angle += math.pi * int(rng.integers(2))
        face = "joker" if tile.is_wild else "6/9" if six_nine else str(tile.number)
        size = scale * math.hypot(WIDTH_MM, HEIGHT_MM) * (1 + rng.normal(0, 0.02))
        seen = SeenTile(
            (float(centre[0]), float(centre[1])),
            size,
            angle,
            face,
            "-" if tile.is_wild else tile.colour,
            float(rng.uniform(0.5, 1.0)),
            has_up=not six_nine,
        )
        out.append(seen)
    rng.shuffle(out)
    return out


def row(names: str) -> dict[Pos, Tile]:
    """Tiles side by side from 0,0 to the right: ``"W R7 R8"``."""
    return {Pos(x, 0): parse_tile(name) for x, name in enumerate(names.split())}


def named(layout: Mapping[Pos, Tile]) -> dict[Pos, str]:
    """Position -> tile as a reading names it (a 6/9 as its 6)."""
    return {p: format_tile(Tile(*t.shape)) if not t.is_wild else "W" for p, t in layout.items()}


@pytest.mark.parametrize("seed", range(6))
def test_every_table_of_a_random_round_comes_back(seed: int) -> None:
    rng = np.random.default_rng(seed)
    settings_, turns, game = random_round(seed, players=3)
    replay = Game.new(settings_.players, settings_.racks, settings_.deal)
    checked = 0
    for _, turn, _ in turns:
        replay.play(turn)
        layout = dict(replay.table.tiles)
        grid = superwild_grid(
            photo(layout, rng, turn=rng.uniform(-math.pi, math.pi), scale=rng.uniform(2, 6))
        )
        assert grid.problems == ()
        assert {p: format_tile(t) for p, t in grid.tiles} == named(layout)
        checked += 1
    assert checked == len(turns) and len(game.table) > 10


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 10_000),
    turn=st.floats(-math.pi, math.pi),
    scale=st.floats(1.5, 8.0),
    jitter=st.floats(0.0, 0.06),
)
def test_a_turned_scaled_jittered_table_comes_back(
    seed: int, turn: float, scale: float, jitter: float
) -> None:
    _, _, game = random_round(seed % 50, players=2, turns=12)
    layout = dict(game.table.tiles)
    grid = superwild_grid(photo(layout, np.random.default_rng(seed), turn, scale, jitter))
    assert {p: format_tile(t) for p, t in grid.tiles} == named(layout)


def test_the_json_of_games_md() -> None:
    layout = {**row("W R9 R10"), Pos(0, 1): parse_tile("K1")}
    grid = superwild_grid(photo(layout, np.random.default_rng(1), turn=2.0, scale=3.0))
    assert grid.to_json() == {
        "tiles": [
            {"tile": "W", "x": 0, "y": 0},
            {"tile": "R6", "x": 1, "y": 0},
            {"tile": "R10", "x": 2, "y": 0},
            {"tile": "K1", "x": 0, "y": 1},
        ]
    }


def test_no_super_wild_is_a_grid_error() -> None:
    layout = row("R7 R8 R10")
    with pytest.raises(GridError, match="no Super Wild among the 3 tiles seen"):
        superwild_grid(photo(layout, np.random.default_rng(2), turn=0.3, scale=3.0))


def test_faces_of_no_tile_and_a_second_wild_are_listed_not_placed() -> None:
    layout = row("W R7 R8 R9")
    seen = photo(layout, np.random.default_rng(3), turn=-1.0, scale=4.0)
    marker = SeenTile(seen[0].centre, seen[0].size, seen[0].angle, "marker", "-", 0.9)
    far = (seen[0].centre[0] + 2000.0, seen[0].centre[1])
    second = SeenTile(far, seen[0].size, seen[0].angle, "joker", "-", 0.1)
    grid = superwild_grid([*seen, marker, second])
    assert named(grid.layout) == named(layout)
    assert len(grid.problems) == 2
    assert "'marker'" in grid.problems[0] and "a second Super Wild" in grid.problems[1]


def test_a_layout_read_without_any_up_comes_back_up_to_a_half_turn() -> None:
    _, _, game = random_round(11, players=2, turns=10)
    layout = dict(game.table.tiles)
    for turn in (0.4, 0.4 + math.pi):
        seen = [
            SeenTile(s.centre, s.size, s.angle, s.face, s.colour, s.confidence, has_up=False)
            for s in photo(layout, np.random.default_rng(4), turn, 3.0)
        ]
        got = {p: format_tile(t) for p, t in superwild_grid(seen).tiles}
        half = {Pos(-p.x, -p.y): t for p, t in named(layout).items()}
        assert got == (named(layout) if turn < math.pi / 2 else half)
        assert table_turn(game, superwild_grid(seen).layout).text == "draw"  # the same layout


@pytest.mark.parametrize(("seed", "players"), [(0, 2), (1, 3), (2, 4), (3, 2)])
def test_each_turn_read_from_two_photos_replays_to_the_same_table(seed: int, players: int) -> None:
    rng = np.random.default_rng(seed)
    settings_, turns, final = random_round(seed, players)
    game = Game.new(settings_.players, settings_.racks, settings_.deal)
    read: list[tuple[str, Turn, str | None]] = []
    for player, turn, _ in turns:
        expected = game.table.apply(turn.moves)
        assert isinstance(expected, Table)
        seen = photo(dict(expected.tiles), rng, rng.uniform(-math.pi, math.pi), rng.uniform(2, 6))
        found = table_turn(game, superwild_grid(seen).layout, drew=turn.draw)
        assert found.is_legal, (found.text, found.result.violation)
        assert found.turn.kind == turn.kind
        game.play(found.turn)
        assert named(game.table.tiles) == named(expected.tiles)
        read.append((player, found.turn, None))
    _, replayed, replay = replay_round(format_transcript(settings_, read))
    assert all(t.legal for t in replay.turns) and len(replay.turns) == len(turns)
    assert named(replayed.table.tiles) == named(final.table.tiles)
    assert replayed.scores == final.scores


def test_a_layout_drifting_and_turning_between_two_photos_is_no_move() -> None:
    settings_, turns, game = random_round(5, players=2, turns=14)
    rng = np.random.default_rng(5)
    layout = dict(game.table.tiles)
    first = superwild_grid(photo(layout, rng, turn=0.2, scale=3.0)).layout
    second = superwild_grid(photo(layout, rng, turn=1.3, scale=3.4)).layout
    assert named(first) == named(second) == named(layout)
    found = table_turn(game, second)
    assert found.text == "draw" and found.is_legal


def test_a_tile_pushed_two_millimetres_is_no_move() -> None:
    _, _, game = random_round(6, players=2, turns=14)
    rng = np.random.default_rng(6)
    layout = dict(game.table.tiles)
    for pos in layout:
        direction = rng.uniform(-math.pi, math.pi)
        push = {pos: 2.0 * np.array([math.cos(direction), math.sin(direction)])}
        seen = photo(layout, rng, turn=float(rng.uniform(-3, 3)), scale=3.0, pushed=push)
        assert table_turn(game, superwild_grid(seen).layout).text == "draw"
