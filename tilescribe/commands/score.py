"""``tilescribe score TRANSCRIPT [--json]``: replay a transcript and print every turn's score.

Per turn: the placements, each sequence formed or extended (tilde and MSA notation) with its
points, the turn's score and the cells blocked afterwards; then the standings, and with ``--board``
the final position as a text picture (engine.asciiboard). An illegal turn is
reported (number, cells, rule) and not applied; replay goes on (engine.transcript.replay).
Exit status: 0 all turns legal, 1 some turn illegal, 2 unreadable file or transcript syntax errors
(each printed as ``FILE:LINE:COLUMN: message`` on standard error).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine.asciiboard import format_board
from engine.game import Game
from engine.games import Replay, canonical_name, rules_for
from engine.hexgrid import format_address
from engine.record import game_tag
from engine.rules import ScoredSequence
from engine.tiles import format_placement
from engine.transcript import ReplayedTurn, parse_transcript, replay


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``score`` sub-command."""
    parser = subparsers.add_parser(
        "score",
        help="replay a transcript and score every turn",
        description='Replay a transcript of any game ([Game "..."] picks the rules): per turn the '
        "points and what scored them, then the standings. Exit 1 if a turn is illegal, 2 if the file "
        "cannot be read.",
    )
    parser.add_argument("transcript", type=Path, help="the transcript file")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    parser.add_argument(
        "--board", action="store_true", help="also draw the final position as a text picture (x = blocked)"
    )
    parser.set_defaults(func=run)


def _addresses(cells: Any) -> list[str]:
    return sorted((format_address(c) for c in cells), key=lambda a: (a[0], int(a[1:])))


def _sequence_json(seq: ScoredSequence) -> dict[str, Any]:
    return {
        "cells": seq.addresses,
        "values": list(seq.values),
        "msa": seq.msa,
        "length": seq.length,
        "points": seq.points,
        "primary": seq.primary,
        "wild": list(seq.wild),
    }


def turn_json(item: ReplayedTurn) -> dict[str, Any]:
    """One replayed turn in the ``--json`` shape of issue 2."""
    result = item.result
    error = item.error
    return {
        "number": item.turn.number,
        "player": item.player,
        "kind": item.turn.kind,
        "placements": [format_placement(p) for p in item.turn.placements],
        "legal": error is None,
        "error": None
        if error is None
        else {"rule": error.rule, "cells": error.addresses, "message": error.message},
        "score": result.score if result is not None else 0,
        "sequences": [_sequence_json(s) for s in result.sequences] if result is not None else [],
        "blocked": _addresses(result.blocked) if result is not None else [],
        "warnings": list(result.warnings) if result is not None else [],
    }


def _standings(game: Game) -> list[tuple[str, int]]:
    return sorted(game.scores.items(), key=lambda kv: -kv[1])


def _print_text(game: Game, turns: list[ReplayedTurn]) -> None:
    for item in turns:
        t = item.turn
        body = ", ".join(format_placement(p) for p in t.placements) if t.placements else t.kind
        if item.error is not None:
            print(f"{t.number}. {item.player}: {body}  ILLEGAL ({item.error})")
            continue
        if item.result is None:
            print(f"{t.number}. {item.player}: {body}")
            continue
        print(f"{t.number}. {item.player}: {body}  +{item.result.score}")
        for seq in item.result.sequences:
            kind = "primary  " if seq.primary else "secondary"
            msa = seq.msa or "M?-S?-A?"
            values = seq.resolved_tilde()
            print(f"   {kind} {seq.tilde()}  ({values})  {msa}  length {seq.length}  +{seq.points}")
        blocked = ", ".join(_addresses(item.result.blocked)) or "none"
        print(f"   blocked: {blocked}")
        for warning in item.result.warnings:
            print(f"   warning: {warning}")
    print("Standings:")
    for rank, (player, score) in enumerate(_standings(game), start=1):
        frozen = " (frozen)" if player in game.frozen else ""
        print(f"  {rank}. {player} {score}{frozen}")


def _print_replay(replay: Replay) -> None:
    """A game other than MODLINSEQ as text: one line per turn, then the standings and the end."""
    for turn in replay.turns:
        body = ", ".join(turn.moves) if turn.moves else turn.kind
        if turn.error is not None:
            print(f"{turn.number}. {turn.player}: {body}  ILLEGAL ({turn.error})")
        else:
            print(f"{turn.number}. {turn.player}: {body}  +{turn.score}")
    print("Standings:")
    for rank, (player, score) in enumerate(sorted(replay.scores.items(), key=lambda kv: -kv[1]), start=1):
        print(f"  {rank}. {player} {score}")
    for key, value in replay.final.items():
        print(f"  {key}: {value}")


def _run_game(path: Path, text: str, name: str, as_json: bool) -> int:
    """Replay a transcript of ``name`` through its :class:`engine.games.GameRules`."""
    try:
        replay = rules_for(name).replay_text(text, path.parent)
    except ValueError as exc:
        print(f"{path}: cannot replay: {exc}", file=sys.stderr)
        return 2
    for err in replay.errors:
        print(f"{path}:{err.line}:{err.column}: {err.message}", file=sys.stderr)
    if as_json:
        print(json.dumps(replay.to_json(), indent=1))
    else:
        _print_replay(replay)
    if replay.errors:
        return 2
    return 0 if replay.is_legal else 1


def read_transcript(path: Path) -> tuple[str, str] | None:
    """The text of a transcript file and its game's registered name; None (with the reason printed
    on standard error) when the file cannot be read or names an unknown game."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"{path}: cannot read the transcript: {exc}", file=sys.stderr)
        return None
    try:
        return text, canonical_name(game_tag(text))
    except ValueError as exc:
        print(f"{path}: [Game] tag: {exc}", file=sys.stderr)
        return None


def run(args: argparse.Namespace) -> int:
    """Replay ``args.transcript``; returns the exit status (0, 1 illegal turn, 2 unreadable)."""
    path: Path = args.transcript
    read = read_transcript(path)
    if read is None:
        return 2
    text, name = read
    if name != "MODLINSEQ":
        return _run_game(path, text, name, args.json)
    transcript, errors = parse_transcript(text)
    for err in errors:
        print(f"{path}:{err.line}:{err.column}: {err.message}", file=sys.stderr)
    try:
        game, turns = replay(transcript)
    except ValueError as exc:
        print(f"{path}: cannot replay: {exc}", file=sys.stderr)
        return 2
    if args.json:
        out = {
            "settings": transcript.settings.to_dict(),
            "turns": [turn_json(t) for t in turns],
            "scores": game.scores,
            "errors": [{"line": e.line, "column": e.column, "message": e.message} for e in errors],
        }
        print(json.dumps(out, indent=1))
    else:
        _print_text(game, turns)
        if args.board:
            print(format_board(game.settings.board, game.position, game.blocked_cells()), end="")
    if errors:
        return 2
    return 1 if any(t.error is not None for t in turns) else 0
