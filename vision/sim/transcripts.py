"""From a game transcript (engine.transcript) to the tiles a simulated recording puts down.

Each transcript turn becomes one simulated turn; passes and freezes put nothing down. A tile's
printed face: a natural shows its value, a wild tile "#" (its declared value is not printed,
§7-2), and the modulus marker "marker" (§8: with ``[Marker "yes"]`` it lies on A0 from the start).
With the "rummikub" tile set faces are those of Rummikub tiles: value 0 shows the modulus (13 under
modulus 13) and a wild tile is the joker. A Yushino transcript (engine.yushino.transcript) lays
its tiles' faces, "#" for a blank; exchanges and passes lay nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.hexgrid import format_address
from engine.tiles import Tile
from engine.transcript import Transcript
from engine.yushino.board import format_square
from engine.yushino.transcript import Transcript as YushinoTranscript
from vision.sim.options import TILESETS
from vision.sim.timeline import SimPlacement


@dataclass(frozen=True, slots=True)
class GamePlan:
    """What a simulated recording of a transcript shows.

    Attributes:
        initial: tiles on the board before the first turn (the modulus marker, §8).
        turns: per transcript turn, the tiles put down (empty for a pass or freeze).
        players: number of players (seats around the board).
    """

    initial: tuple[SimPlacement, ...]
    turns: tuple[tuple[SimPlacement, ...], ...]
    players: int


def face_of(tile: Tile, modulus: int, tileset: str = "modlinseq") -> str:
    """The printed face of a tile.

    Raises:
        ValueError: an unknown tile set, or a value the set does not print (names both).
    """
    if tileset not in TILESETS:
        raise ValueError(f"unknown tile set {tileset!r}; expected one of {TILESETS}")
    if tile.is_marker:
        return "marker"
    if tile.is_wild:
        return "joker" if tileset == "rummikub" else "#"
    value = tile.value if tile.value is not None else 0
    if tileset == "rummikub":
        value = value or modulus
        if not 1 <= value <= 13:
            raise ValueError(f"value {tile.value} has no Rummikub tile under modulus {modulus}")
    return str(value)


def plan_game(transcript: Transcript, tileset: str = "modlinseq") -> GamePlan:
    """The tiles each turn of a transcript puts down.

    Raises:
        ValueError: a tile the tile set cannot show (names the turn's line and the cell).
    """
    settings = transcript.settings
    initial = (SimPlacement("A0", "marker"),) if settings.marker else ()
    turns = []
    for turn in transcript.turns:
        placed = []
        for p in turn.placements:
            address = format_address(p.cell)
            try:
                placed.append(SimPlacement(address, face_of(p.tile, settings.modulus, tileset)))
            except ValueError as exc:
                raise ValueError(f"line {turn.line}: cell {address}: {exc}") from exc
        turns.append(tuple(placed))
    return GamePlan(initial, tuple(turns), len(settings.players))


def plan_yushino(transcript: YushinoTranscript) -> GamePlan:
    """The tiles each turn of a Yushino transcript lays (games.md: ``7H8``, ``#=7H9`` shows "#")."""
    turns = tuple(tuple(SimPlacement(format_square(p.square), p.tile.face) for p in line.turn.placements)
                  for line in transcript.turns)
    return GamePlan((), turns, len(transcript.players))
