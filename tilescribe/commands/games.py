"""``tilescribe games``: list the recorded games, and name every one that cannot be read.

Per game: its number (``tilescribe export`` takes it, or the folder's name), the folder, the date
and time it began, the players, the result (``*`` while unfinished) and the turns; a game that
cannot be read (here or moved aside into ``damaged/`` by ``tilescribe run``) is named with the
reason instead. Never fails on a bad game: exit 0.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tilescribe.commands.run import add_games_argument
from tilescribe.game_folder import DAMAGED, TRANSCRIPT, GameRecord, JournalError, game_folders, read_game


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``games`` sub-command."""
    p = subparsers.add_parser(
        "games",
        help="list recorded games (replay one with `tilescribe score`)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_games_argument(p)
    p.add_argument("--json", action="store_true", help="one JSON document instead of a table")
    p.set_defaults(func=games)


def numbered(games_dir: Path) -> list[Path]:
    """Every game folder, numbered from 1 in this order (the ones moved aside last)."""
    return [*game_folders(games_dir), *game_folders(games_dir / DAMAGED)]


def read_or_reason(folder: Path) -> GameRecord | str:
    """The game's record, or the reason it cannot be read."""
    try:
        return read_game(folder)
    except JournalError as exc:
        return str(exc)


def _json(number: int, folder: Path, game: GameRecord | str) -> dict[str, object]:
    doc: dict[str, object] = {"number": number, "folder": str(folder), "transcript": str(folder / TRANSCRIPT)}
    if isinstance(game, str):
        return {**doc, "readable": False, "problem": game}
    return {
        **doc,
        "readable": True,
        "date": game.tag("Date"),
        "time": game.tag("Time"),
        "players": list(game.game.players),
        "result": game.result,
        "finished": game.is_finished,
        "turns": len(game.game.history),
        "scores": game.game.scores,
    }


def games(args: argparse.Namespace) -> int:
    """Print one line per game. Returns 0 (also with no games, or unreadable ones)."""
    games_dir = args.games.expanduser()
    found = [(folder, read_or_reason(folder)) for folder in numbered(games_dir)]
    if args.json:
        print(json.dumps([_json(n, f, g) for n, (f, g) in enumerate(found, start=1)], indent=2))
        return 0
    if not found:
        print(f"no games in {games_dir}")
        return 0
    for number, (folder, game) in enumerate(found, start=1):
        name = str(folder.relative_to(games_dir))
        if isinstance(game, str):
            print(f"{number:3d}  {name}  UNREADABLE: {game}")
            continue
        when = f"{game.tag('Date', '?')} {game.tag('Time')}".strip()
        players = ", ".join(game.game.players)
        print(f"{number:3d}  {name}  {when}  {players}  result {game.result}  {len(game.game.history)} turns")
    return 0
