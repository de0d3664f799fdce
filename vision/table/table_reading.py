"""One photo of a board-less game's table read into games.md's "Reading a table" JSON.

Entry: :func:`read_table` (``tilescribe read IMAGE --game superwild|holominoes``). Super Wild:
``{"tiles": [{"tile": "W", "x": 0, "y": 0}, ...]}`` (vision.table.superwild_read); Holominoes:
``{"tiles": [{"tile": "132", "q": 1, "r": 0, "first": "E"}, ...]}`` (vision.table.holominoes_read);
both with ``"ms"``, the reading's own time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.games import TABLE_GAMES, canonical_name
from vision.reader.model import TileReader
from vision.table.holominoes_read import read_holominoes
from vision.table.superwild_read import read_superwild


@dataclass(frozen=True, slots=True)
class TableReading:
    """A table read.

    Attributes:
        game: "Super Wild" or "Holominoes".
        tiles: games.md's tiles list, in the game's notation.
        problems: one sentence per tile seen and left out.
        ms: the reading's own time, milliseconds.
        alternatives: a tile placed, in the game's notation (``R8@3,0``, ``256@1,0/E``) -> its
            likeliest other readings on the same place, each with the reader's probability over the
            reading taken, best first (SuperWildReading / HolominoesReading.alternatives); not
            part of the JSON.
    """

    game: str
    tiles: tuple[dict[str, Any], ...]
    problems: tuple[str, ...]
    ms: float
    alternatives: dict[str, tuple[tuple[str, float], ...]]

    def to_json(self) -> dict[str, Any]:
        """``{"tiles": [...], "ms": 85.0}`` (games.md "Reading a table")."""
        return {"tiles": list(self.tiles), "ms": round(self.ms, 1)}


def table_game(name: str) -> str | None:
    """The registered name of a game read from a bare table, None for another known game.

    Raises:
        ValueError: no game of that name (engine.games.canonical_name).
    """
    game = canonical_name(name)
    return game if game in TABLE_GAMES else None


def read_table(game: str, image: np.ndarray, reader: TileReader) -> TableReading:
    """Read the tiles of a board-less game's table on one photo.

    Args:
        game: "Super Wild" or "Holominoes" (any spelling engine.games.canonical_name takes).
        image: the photo, BGR uint8 H x W x 3, the table seen from above at any turn.
        reader: the learned tile reader (loaded once by the caller; its loading is not timed).

    Returns:
        the tiles in games.md's notation, the tiles left out, the time taken.

    Raises:
        ValueError: not a table game.
        TableFindError: a photo the finder cannot search.
        GridError: Super Wild with no Super Wild seen (the grid is counted from it).
    """
    name = table_game(game)
    start = time.perf_counter()
    if name == "Super Wild":
        sw = read_superwild(image, reader)
        tiles, problems, alternatives = sw.grid.to_json()["tiles"], sw.grid.problems, sw.alternatives
    elif name == "Holominoes":
        holo = read_holominoes(image, reader)
        tiles, problems, alternatives = holo.grid.to_json()["tiles"], holo.grid.problems, holo.alternatives
    else:
        raise ValueError(f"{game!r} is not read from a bare table; table games: {', '.join(TABLE_GAMES)}")
    ms = (time.perf_counter() - start) * 1000
    return TableReading(name, tuple(tiles), tuple(problems), ms, alternatives)
