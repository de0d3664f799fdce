"""§12 wrap-around on rectangular boards: addresses, lines across the edges, loops, diagonals
(modlinseq-10-12.md's examples, modulus 18)."""

from __future__ import annotations

import pytest

from engine.asciiboard import format_board
from engine.errors import RULE_ACROSS_EDGE, RULE_FIRST_TURN_A0, RULE_LOOP, RULE_STRAIGHT_LINE
from engine.game import Game
from engine.position import Position
from engine.settings import Settings
from engine.squaregrid import RectBoard, Square, format_square, parse_board_tag, parse_square
from engine.tiles import parse_placements
from engine.transcript import format_transcript, parse_transcript, replay


def _game(board: RectBoard, tiles: str = "", modulus: int = 18, **extra) -> Game:
    settings = Settings(modulus=modulus, board=board, players=("Ana", "Bo"), **extra)
    return Game(settings, Position(parse_placements(tiles, board)) if tiles else None)


def _turn(board: RectBoard, text: str):
    return parse_placements(text, board)


@pytest.mark.parametrize(
    ("text", "cell"), [("A1", Square(0, 0)), ("c5", Square(2, 4)), ("AB12", Square(27, 11))]
)
def test_square_addresses_round_trip(text, cell):
    assert parse_square(text) == cell
    assert format_square(cell) == text.upper()


@pytest.mark.parametrize("bad", ["A0", "5C", "ABC1", "A", ""])
def test_bad_square_addresses(bad):
    with pytest.raises(ValueError, match="not a square address"):
        parse_square(bad)


def test_board_tag_and_limits():
    assert parse_board_tag("rect 12x8") == (12, 8)
    assert RectBoard(12, 8).tag() == "rect 12x8" and RectBoard(12, 8).centre == parse_square("G5")
    with pytest.raises(ValueError, match="rect WIDTHxHEIGHT"):
        parse_board_tag("hex 9")
    with pytest.raises(ValueError, match="width must be 3..100"):
        RectBoard(101, 8)


def test_a_line_across_the_edge_scores_10():
    board = RectBoard(8, 5, wrap=True)
    game = _game(board)
    assert game.play(_turn(board, "0E3, 1F3, 2G3, 3H3")).score == 3  # through the centre E3
    legal = game.legal_values()
    assert legal[parse_square("A3")] == {4}  # A3 follows H3 across the edge
    assert legal[parse_square("D3")] == {17}
    result = game.play(_turn(board, "4A3, 5B3"))
    assert result.score == 10  # 0 ~ 1 ~ 2 ~ 3 ~ 4 ~ 5
    assert result.sequences[0].tilde() == "0E3 ~ 1F3 ~ 2G3 ~ 3H3 ~ 4A3 ~ 5B3"


def test_without_wrap_the_edge_ends_the_line():
    board = RectBoard(8, 5)
    game = _game(board)
    game.play(_turn(board, "0E3, 1F3, 2G3, 3H3"))
    assert game.legal_values()[parse_square("A3")] == set(range(18))
    assert game.evaluate(_turn(board, "4A3")).error.rule == "§3-3 abut an old tile"


def test_seven_tiles_of_step_3_across_the_top_and_bottom_score_15():
    board = RectBoard(8, 8, wrap=True)
    game = _game(board)
    result = game.play(_turn(board, "14E5, 17E6, 2E7, 5E8, 8E1, 11E2, 14E3"))
    assert result.legal and result.score == 15
    assert result.sequences[0].msa == "M18-S3-A2"


def test_a_diagonal_across_the_corner_scores_28_when_diagonals_count():
    turn = "13F6, 15G7, 17H8, 1I9, 3J10, 5A1, 7B2, 9C3, 11D4"
    board = RectBoard(10, 10, wrap=True, diagonals=True)
    result = _game(board).play(_turn(board, turn))
    assert result.legal and result.score == 28
    plain = RectBoard(10, 10, wrap=True)
    refused = _game(plain).evaluate(_turn(plain, turn))
    assert refused.error.rule == RULE_STRAIGHT_LINE and "diagonals" in refused.error.message


def test_runs_touching_opposite_edges_are_one_line():
    board = RectBoard(8, 5, wrap=True)
    game = _game(board, "3A1, 4B1, 5C1")
    result = game.evaluate(_turn(board, "6F1, 7G1, 8H1"))  # reads 6 ~ 7 ~ 8 ~ 3 ~ 4 ~ 5
    assert not result.legal and result.error.rule == RULE_ACROSS_EDGE
    assert result.error.addresses == ["F1", "G1", "H1", "A1", "B1", "C1"]
    assert "6 ~ 7 ~ 8 ~ 3 ~ 4 ~ 5" in result.error.message


@pytest.mark.parametrize(("bonus", "points"), [(0, 55), (7, 62)])
def test_a_loop_of_12_scores_55_plus_the_loop_bonus(bonus, points):
    board = RectBoard(12, 5, wrap=True)
    tiles = "0A1 3B1 6C1 9D1 12E1 15F1 0G1 3H1 6I1 9J1"  # step 3: period 6, 12 = 2 periods
    game = _game(board, tiles, loop_bonus=bonus)
    result = game.play(_turn(board, "12K1, 15L1"))
    assert result.legal and result.score == points
    (seq,) = result.sequences
    assert seq.loop and seq.length == 12


def test_a_loop_that_is_not_a_whole_number_of_periods_is_illegal_and_blocks():
    board = RectBoard(8, 5, wrap=True)
    game = _game(board, "0A1 1B1 2C1 3D1 4E1 5F1 6G1")  # step 1 has period 18, not 8
    h1 = parse_square("H1")
    assert game.legal_values()[h1] == set() and h1 in game.blocked_cells()
    result = game.evaluate(_turn(board, "7H1"))
    assert not result.legal and result.error.rule == RULE_LOOP
    nine = _game(RectBoard(9, 5, wrap=True), "0A1 1B1 2C1 3D1 4E1 5F1 6G1 7H1", modulus=9)  # period 9
    assert nine.legal_values()[parse_square("I1")] == {8}


def test_first_turn_covers_the_centre_cell():
    board = RectBoard(8, 5, wrap=True)
    result = _game(board).evaluate(_turn(board, "1A1, 2B1"))
    assert result.error.rule == RULE_FIRST_TURN_A0 and "E3" in result.error.message


def test_fibonacci_on_a_wrapping_board_reads_left_to_right():
    board = RectBoard(8, 5, wrap=True)
    game = _game(board, sequence="fibonacci", modulus=12)
    assert game.play(_turn(board, "1E3, 7F3, 8G3, 3H3, 11A3")).score == 6
    assert game.evaluate(_turn(board, "2D3")).error.rule == RULE_ACROSS_EDGE  # 2 ~ 1 ~ 7: 3 != 7


def test_rectangular_transcript_round_trip():
    text = """[Game "MODLINSEQ"]
[Modulus "18"]
[Board "rect 8x5"]
[Players "Ana, Bo"]
[Wrap "yes"]
[Diagonals "yes"]
[LoopBonus "5"]
1. Ana: 0E3, 1F3, 2G3, 3H3 {+3}
2. Bo: 4A3, 5B3 {+10}
"""
    transcript, errors = parse_transcript(text)
    assert errors == []
    board = transcript.settings.board
    assert board == RectBoard(8, 5, wrap=True, diagonals=True) and transcript.settings.loop_bonus == 5
    assert parse_transcript(format_transcript(transcript))[0] == transcript
    game, turns = replay(transcript)
    assert [t.result.score for t in turns] == [3, 10]
    assert transcript.settings.to_dict()["board"] == "rect 8x5"


def test_a_rectangular_board_as_a_text_picture():
    board = RectBoard(4, 3, wrap=True)
    game = _game(board, modulus=5)
    game.play(_turn(board, "1B2, 2C2, 3D2"))
    picture = format_board(board, game.position, game.blocked_cells())
    # A2 would close the row into a loop of 4, and step 1 has period 5: blocked
    assert picture == "  .   .   .   .\n  x   1   2   3\n  .   .   .   .\n"
    error = game.evaluate(_turn(board, "4A2")).error
    assert error.rule == RULE_LOOP and error.message.startswith("1 ~ 2 ~ 3 ~ 4 closes a loop of 4 tiles")
    assert error.addresses == ["B2", "C2", "D2", "A2"]
