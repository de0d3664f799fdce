"""``tilescribe games``: list the recorded games (finished and unfinished) with their scores."""

from __future__ import annotations

import argparse
import json

from tilescribe.commands.run import add_games_argument


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``games`` sub-command."""
    p = subparsers.add_parser("games", help="list recorded games (replay one with `tilescribe score`)")
    add_games_argument(p)
    p.add_argument("--json", action="store_true", help="one JSON document instead of a table")
    p.set_defaults(func=games)


def games(args: argparse.Namespace) -> int:
    """Print one line per game: folder, state, turns, scores. Returns 0 (also with no games)."""
    from tilescribe.journal import game_folders, summarise

    summaries = [summarise(folder) for folder in game_folders(args.games.expanduser())]
    if args.json:
        doc = [{"folder": str(s.folder), "transcript": str(s.folder / "transcript.txt"),
                "finished": s.is_finished, "turns": s.turns, "scores": s.scores,
                "problems": list(s.problems)} for s in summaries]
        print(json.dumps(doc, indent=2))
        return 0
    if not summaries:
        print(f"no games in {args.games.expanduser()}")
        return 0
    for s in summaries:
        state = "finished" if s.is_finished else "unfinished"
        scores = ", ".join(f"{p} {v}" for p, v in s.scores.items())
        problem = f"  PROBLEM: {s.problems[0]}" if s.problems else ""
        print(f"{s.folder.name}  {state:10}  {s.turns:3d} turns  {scores}{problem}")
    return 0
