"""Transcripts: a PGN-like text record of a game, its reader, writer and replay.

Layers (like sgfmill): text -> :class:`Transcript` (typed turns with line numbers) -> replay on a
:class:`engine.game.Game`. Format::

    [Game "MODLINSEQ"]
    [Modulus "11"]
    [Order "9"]
    [Players "Ana, Bo"]
    1. Ana: 4B2, 7B1, 10A0, 2M1, 5M2 {+6}
    2. Bo: 1B4, 8M4 {+15}
    3. Ana: pass
    4. Bo: freeze

A header of tag pairs, then one line per turn: an optional number ``N.``, an optional player name
and colon (turn order decides when it is left out), then placements in cell notation (``4B2``,
``#B2``, ``#=8B2``; commas and/or spaces between them), or ``pass``, or ``freeze``. ``{...}`` is a
comment. Settings tags: Game, Modulus, Order, Dropped (addresses cut from the hexagon, §1-2),
Players, Wild ("A".."E" or "no", §7-2), HashSwap ("yes"/"no", §7-4), Marker ("yes"/"no", §8),
Bonus ("9A", "9B" or "no", §9), TilesPerValue (a number or "no", §1-3); for §10-12 Sequence
("linear", "fibonacci" or "multiplicative"), Composite ("yes": §11 with a composite modulus),
Board ("rect 12x8": a rectangular board of 12 columns and 8 rows, whose cells are written C5,
engine.squaregrid; it replaces Order), Wrap and Diagonals ("yes"/"no"), LoopBonus (points).
Numbers are bounded (Modulus at most 1000, Order 100, LoopBonus 1000, a side of a rectangular
board 100). Other tags are kept as they are. The reader is forgiving: it collects every
:class:`engine.errors.TranscriptError` with its line and column and carries on.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from engine.cells import AnyBoard
from engine.errors import RULE_GAME_OVER, RULE_TURN_ORDER, RuleViolation, TranscriptError
from engine.game import FREEZE, PASS, PLAY, Game
from engine.games import out_of_turn
from engine.hexgrid import Board
from engine.laws import LINEAR
from engine.limits import MAX_MODULUS, MAX_ORDER, MAX_TILES_PER_VALUE, parse_bounded_int
from engine.record import (
    RecordLine,
    format_line,
    format_tags,
    parse_yes_no,
    players_of,
    read_record,
    score_comment,
    unknown_players,
)
from engine.rules import TurnResult
from engine.settings import MAX_LOOP_BONUS, Settings
from engine.squaregrid import RectBoard, parse_board_tag
from engine.tiles import Placement, format_placement, parse_placement

_NONE = {"no", "none", "-", ""}

#: Settings tags in the order the writer puts them.
SETTINGS_TAGS = (
    "Game",
    "Modulus",
    "Order",
    "Dropped",
    "Players",
    "Wild",
    "HashSwap",
    "Marker",
    "Bonus",
    "TilesPerValue",
    "Sequence",
    "Composite",
    "Board",
    "Wrap",
    "Diagonals",
    "LoopBonus",
)


@dataclass(frozen=True, slots=True)
class TranscriptTurn:
    """One turn line.

    Attributes:
        number: the turn's number (as written, or counted when left out).
        player: the player named on the line, None when left out.
        kind: "play", "pass" or "freeze".
        placements: the tiles of a play.
        comment: the text of the line's ``{...}`` comments, None without one.
        line: the 1-based line number in the text it was read from (0 when built in code).
    """

    number: int
    player: str | None
    kind: str
    placements: tuple[Placement, ...] = ()
    comment: str | None = None
    line: int = field(default=0, compare=False)

    def __post_init__(self) -> None:
        if self.kind not in (PLAY, PASS, FREEZE):
            raise ValueError(f"turn kind must be play, pass or freeze, got {self.kind!r}")
        if (self.kind == PLAY) != bool(self.placements):
            raise ValueError(f"a play needs placements and a {self.kind} has none (turn {self.number})")


@dataclass(frozen=True, slots=True)
class Transcript:
    """A whole game record.

    Attributes:
        settings: the game's settings (from the header).
        turns: the turns in order.
        tags: header tags other than the settings tags, in order (e.g. Event, Date).
    """

    settings: Settings
    turns: tuple[TranscriptTurn, ...] = ()
    tags: tuple[tuple[str, str], ...] = ()


def _settings_tags(settings: Settings) -> list[tuple[str, str]]:
    board = settings.board
    out = [("Game", settings.game), ("Modulus", str(settings.modulus))]
    if isinstance(board, RectBoard):
        out.append(("Board", board.tag()))
    else:
        out.append(("Order", str(board.order)))
    if settings.dropped:
        out.append(("Dropped", " ".join(settings.dropped)))
    out.append(("Players", ", ".join(settings.players)))
    if settings.wild_policy is not None:
        out.append(("Wild", settings.wild_policy))
    if settings.hash_swap:
        out.append(("HashSwap", "yes"))
    if settings.marker:
        out.append(("Marker", "yes"))
    if settings.bonus is not None:
        out.append(("Bonus", settings.bonus))
    out.append(("TilesPerValue", "no" if settings.tiles_per_value is None else str(settings.tiles_per_value)))
    if settings.sequence != LINEAR:
        out.append(("Sequence", settings.sequence))
    if settings.composite:
        out.append(("Composite", "yes"))
    if isinstance(board, RectBoard):
        if board.wrap:
            out.append(("Wrap", "yes"))
        if board.diagonals:
            out.append(("Diagonals", "yes"))
    if settings.loop_bonus:
        out.append(("LoopBonus", str(settings.loop_bonus)))
    return out


def format_turn(turn: TranscriptTurn) -> str:
    """One turn line: ``3. Ana: 4B2, 7B1 {+6}``."""
    body = ", ".join(format_placement(p) for p in turn.placements) if turn.kind == PLAY else turn.kind
    return format_line(turn.number, turn.player, body, turn.comment)


def format_transcript(transcript: Transcript) -> str:
    """The transcript as text; :func:`parse_transcript` reads it back to an equal value."""
    lines = format_tags(_settings_tags(transcript.settings) + list(transcript.tags))
    lines.append("")
    lines += [format_turn(t) for t in transcript.turns]
    return "\n".join(lines) + "\n"


def transcript_of(game: Game, tags: tuple[tuple[str, str], ...] = ()) -> Transcript:
    """The transcript of a game so far; each play's comment is its score (``+6``)."""
    turns = tuple(
        TranscriptTurn(
            r.number, r.player, r.kind, r.placements, score_comment(r.score) if r.kind == PLAY else None
        )
        for r in game.history
    )
    return Transcript(game.settings, turns, tags)


class _Reader:
    """Reads MODLINSEQ's moves and settings from the shared record frame (engine.record)."""

    def __init__(self) -> None:
        self.errors: list[TranscriptError] = []
        self.tags: list[tuple[str, str, int]] = []
        self.turns: list[TranscriptTurn] = []
        self.notation: AnyBoard | None = None  # whose addresses the placements use
        self.players: tuple[str, ...] = ()

    def error(self, line: int, column: int, message: str) -> None:
        self.errors.append(TranscriptError(line, column, message))

    def turn_line(self, record: RecordLine) -> None:
        words = record.words
        if len(words) == 1 and words[0].lower() in (PASS, FREEZE):
            turn = TranscriptTurn(
                record.number, record.player, words[0].lower(), (), record.comment, record.line
            )
            self.turns.append(turn)
            return
        placements = []
        for tok in record.tokens:
            try:
                placements.append(parse_placement(tok.text, self.notation))
            except ValueError as exc:
                self.error(record.line, tok.column, str(exc))
        if placements:
            turn = TranscriptTurn(
                record.number, record.player, PLAY, tuple(placements), record.comment, record.line
            )
            self.turns.append(turn)

    def settings(self) -> tuple[Settings, tuple[tuple[str, str], ...]]:
        values: dict[str, object] = {}
        order, dropped = 9, ""
        rect: tuple[int, int] | None = None
        switches = {"wrap": False, "diagonals": False}
        extra = []
        for name, value, lineno in self.tags:
            try:
                key = name.lower()
                if key == "game":
                    values["game"] = value
                elif key == "modulus":
                    values["modulus"] = parse_bounded_int(value, "modulus", 1, MAX_MODULUS)
                elif key == "order":
                    order = parse_bounded_int(value, "board order", 0, MAX_ORDER)
                elif key == "board":
                    rect = parse_board_tag(value)
                elif key in ("wrap", "diagonals"):
                    switches[key] = parse_yes_no(value)
                elif key == "composite":
                    values["composite"] = parse_yes_no(value)
                elif key == "sequence":
                    values["sequence"] = value.lower()
                elif key == "loopbonus":
                    values["loop_bonus"] = parse_bounded_int(value, "loop bonus", 0, MAX_LOOP_BONUS)
                elif key == "players":
                    continue  # read by players_of
                elif key == "dropped":
                    dropped = value
                elif key == "wild":
                    values["wild_policy"] = None if value.lower() in _NONE else value.upper()
                elif key in ("hashswap", "marker"):
                    values["hash_swap" if key == "hashswap" else "marker"] = parse_yes_no(value)
                elif key == "bonus":
                    values["bonus"] = None if value.lower() in _NONE else value.upper()
                elif key == "tilespervalue":
                    values["tiles_per_value"] = (
                        None
                        if value.lower() in _NONE
                        else parse_bounded_int(value, "tiles per value", 1, MAX_TILES_PER_VALUE)
                    )
                else:
                    extra.append((name, value))
            except ValueError as exc:
                self.error(lineno, 1, f"tag {name} {value!r}: {exc}")
        if not any(name.lower() == "modulus" for name, _value, _line in self.tags):
            self.error(0, 0, 'missing tag [Modulus "..."]; assuming 13')
        if self.players or any(name.lower() == "players" for name, _, _ in self.tags):
            values["players"] = self.players
        try:
            values["board"] = self._board(order, dropped, rect, switches)
        except ValueError as exc:
            self.error(0, 0, f"board: {exc}")
        known = {f.name for f in fields(Settings)}
        try:
            settings = Settings(**{k: v for k, v in values.items() if k in known})  # type: ignore[arg-type]
        except ValueError as exc:
            self.error(0, 0, f"settings: {exc}")
            settings = Settings()
        return settings, tuple(extra)

    @staticmethod
    def _board(order: int, dropped: str, rect: tuple[int, int] | None, switches: dict[str, bool]) -> AnyBoard:
        """The board the tags describe."""
        if rect is not None:
            if dropped:
                raise ValueError("Dropped cuts cells from a hex board, not from a rectangular one")
            return RectBoard(rect[0], rect[1], switches["wrap"], switches["diagonals"])
        if switches["wrap"]:
            raise ValueError('wrap-around (§12) needs a rectangular board, e.g. [Board "rect 12x8"]')
        if switches["diagonals"]:
            raise ValueError('diagonals (§12) need a rectangular board, e.g. [Board "rect 12x8"]')
        if dropped:
            return Board.truncated(order, dropped.split())
        return Board.hexagon(order)


def _board_notation(tags: list[tuple[str, str, int]]) -> AnyBoard | None:
    """A board whose address notation the turns use: a rectangular board when the Board tag names one."""
    for name, value, _ in tags:
        if name.lower() == "board":
            try:
                width, height = parse_board_tag(value)
                return RectBoard(width, height)
            except ValueError:
                return None
    return None


def parse_transcript(text: str) -> tuple[Transcript, list[TranscriptError]]:
    """Read a transcript, collecting every error instead of stopping at the first.

    Args:
        text: the whole transcript.

    Returns:
        The transcript (everything that could be read) and the errors, each with its 1-based line
        and column (line 0 for a problem of the header as a whole, e.g. a missing Modulus tag).
        Unreadable placements are left out of their turn; unreadable turn lines are skipped.
    """
    reader = _Reader()
    tags, lines, reader.errors = read_record(text)
    reader.tags = [(t.name, t.value, t.line) for t in tags]
    reader.notation = _board_notation(reader.tags)
    reader.players = players_of(tags, lines)
    for record in lines:
        reader.turn_line(record)
    settings, extra = reader.settings()
    reader.errors += unknown_players(lines, settings.players)
    reader.errors.sort(key=lambda e: (e.line, e.column))
    return Transcript(settings, tuple(reader.turns), extra), reader.errors


@dataclass(frozen=True, slots=True)
class ReplayedTurn:
    """One transcript turn after replay.

    Attributes:
        turn: the transcript line.
        player: who took it.
        result: the rules' verdict on a play (legal or not), None for a pass or freeze.
        error: why the turn was not applied (illegal play, wrong player, game over), else None.
    """

    turn: TranscriptTurn
    player: str
    result: TurnResult | None
    error: RuleViolation | None


def replay(transcript: Transcript) -> tuple[Game, list[ReplayedTurn]]:
    """Replay a transcript on a new game.

    An illegal play is reported and not applied; the player's turn is then spent as a pass so the
    turn order stays in step with the transcript. A turn naming a player other than the one whose
    turn it is, or coming after the end of the game, is reported and skipped.

    Returns:
        The game after the last turn, and every turn with its verdict.

    Raises:
        ValueError: the settings name an unknown game.
    """
    game = Game(transcript.settings)
    out = []
    for turn in transcript.turns:
        player = turn.player or (game.current_player if not game.is_over else "?")
        if game.is_over:
            out.append(
                ReplayedTurn(turn, player, None, RuleViolation(RULE_GAME_OVER, (), "every player has frozen"))
            )
            continue
        misplaced = out_of_turn(RULE_TURN_ORDER, game.current_player, turn.player)
        if misplaced is not None:
            out.append(ReplayedTurn(turn, player, None, RuleViolation(misplaced.rule, (), misplaced.message)))
            continue
        if turn.kind == PASS:
            game.pass_turn()
            out.append(ReplayedTurn(turn, player, None, None))
        elif turn.kind == FREEZE:
            game.freeze()
            out.append(ReplayedTurn(turn, player, None, None))
        else:
            result = game.evaluate(turn.placements)
            if result.legal:
                game.play(turn.placements)
            else:
                game.pass_turn()
            out.append(ReplayedTurn(turn, player, result, result.error))
    return game, out
