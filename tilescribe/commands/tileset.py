"""``tilescribe tileset list|show|learn``: tile-set profiles (calibration/tilesets.py).

``tilescribe tileset learn IMAGE --board board.json --base rummikub --name myset --out DIR``
learns a user's own set from one photo of one tile of each face laid upright on the printed
board, on the first cells in address order (or ``--cells A0,B1,...``; faces in ``--faces``,
default the base set's faces). It writes DIR/myset.toml and DIR/myset.npz; pass
``--tileset DIR/myset.toml`` to ``read``, ``read-tiles``, ``calibrate`` or ``run``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from calibration.tilesets import TileSetError, builtin_tilesets, format_tileset, load_tileset
from tilescribe.options import profile_name


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``tileset`` to the CLI."""
    p = subparsers.add_parser("tileset", help="tile-set profiles: list, show, learn your own set")
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    sub.add_parser("list", help="list the built-in profiles").set_defaults(func=_list)
    show = sub.add_parser("show", help="print a profile")
    show.add_argument("tileset", help="profile name or file")
    show.set_defaults(func=_show)
    learn = sub.add_parser("learn", help="learn your own set from one photo on the printed board")
    learn.add_argument("image", help="photo of one tile of each face laid upright on the board")
    learn.add_argument("--board", required=True, help="board.json of the printed board")
    learn.add_argument("--base", default="rummikub", help="profile the set is like (values, counts)")
    learn.add_argument("--faces", help="comma-separated faces in cell order (default: the base's faces)")
    learn.add_argument("--cells", help="comma-separated cells holding them (default: A0, B1, ...)")
    learn.add_argument("--name", required=True, type=profile_name,
                       help="name of the new profile (letters, digits, - and _; its file names)")
    learn.add_argument("--out", required=True, type=Path, help="directory for NAME.toml and NAME.npz")
    learn.set_defaults(func=_learn)


def _list(args: argparse.Namespace) -> int:
    for name in builtin_tilesets():
        print(f"{name:<12} {load_tileset(name).description}")
    return 0


def _show(args: argparse.Namespace) -> int:
    try:
        print(format_tileset(load_tileset(args.tileset)), end="")
    except TileSetError as exc:
        print(f"tilescribe tileset show: {exc}", file=sys.stderr)
        return 2
    return 0


def _learn(args: argparse.Namespace) -> int:
    from calibration.geometry import BoardFileError, BoardGeometry
    from vision.board.locate import BoardNotFoundError
    from vision.capture.images import ImageError, load_image
    from vision.reader.glyph_reader import TileReaderError
    from vision.reader.tileset_learn import learn_tileset

    try:
        image = load_image(args.image)
        tileset = learn_tileset(
            image, BoardGeometry.load(args.board), load_tileset(args.base), args.name, args.out,
            faces=tuple(args.faces.split(",")) if args.faces else None,
            cells=tuple(args.cells.split(",")) if args.cells else None, where=args.image)
    except (ImageError, TileSetError, TileReaderError, BoardFileError, BoardNotFoundError) as exc:
        print(f"tilescribe tileset learn: {exc}", file=sys.stderr)
        return 2
    print(f"learned {len(tileset.faces)} faces; profile {args.out / (args.name + '.toml')}")
    return 0
