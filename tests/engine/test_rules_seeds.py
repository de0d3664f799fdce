"""Turns, scoring and blocked cells from the worked examples of §2 and §3."""

from __future__ import annotations

import pytest

from engine.errors import RULE_MODULAR_LINEAR
from engine.game import Game
from engine.hexgrid import parse_address
from engine.position import Position
from engine.settings import Settings
from engine.tiles import parse_placements


def _game(modulus: int, tiles: str = "") -> Game:
    settings = Settings(modulus=modulus, players=("Ana", "Bo"))
    return Game(settings, Position(parse_placements(tiles)) if tiles else None)


@pytest.mark.parametrize(
    "transcript",
    [
        "4B2, 6B1, 1A0, 3M1",  # figure 2A
        "3B2, 1B1, 6A0, 4M1",  # figure 2B
        "4T2, 6T1, 1A0, 3H1",  # figure 2C
        "3T2, 1T1, 6A0, 4H1",  # figure 2D
        "4P1, 6A0, 1E1, 3E2",  # figure 2E
        "3P1, 1A0, 6E1, 4E2",  # figure 2F
    ],
)
def test_section_2_1_first_turns(transcript):
    result = _game(7).play(parse_placements(transcript))
    assert result.legal and result.score == 3  # one 4-tile sequence (table 2A)
    (seq,) = result.sequences
    assert seq.primary and sorted(seq.values) == [1, 3, 4, 6]
    assert seq.msa == "M7-S2-A0"


def test_figure_2e_extends_to_p2_and_e4():
    game = _game(7)
    game.play(parse_placements("4P1, 6A0, 1E1, 3E2"))
    legal = game.legal_values()
    assert legal[parse_address("P2")] == {2}  # "cell P2 would contain 2"
    assert legal[parse_address("E4")] == {5}  # "and cell E4 would contain 5"


def test_figure_2g_a_bend_is_two_sequences():
    game = _game(7)
    game.play(parse_placements("4B2 6B1 1A0"))
    result = game.play(parse_placements("3H1 5H2"))
    assert [s.values for s in result.sequences] == [(1, 3, 5)]
    assert result.score == 1


def test_figure_2h_connecting_two_sequences_through_m1():
    game = _game(7, "4B2 6B1 1A0 5M2 0M4 2M7")
    assert game.legal_values()[parse_address("M1")] == {3}
    result = game.evaluate(parse_placements("3M1"))
    assert result.legal and result.score == 15
    assert result.primary.values == (4, 6, 1, 3, 5, 0, 2)


def test_figure_2i_m1_is_blocked():
    game = _game(7, "4B2 6B1 1A0 0M2 2M4 4M7")
    m1 = parse_address("M1")
    assert m1 in game.blocked_cells()
    assert game.legal_values()[m1] == frozenset()
    for value in (3, 5):  # 4B2 ~ 6B1 ~ 1A0 ~ 3*M1 and 5*M1 ~ 0M2 ~ 2M4 ~ 4M7
        result = game.evaluate(parse_placements(f"{value}M1"))
        assert result.error.rule == RULE_MODULAR_LINEAR
        assert m1 in result.error.cells


def test_figure_2j_m1_is_blocked_by_a_lone_tile():
    game = _game(7, "4B2 6B1 1A0 2M2")
    assert parse_address("M1") in game.blocked_cells()
    game = _game(7, "4B2 6B1 1A0 5M2")  # with a 5 on M2, M1 takes the 3
    assert game.legal_values()[parse_address("M1")] == {3}


def test_section_3_2_four_new_tiles_with_three_old_score_15():
    game = _game(7)
    game.play(parse_placements("4B2 6B1 1A0"))
    result = game.play(parse_placements("3M1 5M2 0M4 2M7"))
    assert result.score == 15


def test_secondary_sequences_score_at_full_length():
    # row 4 ~ 7 ~ 10 and column 9 ~ 0 ~ _ ~ 4 cross at M1 (modulus 11)
    game = _game(11, "4B2 7B1 10A0 9E3 0H1 4M3")
    result = game.evaluate(parse_placements("2M1"))
    assert [(s.addresses, s.primary, s.points) for s in result.sequences] == [
        (["B2", "B1", "A0", "M1"], True, 3),
        (["E3", "H1", "M1", "M3"], False, 3),
    ]
    assert result.score == 6


def test_blocked_cells_appear_in_the_turn_result():
    game = _game(7, "4B2 6B1 1A0")
    m1 = parse_address("M1")
    assert m1 not in game.blocked_cells()
    result = game.evaluate(parse_placements("0E3 1H1"))  # the column E3 ~ H1 ~ M1 wants a 2 there
    assert result.legal
    assert m1 in result.blocked
    assert m1 not in game.blocked_cells()  # evaluate commits nothing
    game.play(parse_placements("0E3 1H1"))
    assert game.legal_values()[m1] == frozenset()
