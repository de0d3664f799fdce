"""The rules' prior on Yushino's board (§2): lines of tiles chosen among the reader's alternatives."""

from __future__ import annotations

import numpy as np
import pytest

from engine.yushino.board import parse_square
from vision.board.square_lines import SEQUENCE_PENALTY, decode_sequences
from vision.board.square_reader import YUSHINO_FACES


def log_p(spread: dict[str, float]) -> np.ndarray:
    """Log-probabilities over YUSHINO_FACES: the given faces, the rest sharing what is left."""
    rest = (1.0 - sum(spread.values())) / (len(YUSHINO_FACES) - len(spread))
    return np.log(np.array([spread.get(f, rest) for f in YUSHINO_FACES]))


def read(row: dict[str, dict[str, float]], direction: str = "forward") -> dict[str, str]:
    decoded = decode_sequences(YUSHINO_FACES, {parse_square(a): log_p(p) for a, p in row.items()}, direction)
    return {str(sq): face for sq, face in decoded.items()}


def test_an_unsure_face_is_read_as_the_line_needs():
    # G8 H8 I8: 2, then 8 or 3, then 5; 2 + 3 = 5 (§2), 2 + 8 = 0
    row = {"G8": {"2": 0.97}, "H8": {"8": 0.55, "3": 0.40}, "I8": {"5": 0.95}}
    assert read(row) == {"G8": "2", "H8": "3", "I8": "5"}


def test_a_clear_reading_of_a_broken_line_is_kept():
    row = {"G8": {"2": 0.97}, "H8": {"8": 0.999}, "I8": {"5": 0.95}}
    assert read(row) == {"G8": "2", "H8": "8", "I8": "5"}


def test_a_crossing_tile_weighs_both_its_lines():
    # H8 starts the row H8 I8 (differ by 1) and the column H8 H9 H10 (forward sums); 4 suits both
    tiles = {"H8": {"9": 0.5, "4": 0.45}, "I8": {"5": 0.9}, "H9": {"1": 0.9}, "H10": {"5": 0.9}}
    assert read(tiles)["H8"] == "4"


def test_a_blank_fits_any_number_and_either_direction_reads_backwards():
    assert read({"G8": {"#": 0.9}, "H8": {"7": 0.9}})["G8"] == "#"
    row = {"G8": {"8": 0.9}, "H8": {"3": 0.9}, "I8": {"5": 0.6, "1": 0.35}}
    assert read(row)["I8"] == "1"  # 8 + 3 = 11 -> 1
    # ? 3 9: forward needs 6 (improbable: 7 kept, the line reported broken); read right to left,
    # 9 + 3 = 12 -> 2, which the reader offered
    back = {"G8": {"7": 0.55, "2": 0.40}, "H8": {"3": 0.95}, "I8": {"9": 0.95}}
    assert read(back)["G8"] == "7" and read(back, "either")["G8"] == "2"


def test_the_penalty_must_be_positive():
    with pytest.raises(ValueError, match="penalty"):
        decode_sequences(YUSHINO_FACES, {}, penalty=0.0)
    assert SEQUENCE_PENALTY > 0
