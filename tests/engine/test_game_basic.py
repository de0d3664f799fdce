"""The issue's sample game (modulus 11) and the basic turn rules (§3-2, §3-3)."""

from __future__ import annotations

import pytest

from engine.errors import (
    RULE_ABUT,
    RULE_EMPTY_CELL,
    RULE_FIRST_TURN_A0,
    RULE_MODULAR_LINEAR,
    RULE_STRAIGHT_LINE,
    RULE_UNBROKEN_RUN,
    IllegalTurnError,
)
from engine.game import Game
from engine.hexgrid import parse_address
from engine.settings import Settings
from engine.tiles import parse_placements


def _game(modulus: int = 11) -> Game:
    return Game(Settings(modulus=modulus, players=("Ana", "Bo")))


def test_issue_sample_game_scores_6_then_15():
    game = _game()
    first = game.play(parse_placements("4B2, 7B1, 10A0, 2M1, 5M2"))
    assert first.score == 6
    assert [s.addresses for s in first.sequences] == [["B2", "B1", "A0", "M1", "M2"]]
    assert first.sequences[0].msa == "M11-S3-A0"
    second = game.play(parse_placements("1B4 8M4"))
    assert second.score == 15
    assert second.sequences[0].addresses == ["B4", "B2", "B1", "A0", "M1", "M2", "M4"]
    game.pass_turn()
    game.freeze()
    assert game.scores == {"Ana": 6, "Bo": 15}
    assert game.current_player == "Ana"
    assert not game.is_over
    game.freeze()
    assert game.is_over
    with pytest.raises(IllegalTurnError):
        game.pass_turn()


@pytest.mark.parametrize(
    ("turns", "rule", "cells"),
    [
        (["4M1 6M2"], RULE_FIRST_TURN_A0, ["M1", "M2"]),
        (["4B1 6A0", "3B1"], RULE_EMPTY_CELL, ["B1"]),
        (["4B1 6A0", "1E1 2M1"], RULE_STRAIGHT_LINE, ["E1", "M1"]),
        (["4B1 6A0", "1M1 5M4"], RULE_UNBROKEN_RUN, ["M1", "M4"]),
        (["4B1 6A0", "1M3"], RULE_ABUT, ["M3"]),
        (["4B2 6B1 1A0", "5M1"], RULE_MODULAR_LINEAR, ["B2", "B1", "A0", "M1"]),
    ],
)
def test_illegal_turns_name_the_rule_and_cells(turns, rule, cells):
    game = _game(7)
    for text in turns[:-1]:
        game.play(parse_placements(text))
    result = game.evaluate(parse_placements(turns[-1]))
    assert not result.legal
    assert result.error.rule == rule
    assert set(result.error.cells) == {parse_address(a) for a in cells}
    with pytest.raises(IllegalTurnError) as info:
        game.play(parse_placements(turns[-1]))
    assert info.value.rule == rule


def test_undo_restores_scores_and_position():
    game = _game()
    game.play(parse_placements("4B2, 7B1, 10A0, 2M1, 5M2"))
    before = (game.position, game.scores, game.current_player)
    game.play(parse_placements("1B4 8M4"))
    game.undo()
    assert (game.position, game.scores, game.current_player) == before
