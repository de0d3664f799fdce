"""A reading of the table in the transcript's frame, and a correction made there back in the reading's.

The camera reads a layout in its own frame (games.md "Reading a table"); the rules bring it into the
transcript's frame before judging a turn, and the kiosk's maps draw that frame. A player who taps a
tile on a map and says what it truly is speaks in the transcript's frame, while a correction
(tilescribe.game_table.GameTable.correct_tile) names the reading's tile and what the reading should
have said. Per game:

- Yushino: the printed board fixes the frame; a reading is in the transcript's frame already;
- Super Wild: a quarter turn and a shift (engine.superwild.table_turn.aligned); a correction keeps
  the tile's place and changes the tile;
- Holominoes: a turn by a third and a shift (engine.holominoes.table_turn.aligned); a correction
  keeps the tile's cell, and its numbers turn with the frame (the corner of its first number).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from engine.games import canonical_name
from engine.holominoes.geometry import NUMBERED
from engine.holominoes.table_turn import aligned as holominoes_aligned
from engine.holominoes.tiles import Placement, format_placement, parse_placement
from engine.superwild.table_turn import aligned as superwild_aligned
from engine.superwild.tiles import Move, Pos, format_move, parse_move


def aligned_tiles(game: str, reference: Collection[str], seen: Sequence[str]) -> dict[str, str]:
    """Each tile of ``seen`` -> the same tile in the frame of ``reference`` (the engine's alignment).

    Args:
        game: "Yushino", "Super Wild" or "Holominoes" (any spelling engine.games.canonical_name takes).
        reference: layout tokens in the frame wanted (``rules.layout(text)``: the transcript's).
        seen: layout tokens in the reading's frame (``R7@3,0``, ``132@1,0/E``; Yushino ``7H8``).
            A Super Wild tile on a place an earlier one of ``seen`` holds is left out.

    Raises:
        ValueError: an unknown game, or a token that is not a placement of the game (names it).
    """
    name = canonical_name(game)
    if name == "Yushino":
        return {word: word for word in seen}
    if name == "Super Wild":
        before = {m.pos: m.tile for m in map(parse_move, reference)}
        words: dict[Pos, str] = {}
        for word in seen:
            words.setdefault(parse_move(word).pos, word)
        # aligned() keeps the order of the layout it is given: its n-th tile is the n-th seen
        after = superwild_aligned(before, {p: parse_move(w).tile for p, w in words.items()})
        pairs = zip(words.values(), after.items(), strict=True)
        return {word: format_move(Move(t, p)) for word, (p, t) in pairs}
    if name == "Holominoes":
        placed = holominoes_aligned(map(parse_placement, reference), map(parse_placement, seen))
        return {word: format_placement(p) for word, p in zip(seen, placed, strict=True)}
    raise ValueError(f"{name} is read cell by cell on its hex board, not as a layout")


def as_seen(game: str, seen: str, aligned: str, true: str) -> str:
    """A correction made in the transcript's frame, in the frame of the reading.

    Args:
        game: as for :func:`aligned_tiles`.
        seen: the tile read (reading's frame), ``aligned`` once in the transcript's frame.
        aligned: ``seen`` in the transcript's frame (from :func:`aligned_tiles`).
        true: what truly lies where ``aligned`` lies, in the transcript's frame (``R7@3,0``,
            ``142@1,0/E``, ``#=7H9``), or ``""`` for no tile.

    Returns:
        what the reading should have said instead of ``seen`` (``""`` for no tile).

    Raises:
        ValueError: an unknown game, a token that is not a placement of the game, or ``true`` on
            another place than ``aligned`` (the message names both).
    """
    name = canonical_name(game)
    if not true or name == "Yushino":
        return true
    if name == "Super Wild":
        was, now = parse_move(aligned), parse_move(true)
        if was.pos != now.pos:
            raise ValueError(f"correction of {aligned} names another place: {true}")
        return format_move(Move(now.tile, parse_move(seen).pos))
    if name == "Holominoes":
        read, placed, truly = parse_placement(seen), parse_placement(aligned), parse_placement(true)
        if placed.cell != truly.cell:
            raise ValueError(f"correction of {aligned} names another cell: {true}")
        thirds = NUMBERED.index(placed.first) - NUMBERED.index(read.first)
        first = NUMBERED[(NUMBERED.index(truly.first) - thirds) % 3]
        return format_placement(Placement(truly.tile, read.cell, first))
    raise ValueError(f"{name} is read cell by cell on its hex board, not as a layout")
