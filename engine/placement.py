"""Where a placement of a layout-read game lies, in the game's notation (games.md).

Yushino's square (``7H8``, ``#=7H9``, ``#H9`` -> ``H8``, ``H9``), Super Wild's position
(``R7@3,0`` -> ``3,0``; a move's destination), Holominoes' cell (``132@1,0/E`` -> ``1,0``): the
place a correction keeps and a map outlines.
"""

from __future__ import annotations

from engine.games import canonical_name
from engine.holominoes.geometry import format_cell
from engine.holominoes.tiles import parse_placement
from engine.superwild.tiles import format_pos, parse_move
from engine.yushino.board import format_square, parse_square
from engine.yushino.tiles import BLANK


def place_of(game: str, word: str) -> str:
    """Where the placement ``word`` of ``game`` lies (module docstring).

    Args:
        game: "Yushino", "Super Wild" or "Holominoes" (any spelling engine.games.canonical_name takes).
        word: a placement in the game's notation.

    Raises:
        ValueError: an unknown game, or not a placement of the game (the message quotes it).
    """
    name = canonical_name(game)
    if name == "Yushino":
        return format_square(parse_square(word.lstrip(BLANK + "=0123456789")))
    if name == "Super Wild":
        return format_pos(parse_move(word).target)
    if name == "Holominoes":
        return format_cell(parse_placement(word).cell)
    raise ValueError(f"{name} is read cell by cell on its hex board, not as a layout")
