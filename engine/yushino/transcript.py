"""Yushino transcripts: read, write and replay (games.md; the frame is engine.record's).

::

    [Game "Yushino"]
    [Players "Ana, Bo"]
    [Layout "classic"]
    [Racks "Ana: -, Bo: 3 #"]
    1. Ana: 3G8, 4H8 {+14}
    2. Bo: 7I8 {+14}
    3. Ana: exchange 3
    4. Bo: pass

Tags: ``Players`` (2 to 4 names in turn order; without it, the names on the turn lines in order),
``Layout`` (``"classic"``, the default, or a TOML layout file inside the transcript's folder, see
engine.yushino.board), ``Direction`` (``"forward"``, the default, or ``"either"``) and ``Racks``:
what each rack held when the game ended, ``"Name: faces, Name: faces"`` with ``-`` for an empty
rack (the transcript shows no racks, and the end's rack transfer of §4 needs them). Without a
``Racks`` tag an ended game is scored without the transfer. ``{...}`` comments are kept, not read.

Replaying, an illegal turn is reported and spent as a pass (it counts as a scoreless turn, §4); a
turn naming another player than the one to move, or coming after the end, is reported and skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import TranscriptError
from engine.games import Replay, TurnReport, Violation, out_of_turn
from engine.record import Token, format_line, format_tags, players_of, read_record, unknown_players
from engine.yushino.board import load_layout
from engine.yushino.game import RULE_GAME_OVER, RULE_TURN_ORDER, Game, GameSettings, TurnResult, pick_winner
from engine.yushino.rules import EITHER, FORWARD
from engine.yushino.tiles import (
    EXCHANGE,
    PLAY,
    Tile,
    Turn,
    format_rack,
    format_turn,
    parse_placement,
    parse_rack,
    parse_turn,
)

_KNOWN = ("game", "players", "layout", "direction", "racks")


@dataclass(frozen=True, slots=True)
class TranscriptTurn:
    """One turn line: its number, the player named (None if left out), the turn, the comment."""

    number: int
    player: str | None
    turn: Turn
    comment: str | None = None
    line: int = 0


@dataclass(frozen=True, slots=True)
class Transcript:
    """A whole Yushino transcript, its moves read.

    Attributes:
        players: names in turn order.
        layout: the ``Layout`` tag's value (``"classic"`` or a file path).
        direction: ``"forward"`` or ``"either"``.
        racks: the racks at the end (``Racks`` tag), None when not given.
        turns: the turn lines.
        extra: other tags, kept as written.
        racks_line: the ``Racks`` tag's line (0 without one).
    """

    players: tuple[str, ...]
    layout: str = "classic"
    direction: str = FORWARD
    racks: tuple[tuple[str, tuple[Tile, ...]], ...] | None = None
    turns: tuple[TranscriptTurn, ...] = ()
    extra: tuple[tuple[str, str], ...] = ()
    racks_line: int = field(default=0, compare=False)


def parse_racks(text: str) -> tuple[tuple[str, tuple[Tile, ...]], ...]:
    """``"Ana: 3 4 #, Bo: -"`` -> ((``"Ana"``, tiles), (``"Bo"``, ())).

    Raises:
        ValueError: a part without ``Name:`` or with tiles that are not 0..9 or ``#``.
    """
    out = []
    for part in text.split(","):
        name, colon, faces = part.partition(":")
        if not colon or not name.strip():
            raise ValueError(f"not a rack: {part.strip()!r} (expected Name: 3 4 #)")
        out.append((name.strip(), parse_rack(faces)))
    return tuple(out)


def format_racks(racks: tuple[tuple[str, tuple[Tile, ...]], ...]) -> str:
    """The ``Racks`` tag's value."""
    return ", ".join(f"{name}: {format_rack(tiles)}" for name, tiles in racks)


def _bad_column(tokens: tuple[Token, ...]) -> int:
    """The column of the token that spoils a turn: an exchange's count, or the first bad placement."""
    if tokens[0].text.lower() == EXCHANGE:
        return tokens[-1].column
    for token in tokens:
        try:
            parse_placement(token.text)
        except ValueError:
            return token.column
    return tokens[0].column


def parse_transcript(text: str) -> tuple[Transcript, list[TranscriptError]]:
    """Read a transcript, collecting every error of its lines instead of stopping.

    Returns:
        The transcript (unreadable turn lines left out) and the errors with line and column.

    Raises:
        TranscriptError: a header that cannot make a game (2 to 4 players, a Direction other than
            forward or either), at the tag's line.
    """
    tags, lines, errors = read_record(text)
    values: dict[str, tuple[str, int]] = {}
    extra = []
    for tag in tags:
        key = tag.name.lower()
        if key in _KNOWN:
            values.setdefault(key, (tag.value, tag.line))
        else:
            extra.append((tag.name, tag.value))
    turns = []
    for record in lines:
        try:
            turn = parse_turn(" ".join(record.words))
        except ValueError as exc:
            errors.append(TranscriptError(record.line, _bad_column(record.tokens), str(exc)))
            continue
        turns.append(TranscriptTurn(record.number, record.player, turn, record.comment, record.line))
    players = players_of(tags, lines)
    line = values.get("players", ("", 0))[1]
    try:
        GameSettings(players)
    except ValueError as exc:
        raise TranscriptError(line, 1, str(exc)) from None
    direction, line = values.get("direction", (FORWARD, 0))
    if direction.lower() not in (FORWARD, EITHER):
        raise TranscriptError(line, 1, f"Direction {direction!r} is not forward or either")
    racks, racks_line = None, 0
    if "racks" in values:
        rack_text, racks_line = values["racks"]
        line = racks_line
        try:
            racks = parse_racks(rack_text)
        except ValueError as exc:
            errors.append(TranscriptError(line, 1, f"tag Racks: {exc}"))
    errors += unknown_players(lines, players)
    layout = values.get("layout", ("classic", 0))[0]
    errors.sort(key=lambda e: (e.line, e.column))
    transcript = Transcript(players, layout, direction.lower(), racks, tuple(turns), tuple(extra), racks_line)
    return transcript, errors


def format_transcript(transcript: Transcript) -> str:
    """The transcript as text (tags, then one line per turn), read back by :func:`parse_transcript`."""
    pairs = [("Game", "Yushino"), ("Players", ", ".join(transcript.players)), ("Layout", transcript.layout)]
    if transcript.direction != FORWARD:
        pairs.append(("Direction", transcript.direction))
    if transcript.racks is not None:
        pairs.append(("Racks", format_racks(transcript.racks)))
    lines = format_tags(pairs + list(transcript.extra))
    lines += [format_line(t.number, t.player, format_turn(t.turn), t.comment) for t in transcript.turns]
    return "\n".join(lines) + "\n"


def settings_of(transcript: Transcript, folder: Path) -> GameSettings:
    """The game settings a transcript names (its layout file read from ``folder``).

    Raises:
        LayoutError: the layout file is outside ``folder``, missing or bad.
    """
    return GameSettings(transcript.players, load_layout(transcript.layout, folder), transcript.direction)


def _report(number: int, result: TurnResult, game: Game) -> TurnReport:
    details: dict[str, object] = {}
    if result.play is not None and result.legal:
        details["sequences"] = [s.to_json() for s in result.play.sequences]
        details["bonus"] = result.play.bonus
    details["pool"] = game.pool
    details["racks"] = game.rack_counts
    moves = (
        tuple(format_turn(result.turn).split(", "))
        if result.turn.kind == PLAY
        else (format_turn(result.turn),)
    )
    return TurnReport(
        number, result.player, result.turn.kind, moves, result.legal, result.violation, result.score, details
    )


def replay(transcript: Transcript, folder: Path) -> tuple[Game, Replay]:
    """Replay a transcript on a new game.

    Args:
        transcript: the transcript read.
        folder: the transcript's folder (a layout file must lie inside it).

    Returns:
        The game after the last turn and the replay (turns, scores after the end, final facts).

    Raises:
        LayoutError: the layout file is outside ``folder``, missing or bad.
    """
    game = Game(settings_of(transcript, folder))
    reports = []
    for t in transcript.turns:
        if game.is_over:
            violation: Violation | None = Violation(RULE_GAME_OVER, (), f"the game ended ({game.end_reason})")
        else:
            violation = out_of_turn(RULE_TURN_ORDER, game.current_player, t.player)
        if violation is not None:
            result = TurnResult(t.turn, t.player or "?", violation)
            reports.append(_report(t.number, result, game))
            continue
        result = game.evaluate(t.turn)
        if result.legal:
            game.play(t.turn)
        else:
            game.spend(result)
        reports.append(_report(t.number, result, game))
    errors: list[TranscriptError] = []
    final, scores = _final(game, transcript, errors)
    settings = {"game": "Yushino", "players": list(game.players), "layout": game.settings.layout.name,
                "direction": game.settings.direction}  # fmt: skip
    return game, Replay(settings, tuple(reports), scores, tuple(errors), final)


def _final(
    game: Game, transcript: Transcript, errors: list[TranscriptError]
) -> tuple[dict[str, object], dict[str, int]]:
    """Replay.final and the scores after the end's rack transfer (when the racks are known)."""
    final: dict[str, object] = {"over": game.is_over, "reason": game.end_reason, "pool": game.pool,
                                "racks": None, "before": game.scores, "adjustments": {}}  # fmt: skip
    scores = game.scores
    if not game.is_over:
        if transcript.racks is not None:
            errors.append(
                TranscriptError(
                    transcript.racks_line, 1, "tag Racks gives the racks at the end, but the game is not over"
                )
            )
        final["winner"] = None
        return final, scores
    final["out"] = game.out_player
    before = scores
    if transcript.racks is not None:
        try:
            end = game.finish(dict(transcript.racks))
        except ValueError as exc:
            errors.append(TranscriptError(transcript.racks_line, 1, f"tag Racks: {exc}"))
        else:
            final["racks"] = {name: format_rack(tiles) for name, tiles in transcript.racks}
            final["adjustments"] = dict(end.adjustments)
            scores = dict(end.scores)
    final["winner"], final["tie_break"] = pick_winner(game.players, scores, before)
    return final, scores
