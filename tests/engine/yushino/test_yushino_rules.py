"""Yushino's sequences, placement rules and scoring, hand-worked from the seed (§2-§3) and games.md."""

from __future__ import annotations

import pytest

from engine.yushino import (
    Layout,
    Position,
    classic_layout,
    evaluate_play,
    is_sequence,
    legal_placements,
    parse_placement,
    parse_square,
)
from engine.yushino.rules import (
    RULE_EMPTY,
    RULE_FIRST,
    RULE_ON_BOARD,
    RULE_ONE_LINE,
    RULE_ONE_PER_SQUARE,
    RULE_SEQUENCE,
    RULE_SHARE,
    RULE_UNBROKEN,
)


def plays(text: str):
    return [parse_placement(t) for t in text.replace(",", " ").split()]


def board(*turns: str) -> Position:
    position = Position()
    for turn in turns:
        result = evaluate_play(position, plays(turn))
        assert result.legal, result.violation
        position = position.apply(plays(turn))
    return position


# -- §2 sequences: the seed's own examples ----------------------------------------------------
@pytest.mark.parametrize("digits", ["875", "7291", "684", "56", "87", "90", "09", "98", "000", "11235831"])
def test_seed_sequences_are_valid(digits: str) -> None:
    assert is_sequence([int(d) for d in digits])


@pytest.mark.parametrize("digits", ["578", "1927", "55", "57", "19", "874", "7290", "00"])
def test_broken_sequences_are_invalid(digits: str) -> None:
    assert not is_sequence([int(d) for d in digits])


def test_reverse_reading_only_under_either() -> None:
    assert not is_sequence([5, 7, 8])  # 875 read right to left
    assert is_sequence([5, 7, 8], "either")
    assert is_sequence([1, 9, 2, 7], "either")
    assert not is_sequence([1, 9, 2, 6], "either")
    assert is_sequence([6, 5], "forward")  # two tiles: either order always


# -- §3 scoring, hand-worked on the classic layout ---------------------------------------------
def test_first_play_875_on_the_centre_doubles() -> None:
    result = evaluate_play(Position(), plays("8G8, 7H8, 5I8"))
    # 8 + 7 + 5 = 20, H8 is 2X under a new tile: 40
    assert result.legal and result.score == 40
    (seq,) = result.sequences
    assert seq.to_json() == {
        "cells": ["G8", "H8", "I8"],
        "values": [8, 7, 5],
        "points": 40,
        "premiums": ["H8 2X"],
    }


def test_7291_down_the_centre_column() -> None:
    result = evaluate_play(Position(), plays("7H8 2H9 9H10 1H11"))
    assert result.legal and result.score == (7 + 2 + 9 + 1) * 2


def test_a_blank_scores_zero_and_keeps_its_number() -> None:
    result = evaluate_play(Position(), plays("#=7H8 2H9 9H10 1H11"))
    assert result.legal and result.score == (0 + 2 + 9 + 1) * 2
    position = Position().apply(plays("#=7H8 2H9 9H10 1H11"))
    after = evaluate_play(position, plays("6G8"))  # 6 7: a pair with the blank's 7
    assert after.legal and after.score == 6  # the blank still scores 0; H8's 2X was used


def test_number_premium_counts_only_the_new_tile() -> None:
    position = board("8G8, 7H8, 5I8")
    result = evaluate_play(position, plays("6I9"))
    # column I: 5 and 6; I9 is 2*: 5 + 6 * 2 = 17
    assert result.legal and result.score == 17
    assert result.sequences[0].number_premiums == ((parse_square("I9"), "2*"),)


def test_one_play_scores_every_sequence_it_makes() -> None:
    position = board("8G8, 7H8, 5I8")
    result = evaluate_play(position, plays("9G9, 8H9"))
    # row 9: 98 with G9 on 2*: 18 + 8 = 26; column G: 8 + 9*2 = 26; column H: 7 + 8 = 15
    assert result.legal
    assert sorted(s.points for s in result.sequences) == [15, 26, 26]
    assert result.score == 67


def test_all_seven_tiles_earn_the_bonus() -> None:
    result = evaluate_play(Position(), plays("1H5 1H6 2H7 3H8 5H9 8H10 3H11"))
    assert result.legal and result.bonus == 100
    assert result.score == (1 + 1 + 2 + 3 + 5 + 8 + 3) * 2 + 100


def test_sequence_premiums_multiply_and_are_not_used_twice() -> None:
    layout = Layout("test", {parse_square("H8"): "2X", parse_square("I8"): "3X", parse_square("J8"): "3*"})
    first = evaluate_play(Position(), plays("1H8 2I8"), layout)
    assert first.score == (1 + 2) * 2 * 3
    later = evaluate_play(Position().apply(plays("1H8 2I8")), plays("3J8"), layout)
    assert later.legal and later.score == 1 + 2 + 3 * 3


# -- §2 every kind of broken placement, with its rule and squares ----------------------------
@pytest.mark.parametrize(
    ("before", "play", "rule", "places"),
    [
        ((), "7H8 8H16", RULE_ON_BOARD, ["H16"]),
        ((), "7H8 8P8", RULE_ON_BOARD, ["P8"]),
        ((), "7H8 8H8", RULE_ONE_PER_SQUARE, ["H8"]),
        (("8G8 7H8 5I8",), "6H8", RULE_EMPTY, ["H8"]),
        ((), "7H8 8I9", RULE_ONE_LINE, ["H8", "I9"]),
        ((), "7H8 8J8", RULE_UNBROKEN, ["I8"]),
        ((), "7H8", RULE_FIRST, ["H8"]),
        ((), "7G7 8H7", RULE_FIRST, ["G7", "H7"]),
        (("8G8 7H8 5I8",), "1A1 2A2", RULE_SHARE, ["A1", "A2"]),
        (("8G8 7H8 5I8",), "6J8", RULE_SEQUENCE, ["G8", "H8", "I8", "J8"]),
        (("8G8 7H8 5I8",), "5G9 4H9", RULE_SEQUENCE, ["G8", "G9"]),
        (("8G8 7H8 5I8",), "1F8", RULE_SEQUENCE, ["F8", "G8", "H8", "I8"]),
    ],
)
def test_broken_placements_name_rule_and_squares(before, play, rule, places) -> None:
    result = evaluate_play(board(*before), plays(play))
    assert not result.legal and result.score == 0
    assert result.violation.rule == rule
    assert list(result.violation.places) == places


def test_a_gap_filled_by_an_old_tile_is_unbroken() -> None:
    position = board("8G8, 7H8, 5I8")
    result = evaluate_play(position, plays("3H7 0H9"))  # column H: 3 7 0
    assert result.legal and result.score == 3 + 7 + 0


def test_either_direction_accepts_a_reversed_line() -> None:
    assert not evaluate_play(Position(), plays("5G8 7H8 8I8")).legal
    assert evaluate_play(Position(), plays("5G8 7H8 8I8"), direction="either").score == 40


# -- legal one-tile placements and blocked squares -------------------------------------------
def test_legal_placements_around_875() -> None:
    legal = legal_placements(board("8G8, 7H8, 5I8"))
    assert legal.values[parse_square("J8")] == frozenset({2})  # 7 + 5 = 12
    assert legal.values[parse_square("F8")] == frozenset({9})  # x 8 7 needs x + 8 = 7 mod 10
    assert legal.values[parse_square("H7")] == frozenset({6, 8})
    assert parse_square("A1") not in legal.values and parse_square("A1") not in legal.blocked


def test_a_square_between_two_lines_can_be_blocked() -> None:
    # G8 = 1 and I8 = 5 with H8 empty... H8 must lie between 1 and 5 in a 3-line 1 x 5: x = 4 (1+4=5);
    # H7 = 0 and H9 = 0 above and below: 0 x 0 needs x = 0. So H8 takes no number.
    position = Position().apply(plays("1G8 5I8 0H7 0H9"))
    legal = legal_placements(position)
    assert parse_square("H8") in legal.blocked
    assert parse_square("H8") not in legal.values


def test_empty_board_has_no_one_tile_play() -> None:
    legal = legal_placements(Position())
    assert not legal.values and not legal.blocked


def test_classic_layout_counts() -> None:
    layout = classic_layout()
    assert [len(layout.squares(k)) for k in ("3X", "2X", "3*", "2*")] == [8, 17, 12, 24]
