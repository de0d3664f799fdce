"""One photo of a board-less game's table read into games.md's "Reading a table" JSON.

Entry: :func:`read_table` (a :class:`TableConfig` and a photo -> a :class:`TableReading`; ``tilescribe
read IMAGE --game superwild|holominoes``). Super Wild:
``{"tiles": [{"tile": "W", "x": 0, "y": 0}, ...]}`` (vision.table.superwild_read); Holominoes:
``{"tiles": [{"tile": "132", "q": 1, "r": 0, "first": "E"}, ...]}`` (vision.table.holominoes_read);
both with ``"ms"``, the reading's own time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.games import TABLE_GAMES, canonical_name
from vision.reader import tile_reader
from vision.reader.model import TileReader
from vision.table.finder import TileFinder, tile_finder
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


@dataclass(frozen=True, slots=True, eq=False)
class TableConfig:
    """Everything a table read needs besides the photo.

    Attributes:
        game: "Super Wild" or "Holominoes" (any spelling engine.games.canonical_name takes; kept
            as the registered name).
        reader: the learned tile reader (by default vision.reader.tile_reader(), the shipped model
            loaded once a process); its loading is not part of a reading's time.
        finder: the tile finder (by default vision.table.finder.tile_finder(), the shipped model
            loaded once a process), likewise.

    Raises:
        ValueError: no game of that name, or a game not read from a bare table.
    """

    game: str
    reader: TileReader = field(default_factory=tile_reader)
    finder: TileFinder = field(default_factory=tile_finder)

    def __post_init__(self) -> None:
        name = table_game(self.game)
        if name is None:
            raise ValueError(f"{self.game!r} is not read from a bare table; table games: "
                             f"{', '.join(TABLE_GAMES)}")
        object.__setattr__(self, "game", name)


def read_table(config: TableConfig, image: np.ndarray) -> TableReading:
    """Read the tiles of a board-less game's table on one photo.

    Args:
        config: the game and the reader.
        image: the photo, BGR uint8 H x W x 3, the table seen from above at any turn.

    Returns:
        the tiles in games.md's notation, the tiles left out, the time taken.

    Raises:
        FinderError: a photo the finder cannot search, or its model missing or damaged.
        GridError: Super Wild with no Super Wild seen (the grid is counted from it).
    """
    reader, finder = config.reader, config.finder
    start = time.perf_counter()
    if config.game == "Super Wild":
        sw = read_superwild(image, reader, finder)
        tiles, problems, alternatives = sw.grid.to_json()["tiles"], sw.grid.problems, sw.alternatives
    else:
        holo = read_holominoes(image, reader, finder)
        tiles, problems, alternatives = holo.grid.to_json()["tiles"], holo.grid.problems, holo.alternatives
    ms = (time.perf_counter() - start) * 1000
    return TableReading(config.game, tuple(tiles), tuple(problems), ms, alternatives)
