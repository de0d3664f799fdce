"""Turns read between two layouts of a table without a board: Super Wild (lays and moves, the
frame up to a quarter turn and a shift) and Holominoes (one placement, the frame up to a third of a
turn and a shift), each judged and replayed by the engine."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import holominoes as hm
from engine import superwild as sw
from engine.holominoes.geometry import centre_xy, corner_xy
from engine.holominoes.table_turn import TableTurnError as HexTurnError
from engine.holominoes.table_turn import table_turn as hex_turn
from engine.holominoes.table_turn import turned_by
from engine.superwild.table_turn import TableTurnError, table_turn, turn_moves


def quarter(layout: dict[sw.Pos, sw.Tile], k: int, dx: int, dy: int) -> dict[sw.Pos, sw.Tile]:
    """A Super Wild layout turned by ``k`` quarter turns anticlockwise as seen and shifted."""
    out = {}
    for p, t in layout.items():
        x, y = p.x, p.y
        for _ in range(k % 4):
            x, y = y, -x
        out[sw.Pos(x + dx, y + dy)] = t
    return out


def shapes(layout: dict[sw.Pos, sw.Tile]) -> dict[sw.Pos, tuple[str, int]]:
    return {p: t.shape for p, t in layout.items()}


# -- Super Wild ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_super_wild_turns_come_back_as_played(seed: int) -> None:
    settings_, turns, final = sw.random_round(seed, players=3)
    game = sw.Game.new(settings_.players, settings_.racks, settings_.deal)
    read: list[tuple[str, sw.Turn, str | None]] = []
    for n, (player, turn, _) in enumerate(turns):
        after = game.table.apply(turn.moves)
        assert isinstance(after, sw.Table)
        k = n if len(game.table) > 1 else 0  # the Super Wild alone fixes no quarter turn: the reading's
        found = table_turn(game, quarter(dict(after.tiles), k, n % 5 - 2, 3 - n % 7), drew=turn.draw)
        assert found.is_legal, found.result.violation
        twins = [m for m in turn.moves if sum(t.shape == m.tile.shape for t in after.tiles.values()) > 1]
        if not twins:  # a colour's two 6/9 tiles are one face: which of them moved is not seen
            assert {(m.tile.shape, m.pos, m.dest) for m in found.turn.moves} == {
                (m.tile.shape, m.pos, m.dest) for m in turn.moves
            }
        game.play(found.turn)
        assert shapes(dict(game.table.tiles)) == shapes(dict(after.tiles))
        read.append((player, found.turn, None))
    _, replayed, replay = sw.replay_round(sw.format_transcript(settings_, read))
    assert all(t.legal for t in replay.turns) and len(replay.turns) == len(turns)
    assert shapes(dict(replayed.table.tiles)) == shapes(dict(final.table.tiles))
    assert replayed.scores == final.scores


def test_a_move_and_a_lay_in_games_md_notation() -> None:
    before = {sw.Pos(0, 0): sw.WILD, sw.Pos(1, 0): sw.parse_tile("R7"), sw.Pos(2, 0): sw.parse_tile("R8")}
    after = {sw.Pos(0, 0): sw.WILD, sw.Pos(1, 1): sw.parse_tile("R7"), sw.Pos(2, 0): sw.parse_tile("R8")}
    after[sw.Pos(3, 0)] = sw.parse_tile("R9")
    moves = turn_moves(before, quarter(after, 2, 5, -4))
    assert sw.format_turn(sw.Turn(moves)) == "R7@1,0>1,1, R9@3,0"


def test_identical_faces_are_matched_by_the_least_movement() -> None:
    six, nine = sw.parse_tile("B6"), sw.parse_tile("B9")
    before = {sw.Pos(0, 0): sw.WILD, sw.Pos(1, 0): six, sw.Pos(5, 0): nine}
    after = {sw.Pos(0, 0): sw.WILD, sw.Pos(2, 0): six, sw.Pos(5, 1): six}
    moves = turn_moves(before, after)
    assert sw.format_turn(sw.Turn(moves)) == "B6@1,0>2,0, B9@5,0>5,1"


def test_nothing_changed_is_a_draw_and_is_legal() -> None:
    _, _, game = sw.random_round(3, players=2, turns=9)
    found = table_turn(game, quarter(dict(game.table.tiles), 3, 7, 1))
    assert found.text == "draw" and found.is_legal and found.turn.kind == sw.DRAW


def test_rearranging_without_laying_is_judged_by_the_engine() -> None:
    _, _, game = sw.random_round(2, players=2, turns=6)
    layout = dict(game.table.tiles)
    source = max((p for p, t in layout.items() if not t.is_wild), key=lambda p: (p.y, p.x))
    tile = layout.pop(source)
    layout[sw.Pos(source.x, source.y + 30)] = tile
    found = table_turn(game, layout)
    assert found.text == f"{sw.format_tile(tile)}@{source.x},{source.y}>{source.x},{source.y + 30}"
    assert not found.is_legal and found.result.violation is not None
    assert "neither lays a tile from the rack nor draws" in found.result.violation.message


def test_a_tile_taken_off_the_table_is_named() -> None:
    _, _, game = sw.random_round(4, players=2, turns=10)
    layout = dict(game.table.tiles)
    gone = max((p for p, t in layout.items() if not t.is_wild), key=lambda p: (p.y, p.x))
    name = sw.format_tile(layout.pop(gone))
    with pytest.raises(TableTurnError, match=f"{name} at {gone.x},{gone.y} is no longer on the table"):
        table_turn(game, layout)


def test_more_tiles_of_a_shape_than_the_game_has_is_an_error() -> None:
    layout = {sw.Pos(0, 0): sw.WILD, **{sw.Pos(i, 0): sw.Tile("O", 6) for i in range(1, 4)}}
    with pytest.raises(TableTurnError, match="3 tiles O6 seen, the game has 2"):
        turn_moves({sw.Pos(0, 0): sw.WILD}, layout)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(seed=st.integers(0, 500), k=st.integers(0, 3), dx=st.integers(-9, 9), dy=st.integers(-9, 9))
def test_a_turned_and_shifted_table_is_no_move(seed: int, k: int, dx: int, dy: int) -> None:
    _, _, game = sw.random_round(seed, players=2, turns=1 + seed % 15)
    assert turn_moves(game.table.tiles, quarter(dict(game.table.tiles), k, dx, dy)) == ()


# -- Holominoes ------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    q=st.integers(-5, 5), r=st.integers(-5, 5), first=st.sampled_from(("E", "SW", "NW")), k=st.integers(0, 2)
)
def test_a_third_of_a_turn_turns_cells_and_corners_on_the_picture(q: int, r: int, first: str, k: int) -> None:
    placement = hm.Placement(hm.parse_tile("132"), hm.Cell(q, r), first)
    turned = turned_by(placement, k)
    angle = k * 2 * math.pi / 3  # clockwise as seen (y down)

    def turn(xy: tuple[float, float]) -> tuple[float, float]:
        return (
            xy[0] * math.cos(angle) - xy[1] * math.sin(angle),
            xy[0] * math.sin(angle) + xy[1] * math.cos(angle),
        )

    assert turn(centre_xy((q, r))) == pytest.approx(centre_xy(turned.cell.key), abs=1e-9)
    assert turn(corner_xy((q, r), first)) == pytest.approx(corner_xy(turned.cell.key, turned.first), abs=1e-9)


def hex_layout(placements: tuple[hm.Placement, ...], k: int, dq: int, dr: int) -> list[hm.Placement]:
    out = []
    for p in placements:
        t = turned_by(p, k)
        out.append(hm.Placement(t.tile, hm.Cell(t.cell.q + dq, t.cell.r + dr), t.first))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_holominoes_placements_come_back_as_played(seed: int) -> None:
    played, _ = hm.random_game(seed, players=3)
    game = hm.Game(played.settings)
    for n, record in enumerate(played.history):
        move = record.result.move if record.result else None
        if isinstance(move, hm.Play):
            after = game.position.apply(move.placement).placements
            found = hex_turn(game, hex_layout(after, n, n % 4 - 2, 1 - n % 3))
            assert found is not None and found.placement == move.placement and found.result.legal
            assert found.text == hm.format_placement(move.placement)
            game.play(hm.Play(found.placement))
        else:
            assert isinstance(move, hm.Pass)
            game.play(move)
    replayed, report = hm.replay(hm.transcript_of(game))
    assert all(t.legal for t in report.turns)
    assert replayed.scores == played.scores and replayed.position == played.position


def test_holominoes_first_tile_on_an_empty_table_is_placed_as_seen() -> None:
    game = hm.Game(hm.Settings(("Ana", "Bo")))
    found = hex_turn(game, [hm.parse_placement("145@2,-1/NW")])
    assert found is not None and found.text == "145@2,-1/NW" and found.result.legal


def test_holominoes_layouts_no_turn_leads_to() -> None:
    game, _ = hm.random_game(7, players=2, turns=8)
    placed = game.position.placements
    assert hex_turn(game, hex_layout(placed, 2, 3, -1)) is None
    assert hex_turn(game, placed[:-1]) is None  # a placed tile missed: nothing new
    moved = hm.Placement(placed[-1].tile, hm.Cell(placed[-1].cell.q + 9, placed[-1].cell.r), placed[-1].first)
    with pytest.raises(HexTurnError, match="is already on the table"):
        hex_turn(game, [*placed[:-1], moved])
    extra = [t for t in game.tiles if t not in game.position.tiles][:2]
    two = [hm.Placement(t, hm.Cell(40 + i, 0), "E") for i, t in enumerate(extra)]
    with pytest.raises(HexTurnError, match="2 new tiles"):
        hex_turn(game, [*placed, *two])
    with pytest.raises(HexTurnError, match="is already on the table"):
        hex_turn(game, [*placed, hm.Placement(placed[0].tile, hm.Cell(50, 0), "E")])


def test_an_illegal_placement_is_judged_by_the_engine() -> None:
    game, _ = hm.random_game(8, players=2, turns=6)
    tile = next(t for t in game.tiles if t not in game.position.tiles)
    far = hm.Placement(tile, hm.Cell(30, 0), "E")
    found = hex_turn(game, [*game.position.placements, far])
    assert found is not None and not found.result.legal
    assert found.result.violation is not None and found.result.violation.rule == "Play: adjacent to a tile"
