"""The simulator's named choices (tile style splits, tile shapes, tile sets), apart from the
rendering so that the command line can offer them without loading the image libraries."""

from __future__ import annotations

from typing import Literal

Split = Literal["train", "held_out"]
#: Tile style splits: the styles the reader trains on, and those held out to test it.
SPLITS: tuple[Split, ...] = ("train", "held_out")
Shape = Literal["pentagon", "rectangle", "photo"]
#: Tile shapes: drawn pentagons or rectangles, or real tile photos.
SHAPES: tuple[Shape, ...] = ("pentagon", "rectangle", "photo")
#: The faces printed on the tiles: MODLINSEQ's own, or Rummikub's (13 for 0, the joker as wild).
TILESETS: tuple[str, ...] = ("modlinseq", "rummikub")
