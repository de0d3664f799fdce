"""``tilescribe export GAME --out FILE.zip``: a game's transcript and the photo of every committed turn.

GAME is a game folder's name or its number in ``tilescribe games``. The archive holds
``<game>/transcript.txt`` and ``<game>/photos/turn-NNN.jpg`` for the turns the transcript commits
(as the turns index names them); the file is written atomically.
"""

from __future__ import annotations

import argparse
import io
import sys
import zipfile

from tilescribe.commands.games import numbered, read_or_reason
from tilescribe.commands.run import add_games_argument
from tilescribe.durable import write_atomic
from tilescribe.game_folder import TRANSCRIPT, GameRecord
from tilescribe.options import new_file


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``export`` sub-command."""
    p = subparsers.add_parser(
        "export",
        help="a game's transcript and photos as one zip file",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", help="the game's folder name or its number in `tilescribe games`")
    p.add_argument("--out", type=new_file, required=True, help="the zip file to write")
    add_games_argument(p)
    p.set_defaults(func=export)


def export(args: argparse.Namespace) -> int:
    """Write the archive; returns 0, or 2 for an unknown or unreadable game or photo or an unwritable file."""
    games_dir = args.games.expanduser()
    chosen = [f for n, f in enumerate(numbered(games_dir), start=1) if args.game in (str(n), f.name)]
    if not chosen:
        print(
            f"tilescribe export: no game {args.game!r} in {games_dir} (see `tilescribe games`)",
            file=sys.stderr,
        )
        return 2
    game = read_or_reason(chosen[0])
    if not isinstance(game, GameRecord):
        print(f"tilescribe export: game {args.game!r} cannot be read: {game}", file=sys.stderr)
        return 2
    name = game.folder.name
    buffer = io.BytesIO()
    photos = [e["photo"] for e in game.index[: len(game.game.history)] if e.get("photo")]
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{name}/{TRANSCRIPT}", game.text)
        for photo in photos:
            path = game.folder / photo
            try:
                archive.write(path, f"{name}/{photo}")
            except OSError as exc:
                print(f"tilescribe export: {path}: cannot be read ({exc.strerror or exc})", file=sys.stderr)
                return 2
    try:
        write_atomic(args.out, buffer.getvalue())
    except OSError as exc:
        print(
            f"tilescribe export: --out {args.out}: cannot be written ({exc.strerror or exc})", file=sys.stderr
        )
        return 2
    print(f"{args.out}: {name}, {len(game.game.history)} turns, {len(photos)} photos")
    return 0
