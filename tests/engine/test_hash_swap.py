"""The hash swap (§7-4) and its scoring, and bonus cells for a swap (§9-2)."""

from __future__ import annotations

import pytest

from engine.errors import RULE_EMPTY_CELL, RULE_HASH_SWAP, RULE_MODULAR_LINEAR
from engine.game import Game
from engine.hexgrid import parse_address
from engine.position import Position
from engine.settings import Settings
from engine.tiles import parse_placements


def _game(modulus: int, policy: str, tiles: str = "", **options) -> Game:
    settings = Settings(modulus=modulus, wild_policy=policy, hash_swap=True, players=("Ana", "Bo"), **options)
    return Game(settings, Position(parse_placements(tiles)) if tiles else None)


@pytest.mark.parametrize(
    ("swap", "legal"),
    [
        ("2B1 3A0", True),  # 1 ~ 2 ~ 3 ~ 4
        ("7B1 13A0", True),  # 1 ~ 7 ~ 13 ~ 4
        ("12B1 8A0", True),  # 1 ~ 12 ~ 8 ~ 4
        ("2B1", True),  # 1 ~ 2 ~ # ~ 4
        ("13A0", True),  # 1 ~ # ~ 13 ~ 4
        ("2B1 13A0", False),  # 1 ~ 2 ~ 13 ~ 4 is not modular-linear
        ("5B1", False),  # not a value the wild tile could take
    ],
)
def test_replacing_ambiguous_wilds_consistently(swap, legal):
    game = _game(15, "E")
    game.play(parse_placements("1B2 #B1 #A0 4M1"))
    assert game.wild_values() == {parse_address("B1"): {2, 7, 12}, parse_address("A0"): {3, 13, 8}}
    result = game.evaluate(parse_placements(swap))
    assert result.legal == legal
    if not legal:
        assert result.error.rule in (RULE_HASH_SWAP, RULE_MODULAR_LINEAR)


def test_a_wild_tile_moves_along_the_primary_sequence():
    game = _game(11, "A")
    game.play(parse_placements("1B2 2B1 #A0 4M1 5M2"))
    assert game.wild_values() == {parse_address("A0"): {3}}
    result = game.play(parse_placements("3A0 #M4 7M7"))  # 1 ~ 2 ~ 3 ~ 4 ~ 5 ~ # ~ 7
    assert result.primary.values == (1, 2, 3, 4, 5, 6, 7)
    assert game.wild_values() == {parse_address("M4"): {6}}
    assert result.score == 10  # six natural tiles


def test_swap_scores_the_sequence_at_its_new_length():
    game = _game(11, "A", "1B2 3B1 7M1")
    assert game.play(parse_placements("#A0")).score == 1  # 1 ~ 3 ~ # ~ 7 has length 3
    game.pass_turn()
    assert game.play(parse_placements("5A0")).score == 3  # 1 ~ 3 ~ 5 ~ 7


def test_figure_7e_swap_scores_two():
    game = _game(12, "E")
    game.play(parse_placements("7B1 #A0 7M1"))
    game.play(parse_placements("5E1"))
    game.play(parse_placements("#P1 5P2"))
    result = game.evaluate(parse_placements("1A0"))
    assert result.score == 2
    assert sorted(s.values_tilde() for s in result.sequences) == ["5 ~ 1 ~ # ~ 5", "7 ~ 1 ~ 7"]
    assert game.evaluate(parse_placements("7A0")).error.rule == RULE_HASH_SWAP


def test_swap_onto_a_bonus_cell_earns_the_bonus():
    game = _game(12, "E", bonus="9A")
    game.play(parse_placements("7B1 #A0 7M1"))
    game.play(parse_placements("5E1"))
    game.play(parse_placements("#P1 5P2"))
    assert game.evaluate(parse_placements("1A0")).score == 6  # both sequences one longer: 3 + 3


def test_no_swap_without_the_option():
    settings = Settings(modulus=12, wild_policy="E", players=("Ana", "Bo"))
    game = Game(settings)
    game.play(parse_placements("7B1 #A0 7M1"))
    assert game.evaluate(parse_placements("1A0")).error.rule == RULE_EMPTY_CELL
