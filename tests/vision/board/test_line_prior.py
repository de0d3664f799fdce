"""The line rule as a prior for a whole-board reading (§2-2): an unsure misread that breaks a line
is replaced by the reader's alternative that keeps it, a sure reading is kept as read."""

from __future__ import annotations

import math

import pytest

from engine.hexgrid import Board, Hex, parse_address
from vision.board.line_prior import LINE_PENALTY, decode_lines

BOARD = Board.hexagon(3)
WILD = frozenset({"#", "joker"})


def value_of(cell: Hex, face: str) -> int | None:
    if face == "marker":
        return 0 if cell == Hex(0, 0) else None
    return int(face) if face.isdigit() and int(face) < 13 else None


def line(*addresses_and_faces):
    """Cells along one line of the board with the reader's alternatives for each."""
    return {parse_address(a): alternatives for a, alternatives in addresses_and_faces}


def decode(cells):
    return decode_lines(cells, BOARD, 13, value_of, WILD.__contains__)


# A0, H1, H2, H4 lie on one straight line (the "positive" line direction through A0).
STRAIGHT = ("A0", "H1", "H2", "H4")


def test_cells_form_one_line_on_the_board():
    cells = [parse_address(a) for a in STRAIGHT]
    steps = {(b.q - a.q, b.r - a.r) for a, b in zip(cells, cells[1:], strict=False)}
    assert len(steps) == 1, "the test's cells must lie on one line"


def test_an_unsure_misread_that_breaks_a_line_takes_the_alternative_that_keeps_it():
    cells = line((STRAIGHT[0], [("1", 0.99)]), (STRAIGHT[1], [("3", 0.98)]),
                 (STRAIGHT[2], [("8", 0.6), ("5", 0.3), ("6", 0.1)]), (STRAIGHT[3], [("7", 0.97)]))
    out = decode(cells)
    assert out[parse_address(STRAIGHT[2])][0] == "5"
    assert out[parse_address(STRAIGHT[2])][1] > 0.8  # the lines make the alternative far surer than 0.3
    assert [out[parse_address(a)][0] for a in STRAIGHT] == ["1", "3", "5", "7"]


def test_a_sure_reading_that_breaks_a_line_is_kept():
    # the alternative that would mend the line has far less than exp(-LINE_PENALTY) of the first
    unlikely = 0.9 * math.exp(-(LINE_PENALTY + 1))
    cells = line((STRAIGHT[0], [("1", 0.99)]), (STRAIGHT[1], [("3", 0.98)]),
                 (STRAIGHT[2], [("8", 0.9), ("5", unlikely)]), (STRAIGHT[3], [("7", 0.97)]))
    out = decode(cells)
    assert out[parse_address(STRAIGHT[2])][0] == "8"


def test_a_line_that_holds_is_left_alone_and_a_wild_tile_breaks_nothing():
    cells = line((STRAIGHT[0], [("2", 0.7), ("7", 0.3)]), (STRAIGHT[1], [("#", 0.8), ("8", 0.2)]),
                 (STRAIGHT[2], [("6", 0.9), ("9", 0.1)]), (STRAIGHT[3], [("8", 0.95)]))
    out = decode(cells)
    assert [out[parse_address(a)][0] for a in STRAIGHT] == ["2", "#", "6", "8"]


def test_a_face_of_no_value_is_a_suspect_even_off_a_line():
    # the modulus marker lies on A0 only (§8); elsewhere its reading yields to the alternative
    cells = line(("M2", [("marker", 0.5), ("11", 0.4)]), ("A0", [("marker", 0.9), ("8", 0.1)]))
    out = decode(cells)
    assert out[parse_address("M2")][0] == "11" and out[parse_address("A0")][0] == "marker"


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="offered no face"):
        decode({parse_address("H1"): []})
    with pytest.raises(ValueError, match="modulus"):
        decode_lines({}, BOARD, 0, value_of, WILD.__contains__)


def test_a_line_is_not_mended_by_calling_a_tile_wild():
    """A wild tile fits any line, so the decoder takes one only when the reader put it first."""
    cells = line((STRAIGHT[0], [("1", 0.99)]), (STRAIGHT[1], [("3", 0.98)]),
                 (STRAIGHT[2], [("8", 0.6), ("#", 0.35), ("5", 0.05)]), (STRAIGHT[3], [("7", 0.97)]))
    assert decode(cells)[parse_address(STRAIGHT[2])][0] == "5"
    read_wild = line((STRAIGHT[0], [("1", 0.99)]), (STRAIGHT[1], [("#", 0.7), ("8", 0.3)]),
                     (STRAIGHT[2], [("5", 0.9)]), (STRAIGHT[3], [("7", 0.97)]))
    assert decode(read_wild)[parse_address(STRAIGHT[1])][0] == "#"
