"""Text pictures of boards: round trip, and positions drawn as the seeds' figures."""

from __future__ import annotations

import pytest

from engine.asciiboard import format_board, parse_board
from engine.game import Game
from engine.hexgrid import Board, parse_address
from engine.position import Position
from engine.randomgame import random_game
from engine.settings import Settings
from engine.tiles import parse_placements

FIGURE_2I = """
          .   .   .   .   .
        .   .   .   .   .   .
      .   .   .   .   .   .   .
    .   .   .   .   .   .   .   .
  .   .   4   6   1   .   0   2   4
    .   .   .   .   .   .   .   .
      .   .   .   .   .   .   .
        .   .   .   .   .   .
          .   .   .   .   .
"""


def test_figure_2i_from_a_picture_marks_m1_blocked():
    board, tiles = parse_board(FIGURE_2I)
    assert board == Board.hexagon(4)
    assert {str(k): v.value for k, v in tiles.items()} == {
        str(parse_address(a)): v
        for a, v in [("B2", 4), ("B1", 6), ("A0", 1), ("M2", 0), ("M4", 2), ("M7", 4)]
    }
    game = Game(Settings(modulus=7, board=board), Position(tiles))
    picture = format_board(board, game.position, game.blocked_cells())
    assert picture.splitlines()[4].split() == [".", ".", "4", "6", "1", "x", "0", "2", "4"]


def test_round_trip_with_wilds_marker_and_truncation():
    board = Board.truncated(3, ["B4", "M6"])
    settings = Settings(modulus=12, board=board, wild_policy="D", marker=True)
    game = Game(settings)
    game.play(parse_placements("7B1 #=5M1"))
    text = format_board(board, game.position)
    again_board, tiles = parse_board(text)
    assert again_board == board and tiles == dict(game.position)


def test_random_positions_round_trip():
    game, _ = random_game(Settings(modulus=13, board=Board.hexagon(6)), 20, seed=4)
    board, tiles = parse_board(format_board(game.settings.board, game.position))
    assert board == game.settings.board and tiles == dict(game.position)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (". .\n. . .\n", "odd number of rows"),
        ("  . .\n. .\n  . .\n", "line 2: row 0"),
        ("  . q\n. . .\n  . .\n", "line 1: 'q'"),
    ],
)
def test_bad_pictures_name_the_line(text, message):
    with pytest.raises(ValueError, match=message):
        parse_board(text)
