"""§10 fibonacciësque and §11 multiplicative games: turns, direction, scoring, legal values, the
settings' combinations and the transcript tags (modlinseq-10-12.md)."""

from __future__ import annotations

import pytest

from engine.errors import (
    RULE_ADDITION_DIRECTION,
    RULE_FACTOR_DIRECTION,
    RULE_FIBONACCI,
    RULE_MULTIPLICATIVE,
    RULE_NO_ZERO,
)
from engine.game import Game
from engine.hexgrid import Board, Hex, format_address, parse_address
from engine.position import Position
from engine.settings import Settings
from engine.tiles import parse_placements
from engine.transcript import format_transcript, parse_transcript, replay


def _game(modulus: int, sequence: str, tiles: str = "", **extra) -> Game:
    settings = Settings(modulus=modulus, sequence=sequence, players=("Ana", "Bo"), **extra)
    return Game(settings, Position(parse_placements(tiles)) if tiles else None)


# The three reading directions of §10 on the hex board, each with the example 1 ~ 7 ~ 8 ~ 3 ~ 11 ~ 2
# read from the first cell: left to right, upper right to lower left, lower right to upper left.
READINGS = [
    "1B2, 7B1, 8A0, 3M1, 11M2, 2M4",
    "1H4, 7H2, 8H1, 3A0, 11T1, 2T2",
    "1P4, 7P2, 8P1, 3A0, 11E1, 2E2",
]


@pytest.mark.parametrize("turn", READINGS)
def test_fibonacci_example_in_each_reading_direction_scores_as_section_2(turn):
    result = _game(12, "fibonacci").play(parse_placements(turn))
    assert result.legal and result.score == 10  # six tiles: table 2A's 10 points, kept for §10
    (seq,) = result.sequences
    assert seq.values == (1, 7, 8, 3, 11, 2) and seq.msa is None
    assert seq.tilde() == " ~ ".join(turn.split(", "))  # listed in reading order


@pytest.mark.parametrize("turn", READINGS)
def test_fibonacci_laid_the_other_way_is_illegal(turn):
    placements = parse_placements(turn)
    values = [p.tile.value for p in placements][::-1]  # the same cells, the values reversed
    reversed_turn = ", ".join(f"{v}{format_address(p.cell)}" for v, p in zip(values, placements, strict=True))
    result = _game(12, "fibonacci").evaluate(parse_placements(reversed_turn))
    assert not result.legal
    assert result.error.rule == RULE_ADDITION_DIRECTION
    assert "2 ~ 11 ~ 3 ~ 8 ~ 7 ~ 1" in result.error.message


def test_fibonacci_broken_line_and_legal_values():
    game = _game(12, "fibonacci")
    game.play(parse_placements("1B2, 7B1, 8A0"))
    legal = game.legal_values()
    assert legal[parse_address("M1")] == {3}  # 7 + 8 = 15 = 3
    assert legal[parse_address("B4")] == {6}  # 6 + 1 = 7: the cycle's term before 1
    result = game.evaluate(parse_placements("4M1"))
    assert not result.legal and result.error.rule == RULE_FIBONACCI
    assert [c for c in result.error.addresses] == ["B2", "B1", "A0", "M1"]


def test_fibonacci_any_two_tiles_even_zeros():
    game = _game(12, "fibonacci")
    assert game.play(parse_placements("0A0, 0M1")).score == 0
    assert game.play(parse_placements("0M2")).score == 1  # 0 ~ 0 ~ 0 is a sequence


def test_fibonacci_blocked_cell():
    # row, read left to right: 1B1 ~ 2A0 ~ M1 needs M1 = 3; negative slope, read from lower right to
    # upper left: M1 ~ 4H1 ~ 9(1,-2) needs M1 + 4 = 9, M1 = 5. No value fits: M1 is blocked (§2-2).
    far = format_address(Hex(1, -2))
    tiles = f"1B1 2A0 4H1 9{far}"
    game = _game(12, "fibonacci", tiles)
    m1 = parse_address("M1")
    assert game.legal_values()[m1] == set()
    assert m1 in game.blocked_cells()
    for v in range(12):  # brute force: no value on M1 gives a legal position
        with pytest.raises(ValueError, match="not fibonacciësque"):
            Game(game.settings, Position(parse_placements(f"{tiles} {v}M1")))
    assert game.legal_values()[parse_address("M2")] == set(range(12))  # not next to a tile


def test_multiplicative_example_mod_17_both_ways_and_zero():
    game = _game(17, "multiplicative")
    result = game.evaluate(parse_placements("1B2, 2B1, 4A0, 8M1, 16M2"))
    assert result.legal and result.score == 6 and result.sequences[0].values == (1, 2, 4, 8, 16)
    backward = game.evaluate(parse_placements("16B2, 8B1, 4A0, 2M1, 1M2"))
    assert backward.legal and backward.score == 6  # a prime modulus reads either way (factor 9)
    zero = game.evaluate(parse_placements("0A0, 1M1"))
    assert not zero.legal and zero.error.rule == RULE_NO_ZERO and zero.error.addresses == ["A0"]
    broken = game.evaluate(parse_placements("1B1, 2A0, 5M1"))
    assert not broken.legal and broken.error.rule == RULE_MULTIPLICATIVE
    assert 0 not in next(iter(game.legal_values().values()))


def test_multiplicative_composite_modulus_reads_forward_only():
    with pytest.raises(ValueError, match="prime modulus"):
        Settings(modulus=10, sequence="multiplicative")
    game = _game(10, "multiplicative", composite=True)
    result = game.evaluate(parse_placements("9B2, 8B1, 6A0, 2M1, 4M2"))
    assert result.legal and result.score == 6
    wrong = game.evaluate(parse_placements("4B2, 2B1, 6A0, 8M1, 9M2"))
    assert not wrong.legal and wrong.error.rule == RULE_FACTOR_DIRECTION
    two = game.evaluate(parse_placements("2A0, 5M1"))  # no factor takes 2 to 5 or 5 to 2 mod 10
    assert not two.legal and two.error.rule == RULE_MULTIPLICATIVE
    game.play(parse_placements("1B2, 2B1, 4A0, 8M1, 6M2"))
    assert game.legal_values()[parse_address("M4")] == {2}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"sequence": "geometric"}, "sequence must be one of"),
        ({"composite": True}, "multiplicative variation"),
        ({"sequence": "multiplicative", "modulus": 13, "marker": True}, "have no 0"),
        ({"sequence": "fibonacci", "wild_policy": "B", "modulus": 13}, "policy B"),
        ({"sequence": "multiplicative", "modulus": 12, "composite": True, "wild_policy": "A"}, "policy A"),
        ({"loop_bonus": 5}, "wrapping rectangular board"),
    ],
)
def test_refused_combinations(fields, message):
    with pytest.raises(ValueError, match=message):
        Settings(**fields)


def test_wild_tile_in_a_fibonacci_line_takes_its_value():
    game = _game(12, "fibonacci", wild_policy="E")
    result = game.play(parse_placements("1B2, #B1, 8A0"))
    assert result.legal and result.score == 0  # two naturals: length 2 (§7-1)
    assert game.wild_values()[parse_address("B1")] == {7}
    assert game.legal_values()[parse_address("M1")] == {3}
    mult = _game(13, "multiplicative", wild_policy="C")
    assert (
        mult.evaluate(parse_placements("2B1, #A0, 8M1")).error.rule == "§7-2 wild value resolution"
    )  # 4 or 9


def test_transcript_tags_round_trip_and_replay():
    text = """[Game "MODLINSEQ"]
[Modulus "10"]
[Order "4"]
[Players "Ana, Bo"]
[Sequence "multiplicative"]
[Composite "yes"]
1. Ana: 9B2, 8B1, 6A0, 2M1, 4M2 {+6}
2. Bo: 8M4 {+10}
"""
    transcript, errors = parse_transcript(text)
    assert errors == []
    assert transcript.settings.sequence == "multiplicative" and transcript.settings.composite
    assert parse_transcript(format_transcript(transcript))[0] == transcript
    game, turns = replay(transcript)
    assert [t.result.score for t in turns] == [6, 10] and game.scores == {"Ana": 6, "Bo": 10}
    assert transcript.settings.to_dict()["sequence"] == "multiplicative"
    assert "sequence" not in Settings(board=Board.hexagon(4)).to_dict()


@pytest.mark.parametrize(
    ("tags", "message"),
    [
        ('[Sequence "geometric"]', "sequence must be one of"),
        ('[Composite "maybe"]', "expected yes or no"),
        ('[Modulus "1000000"]', "out of range: 1 to 100"),
        ('[Order "5000"]', "out of range: 0 to 30"),
        ('[Board "rect 2x8"]', "width must be 3..100"),
        ('[Board "rect 1000x8"]', "width must be 3..100"),
        ('[Board "square"]', "rect WIDTHxHEIGHT"),
        ('[Wrap "yes"]', "needs a rectangular board"),
        ('[Board "rect 8x5"]\n[Bonus "9A"]', "hex boards"),
        ('[Board "rect 8x5"]\n[LoopBonus "5"]', "wrapping rectangular board"),
        ('[LoopBonus "99999"]', "out of range: 0 to 1000"),
    ],
)
def test_bad_tags_are_reported(tags, message):
    header = tags if tags.startswith("[Modulus") else f'[Modulus "13"]\n{tags}'
    _, errors = parse_transcript(f"{header}\n1. 1A0\n")
    assert any(message in e.message for e in errors), errors
