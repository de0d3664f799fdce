"""What a simulated recording of a board-less game shows: the tiles of a Super Wild or Holominoes
transcript and, turn by turn, where each is laid or moved to (games.md "Super Wild", "Holominoes").

The table is followed as it lies, not as the rules judge it: every line's lays and moves are shown
as written (an illegal turn too); a line that cannot happen on a table (a tile moved from where
none lies, a tile laid where one lies, the same tile twice) is an error naming the line. Super
Wild starts with the Super Wild on 0,0; Holominoes with its ``[Start]`` tile, if any.

A tile's truth is written as a reading names it (games.md "Reading a table"): ``R7@3,0`` (a 6/9 as
its 6, ``R6@2,0``; the Super Wild ``W@0,0``), ``132@1,0/E``.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import TranscriptError
from engine.games import canonical_name
from engine.holominoes.tiles import Placement, Play, format_tile, parse_move
from engine.holominoes.transcript import read_settings
from engine.record import COORDINATE_TOKENS, game_tag, read_record
from engine.superwild.tiles import ORIGIN, WILD, Tile
from engine.superwild.tiles import format_tile as format_superwild
from engine.superwild.transcript import read_transcript
from vision.reader.faces import JOKER_FACE, NO_COLOUR, SIX_NINE_FACE

Place = tuple[int, int]
#: The transcripts shown on a bare table: registered name -> the simulator's game name.
TABLE_SIM_GAMES: dict[str, str] = {"Super Wild": "superwild", "Holominoes": "holominoes"}


@dataclass(frozen=True, slots=True)
class Piece:
    """One physical tile.

    Attributes:
        tile: the tile as a reading names it ("R7", "R6" for a 6/9, "W"; "132").
        face: Super Wild: the printed face ("7", "6/9", "joker"); Holominoes: the tile's numbers
            from its smallest, clockwise ("132").
        colour: the colour letter ("K", "B", "O", "R"; "-" for the Super Wild and Holominoes).
    """

    tile: str
    face: str
    colour: str = NO_COLOUR


@dataclass(frozen=True, slots=True)
class Step:
    """One tile laid, or moved on the table (Super Wild).

    Attributes:
        piece: index into :attr:`TableGame.pieces`.
        to: where it ends up: Super Wild x,y, Holominoes q,r.
        source: where a moved tile lay before; None for a tile laid from the hand.
        first: the corner of a Holominoes tile's first number ("E", "SW", "NW"); "" for Super Wild.
    """

    piece: int
    to: Place
    source: Place | None = None
    first: str = ""


@dataclass(frozen=True, slots=True)
class TableGame:
    """A transcript as a table shows it.

    Attributes:
        game: "superwild" or "holominoes".
        players: seats around the table; turn i is played from seat i % players.
        pieces: every tile that is ever on the table.
        initial: tiles lying there before the first turn.
        turns: per turn line, its steps in order (a draw or a pass has none).
        lines: per turn, its line in the transcript (1-based).
        returned: per turn, the pool tile a Holominoes pass returns (``"456"``), else ``""``.
    """

    game: str
    players: int
    pieces: tuple[Piece, ...]
    initial: tuple[Step, ...]
    turns: tuple[tuple[Step, ...], ...]
    lines: tuple[int, ...]
    returned: tuple[str, ...] = ()

    def token(self, step: Step) -> str:
        """The tile of ``step`` where it ends up, as a reading writes it (``R7@3,0``, ``132@1,0/E``)."""
        x, y = step.to
        at = f"{self.pieces[step.piece].tile}@{x},{y}"
        return f"{at}/{step.first}" if self.game == "holominoes" else at

    def places(self) -> list[Place]:
        """Every place a tile ever lies on, in the order first used."""
        seen: dict[Place, None] = {}
        for step in (*self.initial, *(s for turn in self.turns for s in turn)):
            seen.setdefault(step.to)
        return list(seen)


def table_game(text: str) -> TableGame:
    """The tiles and steps of a Super Wild or Holominoes transcript.

    Raises:
        TranscriptError: an unreadable line (its line and column; the first of them).
        ValueError: another game, a header that cannot make a game, or a line no table can show
            (names the line and the tile).
    """
    name = canonical_name(game_tag(text))
    if name == "Super Wild":
        return _superwild(text)
    if name == "Holominoes":
        return _holominoes(text)
    raise ValueError(f"{name} is not played on a bare table; expected {' or '.join(TABLE_SIM_GAMES)}")


def _superwild(text: str) -> TableGame:
    settings, lines, errors = read_transcript(text)
    if errors:
        raise errors[0]
    pieces = [Piece("W", JOKER_FACE)]
    table: dict[Place, int] = {(ORIGIN.x, ORIGIN.y): 0}
    turns, numbers = [], []
    for line, turn in lines:
        assert turn is not None  # no errors: every line was read
        steps = []
        lifted = {(m.pos.x, m.pos.y): table.pop((m.pos.x, m.pos.y), -1) for m in turn.moves if not m.is_lay}
        for move in turn.moves:
            at = (move.target.x, move.target.y)
            if at in table:
                raise ValueError(f"line {line.line}: {move} goes where {pieces[table[at]].tile} lies")
            if move.is_lay:
                if move.tile == WILD:
                    raise ValueError(f"line {line.line}: the Super Wild is on the table from the start")
                table[at] = len(pieces)
                pieces.append(_superwild_piece(move.tile))
                steps.append(Step(table[at], at))
                continue
            source = (move.pos.x, move.pos.y)
            piece = lifted.pop(source, -1)
            if piece < 0 or _shape(pieces[piece]) != _shape(_superwild_piece(move.tile)):
                raise ValueError(f"line {line.line}: {move}: no {format_superwild(move.tile)} lies there")
            table[at] = piece
            steps.append(Step(piece, at, source))
        turns.append(tuple(steps))
        numbers.append(line.line)
    return TableGame("superwild", len(settings.players), tuple(pieces), (Step(0, (0, 0)),), tuple(turns),
                     tuple(numbers))


def _superwild_piece(tile: Tile) -> Piece:
    if tile.is_six_nine:  # one tile printed the same either way up, read as its 6
        return Piece(format_superwild(Tile(tile.colour, 6)), SIX_NINE_FACE, tile.colour)
    return Piece(format_superwild(tile), str(tile.number), tile.colour)


def _shape(piece: Piece) -> tuple[str, str]:
    return piece.face, piece.colour


def _holominoes(text: str) -> TableGame:
    tags, records, errors = read_record(text, COORDINATE_TOKENS)
    settings = read_settings(tags, records, errors)
    if errors:
        raise errors[0]
    pieces: list[Piece] = []
    taken: dict[Place, int] = {}
    initial: list[Step] = []
    turns: list[tuple[Step, ...]] = []
    returned: list[str] = []
    if settings.start is not None:
        initial.append(_laid(pieces, taken, settings.start, 0))
    for record in records:
        try:
            move = parse_move(" ".join(record.words))
        except ValueError as exc:
            raise TranscriptError(record.line, record.tokens[0].column, str(exc)) from None
        turns.append((_laid(pieces, taken, move.placement, record.line),) if isinstance(move, Play) else ())
        returned.append("" if isinstance(move, Play) or move.tile is None else format_tile(move.tile))
    return TableGame("holominoes", len(settings.players), tuple(pieces), tuple(initial), tuple(turns),
                     tuple(r.line for r in records), tuple(returned))


def _laid(pieces: list[Piece], taken: dict[Place, int], placement: Placement, line: int) -> Step:
    """A Holominoes placement as a step (its tile added to ``pieces``, its cell to ``taken``)."""
    name = format_tile(placement.tile)
    where = f"line {line}" if line else "tag Start"
    if any(p.tile == name for p in pieces):
        raise ValueError(f"{where}: tile {name} is on the table already (the set has each tile once)")
    at = placement.cell.key
    if at in taken:
        raise ValueError(f"{where}: {name} goes where {pieces[taken[at]].tile} lies")
    taken[at] = len(pieces)
    pieces.append(Piece(name, name))
    return Step(taken[at], at, None, placement.first)
