"""The rules' prior on a whole read of Yushino's board: every line of tiles is a Yushino sequence (§2).

In a legal game every maximal row or column of two or more tiles is a valid sequence
(engine.yushino.rules.is_sequence): each play must leave the sequences it touches valid, and the
others were valid before. Where the reader was unsure, the faces are chosen among its alternatives
so that the lines stay valid: each line in turn takes the valid sequence of numbers that is most
probable under the reader (a blank, "#", fits any number), the tiles it crosses counting what their
other line then becomes; a line keeps its faces as read when no valid sequence is more probable than
them by ``penalty`` (log-odds), so a clear reading of a broken line is still reported.

A blank stands for one number in both its lines; here it fits any number in each (blanks are two
tiles of the 96).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

import numpy as np

from engine.yushino.board import Square
from engine.yushino.rules import FORWARD, is_sequence
from vision.reader.faces import NUMBER_FACES, WILD_FACE

#: Log-odds against a read in which a line breaks §2: chosen by bench/bench_yushino_read.py --split
#: train --penalty P (40 TRAIN-font frames, 1378 tiles): wrong faces 55 at P=0, 7 at 2, 3 at 4, 9 at 8.
SEQUENCE_PENALTY = 4.0
#: Passes over the lines (each pass may change a crossing line's best choice).
PASSES = 4
#: A face the reader gives no probability stays finite in the log-scores.
_FLOOR = 1e-6


def decode_sequences(faces: Sequence[str], log_p: Mapping[Square, np.ndarray], direction: str = FORWARD,
                     penalty: float = SEQUENCE_PENALTY) -> dict[Square, str]:
    """The faces of a whole-board read chosen so that its lines are Yushino sequences (§2).

    Args:
        faces: the faces the columns of ``log_p`` stand for ("0".."9" and "#").
        log_p: per occupied square, float (shape: [len(faces)]) log-probabilities of its faces.
        direction: "forward" or "either" (engine.yushino.rules).
        penalty: log-odds against a line that breaks §2 (> 0).

    Returns:
        square -> face, for every square of ``log_p``.

    Raises:
        ValueError: ``penalty`` is not positive.
    """
    if penalty <= 0:
        raise ValueError(f"penalty must be > 0, got {penalty}")
    column = {f: k for k, f in enumerate(faces)}
    digits = [column.get(str(v)) for v in range(10)]
    blank = column.get(WILD_FACE)
    chosen = {sq: faces[int(np.argmax(p))] for sq, p in log_p.items()}
    lines = _lines(set(log_p))
    across = {sq: [line for line in lines if sq in line] for sq in log_p}

    def score(sq: Square, face: str) -> float:
        return float(log_p[sq][column[face]])

    def broken(line: tuple[Square, ...], fixed: Square | None = None, face: str = WILD_FACE) -> bool:
        return _breaks([face if sq == fixed else chosen[sq] for sq in line], direction)

    for _ in range(PASSES):
        changed = False
        for line in lines:
            # each tile's score for every face, less the penalty of the other line it then breaks
            cost = [{f: score(sq, f) - penalty * sum(broken(o, sq, f) for o in across[sq] if o is not line)
                     for f in faces} for sq in line]
            best = sum(c[chosen[sq]] for c, sq in zip(cost, line, strict=True)) - penalty * broken(line)
            pick: list[str] | None = None
            shows = [[_face_for(v, log_p[sq], digits, blank) for v in range(10)] for sq in line]
            for values in _sequences(len(line), direction):
                picked = [show[v] for show, v in zip(shows, values, strict=True)]
                total = sum(c[f] for c, f in zip(cost, picked, strict=True))
                if total > best + 1e-9:
                    best, pick = total, picked
            if pick is not None:
                changed |= any(chosen[sq] != f for sq, f in zip(line, pick, strict=True))
                chosen.update(zip(line, pick, strict=True))
        if not changed:
            break
    return chosen


def broken_lines(faces: Mapping[Square, str], direction: str = FORWARD) -> list[tuple[Square, ...]]:
    """The lines of tiles that are not Yushino sequences (§2); a blank ("#") fits any number.

    Args:
        faces: square -> face ("0".."9" or "#") of every tile on the board.
        direction: "forward" or "either" (engine.yushino.rules).

    Returns:
        Each broken line's squares, left to right or top to bottom; rows first.
    """
    return [line for line in _lines(set(faces)) if _breaks([faces[sq] for sq in line], direction)]


def _breaks(shown: Sequence[str], direction: str) -> bool:
    """Whether faces in a line break §2 (a blank fits any number)."""
    return WILD_FACE not in shown and not is_sequence([int(f) for f in shown], direction)


def _face_for(value: int, log_p: np.ndarray, digits: list[int | None], blank: int | None) -> str:
    """The face that shows ``value`` more probably: its digit, or a blank standing for it."""
    digit = digits[value]
    if blank is not None and (digit is None or log_p[blank] > log_p[digit]):
        return WILD_FACE
    return NUMBER_FACES[value]


@functools.cache
def _sequences(n: int, direction: str) -> tuple[tuple[int, ...], ...]:
    """Every valid sequence of ``n`` >= 2 numbers (§2): 20 pairs, or 100 (200 either way) longer runs."""
    if n == 2:
        return tuple((a, (a + d) % 10) for a in range(10) for d in (1, 9))
    runs = np.zeros((100, n), np.int64)
    runs[:, 0], runs[:, 1] = np.divmod(np.arange(100), 10)  # every first two numbers
    for i in range(2, n):
        runs[:, i] = (runs[:, i - 2] + runs[:, i - 1]) % 10
    if direction != FORWARD:
        runs = np.concatenate([runs, runs[:, ::-1]])
    out = {tuple(int(v) for v in run) for run in runs}
    return tuple(sorted(v for v in out if is_sequence(v, direction)))


def _lines(squares: set[Square]) -> list[tuple[Square, ...]]:
    """Every maximal row and column of two or more of ``squares``, left to right / top to bottom."""
    lines = []
    for along, (dc, dr) in ((0, (1, 0)), (1, (0, 1))):
        for sq in sorted(squares, key=lambda s: (s.row, s.col) if along == 0 else (s.col, s.row)):
            before = Square(sq.col - dc, sq.row - dr) if sq.col >= dc and sq.row >= dr else None
            if before in squares:
                continue  # not the start of its line
            run = [sq]
            while Square(run[-1].col + dc, run[-1].row + dr) in squares:
                run.append(Square(run[-1].col + dc, run[-1].row + dr))
            if len(run) >= 2:
                lines.append(tuple(run))
    return lines
