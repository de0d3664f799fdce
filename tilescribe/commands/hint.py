"""``tilescribe hint TRANSCRIPT [--rack TILES] [--top N] [--json]``: the best moves to play next.

The transcript is replayed; then the rules of its game (engine.games) list the best-scoring legal
turns for the player to move, each written as it would go into the transcript. ``--rack`` names
the player's tiles in the game's notation (``"3 4 7 #"`` for Yushino, ``"R7 K13 W"`` for Super
Wild, ``"123 456"`` for Holominoes); without it, each game says what it assumes.
Exit status: 0 with at least one move, 1 when there is none, 2 for an unreadable file or rack.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.games import MAX_RACK, rules_for
from tilescribe.commands.score import read_transcript
from tilescribe.options import int_in

MAX_TOP = 100


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``hint`` sub-command."""
    parser = subparsers.add_parser(
        "hint",
        help="the best moves for the player to move",
        description="Replay a transcript of any game and list the best-scoring legal moves for the "
        "player to move. Exit 1 when there is none, 2 when the file or the rack cannot be read.",
    )
    parser.add_argument("transcript", type=Path, help="the transcript file")
    parser.add_argument("--rack", help="the player's tiles, space-separated, in the game's notation")
    parser.add_argument(
        "--top", type=int_in(1, MAX_TOP), default=5, help=f"how many moves (1..{MAX_TOP}, default 5)"
    )
    parser.add_argument("--json", action="store_true", help="print a JSON list instead of text")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the hints for ``args.transcript``; returns the exit status."""
    path: Path = args.transcript
    read = read_transcript(path, "tilescribe hint")
    if read is None:
        return 2
    text, name = read
    if args.rack is not None and len(args.rack.split()) > MAX_RACK:
        print(f"tilescribe hint: --rack {args.rack[:40]!r}...: more than {MAX_RACK} tiles", file=sys.stderr)
        return 2
    try:
        hints = rules_for(name).hint(text, args.rack, args.top, path.parent)
    except ValueError as exc:
        print(f"tilescribe hint: {path}: cannot hint: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([h.to_json() for h in hints], indent=1))
    else:
        for rank, item in enumerate(hints, start=1):
            print(f"{rank}. {item.moves}  +{item.score}")
        if not hints:
            print("no move to suggest: no legal move (pass), or the game is over")
    return 0 if hints else 1
