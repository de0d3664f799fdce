"""The face vocabulary: every face a tile of the four games can show, defined once.

A face is a string. One vocabulary serves every game, so the one reader reads all of them:

- "0".."19": a number (MODLINSEQ 0..m-1, §1-3; Yushino 0..9; Super Wild and Rummikub 1..13;
  a Holominoes corner 1..6);
- "#": a wild tile printed "#" or left blank (MODLINSEQ §7-1), and Yushino's blank;
- "marker": MODLINSEQ's modulus marker (§8);
- "joker": a Rummikub joker or the Super Wild;
- "6/9": a Super Wild 6/9, printed so that it reads the same either way up (games.md);
- "none": no tile face (an empty cell, the table, a scratch or a logo).

Colours are those of Rummikub-style sets: "K" (black), "B" (blue), "O" (orange), "R" (red);
"-" for a tile whose set has no colours.
"""

from __future__ import annotations

#: Every number face, "0".."19".
NUMBER_FACES: tuple[str, ...] = tuple(str(v) for v in range(20))
WILD_FACE = "#"
MARKER_FACE = "marker"
JOKER_FACE = "joker"
SIX_NINE_FACE = "6/9"
NOT_A_FACE = "none"

#: The faces of the printed tiles MODLINSEQ and Rummikub sets show (no "6/9", no "none").
TILE_FACES: tuple[str, ...] = (*NUMBER_FACES, WILD_FACE, MARKER_FACE, JOKER_FACE)
#: The faces that stand for any value (§7-1): the wild tile and the joker.
WILD_FACES: frozenset[str] = frozenset({WILD_FACE, JOKER_FACE})

#: Faces less probable than this are not offered as alternatives by either reader. Every face
#: above it is: the line prior (vision/board/line_prior.py) may need a face the classifier ranked
#: far down when only it keeps the lines legal (a held-out "7" read "4", "3", "12", "0", "7"). With
#: the glyph reader, five alternatives left 121 misreads on TRAIN-style games where all of them
#: leave 117 (bench_read's held-out games: 166 -> 95).
MIN_ALTERNATIVE = 1e-4

#: The model's face classes, in the order of its face output.
FACES: tuple[str, ...] = (*NUMBER_FACES, WILD_FACE, MARKER_FACE, JOKER_FACE, SIX_NINE_FACE, NOT_A_FACE)

#: The model's colour classes, in the order of its colour output; "-" is no colour.
COLOURS: tuple[str, ...] = ("K", "B", "O", "R", "-")
NO_COLOUR = "-"

#: Colour letters and the colour names of the labelled photos and the simulator's inks.
COLOUR_NAMES: dict[str, str] = {"K": "black", "B": "blue", "O": "orange", "R": "red"}
