"""Holominoes transcripts: settings tags, move lines, replay and writing (games.md).

Format (the shared frame of engine.record, coordinates with commas inside)::

    [Game "Holominoes"]
    [Players "Ana, Bo"]
    [Pool "3"]
    [Digits "6"]
    [Start "123@0,0/SW"]
    1. Ana: 132@1,0/E {+0}
    2. Bo: pass 456

Tags: Players, Pool (tiles per pool, 3), Digits (largest number, 6), Scoring ("product" or
"sum"), Start (the first tile). One placement a turn, or ``pass TILE``.
"""

from __future__ import annotations

from typing import Any

from engine.errors import TranscriptError
from engine.games import Replay, TurnReport, Violation, out_of_turn
from engine.holominoes.game import (
    MAX_POOL,
    PASS,
    PLAY,
    RULE_GAME_OVER,
    RULE_TURN_ORDER,
    Game,
    IllegalTurnError,
    Settings,
    TurnResult,
    check_scoring,
)
from engine.holominoes.tiles import (
    MAX_DIGITS,
    MIN_DIGITS,
    Pass,
    Play,
    format_move,
    format_placement,
    parse_move,
    parse_placement,
)
from engine.limits import parse_bounded_int
from engine.record import (
    COORDINATE_TOKENS,
    RecordLine,
    Tag,
    format_line,
    format_tags,
    players_of,
    read_record,
    score_comment,
    tag_value,
    unknown_players,
)

RULE_ONE_TILE = "Play: one tile a turn"
RULE_NOTATION = "Notation: a readable move"

_SETTINGS_TAGS = {"game", "players", "pool", "digits", "scoring", "start"}


def _int_tag(tag: Tag, errors: list[TranscriptError], low: int, high: int) -> int | None:
    """The tag's number from ``low`` to ``high``; None (and the error in ``errors``) when it is not one."""
    try:
        return parse_bounded_int(tag.value, f"tag {tag.name}", low, high)
    except ValueError as exc:
        errors.append(TranscriptError(tag.line, 1, str(exc)))
        return None


def read_settings(tags: list[Tag], lines: list[RecordLine], errors: list[TranscriptError]) -> Settings:
    """The settings from a transcript's tags (bad values reported in ``errors``, defaults kept).

    Raises:
        ValueError: the tags together cannot make a game (e.g. more tiles dealt than the set has).
    """
    values: dict[str, Any] = {}
    for tag in tags:
        key = tag.name.lower()
        if key in ("pool", "digits"):
            low, high = (1, MAX_POOL) if key == "pool" else (MIN_DIGITS, MAX_DIGITS)
            number = _int_tag(tag, errors, low, high)
            if number is not None:
                values[key] = number
        elif key == "scoring":
            try:
                check_scoring(tag.value.strip().lower())
                values["scoring"] = tag.value.strip().lower()
            except ValueError as exc:
                errors.append(TranscriptError(tag.line, 1, f"tag Scoring: {exc}"))
        elif key == "start":
            try:
                values["start"] = parse_placement(tag.value)
            except ValueError as exc:
                errors.append(TranscriptError(tag.line, 1, f"tag Start: {exc}"))
    players = players_of(tags, lines)
    if players or tag_value(tags, "Players") is not None:
        values["players"] = players
    try:
        return Settings(**values)
    except ValueError as exc:
        raise ValueError(f"the tags cannot make a game of Holominoes: {exc}") from None


def _move_of(record: RecordLine, errors: list[TranscriptError]) -> Play | Pass | Violation:
    """The line's move, or why it cannot be read (an unreadable move is also added to ``errors``
    with its line and column)."""
    words = record.words
    if words[0].lower() != "pass" and len(words) > 1:
        return Violation(
            RULE_ONE_TILE, tuple(words), f"a turn lays one tile, not {len(words)}: {' '.join(words)}"
        )
    try:
        return parse_move(" ".join(words))
    except ValueError as exc:
        column = record.tokens[-1].column if len(words) == 2 else record.tokens[0].column
        errors.append(TranscriptError(record.line, column, str(exc)))
        return Violation(RULE_NOTATION, tuple(words), str(exc))


def _details(game: Game, result: TurnResult | None) -> dict[str, Any]:
    holes = [] if result is None else [h.to_json() for h in result.holes]
    return {"holes": holes, "blocked": game.blocked_points()}


def replay(text: str) -> tuple[Game, Replay]:
    """Read a transcript and replay it.

    An illegal turn is reported (rule, places, message) and not applied; the player's turn is
    spent. A turn after the end of the game is reported and skipped.

    Returns:
        The game after the last turn, and the replay (turns, scores, syntax errors, final facts).

    Raises:
        ValueError: the tags cannot make a game (the message names the problem).
    """
    tags, lines, errors = read_record(text, COORDINATE_TOKENS)
    settings = read_settings(tags, lines, errors)
    game = Game(settings)
    errors += unknown_players(lines, settings.players)
    reports = []
    for record in lines:
        words = record.words
        moves = (" ".join(words),) if words[0].lower() == "pass" else tuple(words)
        player = record.player or game.current_player
        move = _move_of(record, errors)
        violation: Violation | None = move if isinstance(move, Violation) else None
        result: TurnResult | None = None
        if game.is_over:
            violation = Violation(RULE_GAME_OVER, (), f"the game is over ({game.end_reason})")
        else:
            violation = out_of_turn(RULE_TURN_ORDER, game.current_player, record.player) or violation
        if violation is None and not isinstance(move, Violation):
            try:
                result = game.play(move)
            except IllegalTurnError as exc:
                violation = exc.as_violation()
        if violation is not None and not game.is_over:
            game.skip()
        kind = PASS if words[0].lower() == "pass" else PLAY
        score = result.score if result is not None else 0
        details = _details(game, result)
        reports.append(
            TurnReport(record.number, player, kind, moves, violation is None, violation, score, details)
        )
    return game, Replay(_settings_json(settings), tuple(reports), game.scores, tuple(errors), final(game))


def _settings_json(settings: Settings) -> dict[str, Any]:
    return {
        "game": "Holominoes",
        "players": list(settings.players),
        "pool": settings.pool,
        "digits": settings.digits,
        "scoring": settings.scoring,
        "start": None if settings.start is None else format_placement(settings.start),
    }


def final(game: Game) -> dict[str, Any]:
    """End-of-game facts: ``over``, ``reason``, ``winner`` (None on a tie or while on),
    ``winners``, and the pools' and sack's sizes."""
    winners = game.winners() if game.is_over else []
    return {
        "over": game.is_over,
        "reason": game.end_reason,
        "winner": winners[0] if len(winners) == 1 else None,
        "winners": winners,
        "pools": game.pools,
        "sack": game.sack,
    }


def transcript_of(game: Game, tags: tuple[tuple[str, str], ...] = ()) -> str:
    """The game so far as a transcript; each play's comment is its score (``{+15}``).

    A spent (illegal) turn is written as a bare ``pass``, which a replay spends the same way.
    """
    s = game.settings
    pairs = [("Game", "Holominoes"), ("Players", ", ".join(s.players)), ("Pool", str(s.pool))]
    pairs.append(("Digits", str(s.digits)))
    if s.scoring != "product":
        pairs.append(("Scoring", s.scoring))
    if s.start is not None:
        pairs.append(("Start", format_placement(s.start)))
    pairs += [(k, v) for k, v in tags if k.lower() not in _SETTINGS_TAGS]
    out = format_tags(pairs) + [""]
    for record in game.history:
        if record.result is None:
            out.append(format_line(record.number, record.player, "pass"))
            continue
        comment = score_comment(record.result.score) if record.kind == PLAY else None
        out.append(format_line(record.number, record.player, format_move(record.result.move), comment))
    return "\n".join(out) + "\n"
