"""A reading in the transcript's frame tile by tile, and a correction made there brought back into
the reading's frame (tilescribe.layout_frame): round trips over every turn of the frame."""

from __future__ import annotations

import pytest

from engine.games import rules_for
from engine.holominoes.geometry import Cell
from engine.holominoes.table_turn import turned_by
from engine.holominoes.tiles import corner_placement, format_placement, parse_placement
from engine.placement import place_of
from engine.superwild.tiles import Move, Pos, format_move, parse_move
from tilescribe.layout_frame import aligned_tiles, as_seen


def _super_wild(token: str, quarter: int, shift: tuple[int, int]) -> str:
    move = parse_move(token)
    x, y = move.pos.x, move.pos.y
    for _ in range(quarter):
        x, y = -y, x
    return format_move(Move(move.tile, Pos(x + shift[0], y + shift[1])))


def _holominoes(token: str, thirds: int, shift: tuple[int, int]) -> str:
    turned = turned_by(parse_placement(token), thirds)
    cell = Cell(turned.cell.q + shift[0], turned.cell.r + shift[1])
    return format_placement(corner_placement(cell, turned.corners))


@pytest.mark.parametrize("quarter", range(4))
def test_super_wild_tiles_are_found_and_corrected_in_any_quarter_turn(quarter: int) -> None:
    text = rules_for("Super Wild").random_transcript(5, 2, 8)
    table = sorted(rules_for("Super Wild").layout(text))
    seen = {_super_wild(t, quarter, (3, -7)): t for t in table}
    aligned = aligned_tiles("Super Wild", table, list(seen))
    assert aligned == seen
    word = next(t for t in table if not t.startswith("W@"))
    read = _super_wild(word, quarter, (3, -7))
    true = format_move(Move(parse_move("K13@0,0").tile, parse_move(word).pos))
    assert as_seen("Super Wild", read, word, true) == _super_wild(true, quarter, (3, -7))
    assert as_seen("Super Wild", read, word, "") == ""
    with pytest.raises(ValueError, match="another place"):
        as_seen("Super Wild", read, word, "K13@99,99")


@pytest.mark.parametrize("thirds", range(3))
def test_holominoes_tiles_are_found_and_corrected_in_any_turn_by_a_third(thirds: int) -> None:
    text = rules_for("Holominoes").random_transcript(4, 2, 6)
    table = sorted(rules_for("Holominoes").layout(text))
    seen = {_holominoes(t, thirds, (-2, 5)): t for t in table}
    assert aligned_tiles("Holominoes", table, list(seen)) == seen
    for word in table:
        read = _holominoes(word, thirds, (-2, 5))
        e, sw, nw = parse_placement(word).corners
        true = format_placement(corner_placement(parse_placement(word).cell, (nw, e, sw)))
        assert as_seen("Holominoes", read, word, true) == _holominoes(true, thirds, (-2, 5))


def test_yushino_readings_are_in_the_boards_frame() -> None:
    assert aligned_tiles("Yushino", {"4G8"}, ["2F11", "#H9"]) == {"2F11": "2F11", "#H9": "#H9"}
    assert as_seen("Yushino", "#H9", "#H9", "#=7H9") == "#=7H9"
    assert [place_of("Yushino", t) for t in ("7H8", "#=7H9", "#H10")] == ["H8", "H9", "H10"]
    assert place_of("Super Wild", "R7@3,0>3,1") == "3,1" and place_of("Holominoes", "132@1,-2/E") == "1,-2"
    with pytest.raises(ValueError, match="hex board"):
        aligned_tiles("MODLINSEQ", (), ["7A0"])
