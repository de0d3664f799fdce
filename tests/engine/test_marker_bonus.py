"""The modulus marker (§8) and bonus / malus cells (§9-1 to §9-3, tables 9A and 9B)."""

from __future__ import annotations

import pytest

from engine.bonus import bonus_cells
from engine.errors import RULE_FIRST_TURN_A0, RULE_MARKER
from engine.game import Game
from engine.hexgrid import Board, Hex, parse_address
from engine.settings import Settings
from engine.tiles import Placement, Tile, parse_placements

TABLE_9A = {0: 1, 1: 1, 2: 1, 3: 7, 4: 7, 5: 13, 6: 19, 7: 25, 8: 31, 9: 37, 10: 49, 11: 55}


def _game(modulus: int, **options) -> Game:
    return Game(Settings(modulus=modulus, players=("Ana", "Bo"), **options))


def test_figure_8b_marker_is_a_zero_on_a0():
    game = _game(13, marker=True)
    assert game.position[Hex(0, 0)].is_marker
    first = game.play(parse_placements("7B2 10B1 3M1 6M2"))
    assert first.primary.values == (7, 10, 0, 3, 6) and first.score == 6
    second = game.play(parse_placements("4E1 9P1"))
    assert second.primary.values == (4, 0, 9)
    assert second.primary.msa == "M13-S4-A0"


def test_marker_first_turn_must_run_through_a0():
    game = _game(13, marker=True)
    assert game.evaluate(parse_placements("5E3 6E2")).error.rule == RULE_FIRST_TURN_A0
    assert game.evaluate(parse_placements("5M1")).legal  # 0 ~ 5
    assert game.evaluate([Placement(Hex(0, 0), Tile.marker())]).error.rule == RULE_MARKER


@pytest.mark.parametrize(("order", "count"), sorted(TABLE_9A.items()))
def test_table_9a_bonus_cell_counts(order, count):
    assert len(bonus_cells(Board.hexagon(order), "9A")) == count


def test_table_9b_rings():
    marks = bonus_cells(Board.hexagon(12), "9B")
    assert marks[parse_address("A0")] == +1
    assert {marks[parse_address(f"{s}6")] for s in "BEHMPT"} == {-1}
    assert marks[parse_address("H20")] == +1 and marks[parse_address("P43")] == -1
    assert marks[parse_address("T75")] == +1 and marks[parse_address("B68")] == -1
    assert parse_address("E7") not in marks


@pytest.mark.parametrize(("pattern", "second_score"), [(None, 1), ("9A", 3), ("9B", 0)])
def test_bonus_and_malus_change_the_scoring_length(pattern, second_score):
    game = _game(7, bonus=pattern)
    first = game.play(parse_placements("4B2 6B1 1A0 3M1"))
    assert first.score == (3 if pattern is None else 6)  # A0 is a bonus cell in both patterns
    second = game.play(parse_placements("4B3 2B6"))  # 2 ~ 4 ~ 6 up to B6: bonus (9A), malus (9B)
    assert second.primary.addresses == ["B6", "B3", "B1"]
    assert second.score == second_score


def test_bonus_goes_only_to_the_player_who_first_covers_the_cell():
    game = _game(7, bonus="9A")
    game.play(parse_placements("4B2 6B1 1A0"))  # 3 tiles + A0 bonus = length 4
    result = game.play(parse_placements("3M1"))  # A0 already covered: plain length 4
    assert result.score == 3
