"""``tilescribe read IMAGE --board board.json --modulus M``: the tiles on the board in one frame."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from engine.limits import MAX_MODULUS
from tilescribe.options import int_in

if TYPE_CHECKING:
    from vision.board.board_reader import ReadConfig


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``read`` to the CLI."""
    p = subparsers.add_parser("read", help="read every tile on the board in one image")
    p.add_argument("image", help="camera image (JPEG/PNG) of the board")
    p.add_argument("--board", help="board.json written by 'tilescribe board print' (needed without --game)")
    p.add_argument("--modulus", type=int_in(1, MAX_MODULUS),
                   help=f"the modulus (faces >= it have no value; 1 to {MAX_MODULUS}; needed without --game)")
    p.add_argument("--game", help="a game without a board (superwild, holominoes): tiles on the bare table")
    p.add_argument("--calibration", help="calibration file from 'tilescribe calibrate' (optional)")
    p.add_argument("--tileset", help="tile-set profile mapping faces to values (e.g. rummikub)")
    p.add_argument("--json", action="store_true", help="print the reading as JSON")
    p.set_defaults(func=run)


def build_config(board: str, modulus: int, calibration: str | None, tileset: str | None) -> ReadConfig:
    """The read pipeline's config from command-line options.

    Raises:
        BoardFileError: board.json bad; CalibrationError: calibration bad or for another board;
        ValueError: bad modulus or unknown tile set.
    """
    from calibration.board_calibration import Calibration
    from calibration.geometry import BoardGeometry
    from vision.board.board_reader import ReadConfig
    from vision.reader.glyph_reader import reader_for_tileset

    geometry = BoardGeometry.load(board)
    empty = None
    if calibration:
        cal = Calibration.load(calibration)
        cal.check_board(geometry, calibration)
        empty = cal.empty_board
    face_values = {}
    profile = None
    if tileset:
        from calibration.tilesets import load_tileset

        profile = load_tileset(tileset)
        face_values = profile.face_values(modulus)
    return ReadConfig(geometry, modulus, reader_for_tileset(profile), face_values, empty)


def run(args: argparse.Namespace) -> int:
    """Read one image; 0 when the board was found, 1 when not, 2 for bad input (the image, board.json,
    the calibration or the tile set, named in one line on standard error)."""
    from engine.hexgrid import address_sort_key, format_address
    from vision.board.board_reader import BoardReader
    from vision.capture.images import load_image
    from vision.errors import VisionError

    if args.game is not None:
        return read_table(args)
    if args.board is None or args.modulus is None:
        print("tilescribe read: --board and --modulus are needed (or --game)", file=sys.stderr)
        return 2
    try:
        image = load_image(args.image)
        config = build_config(args.board, args.modulus, args.calibration, args.tileset)
        reading = BoardReader(config).read(image, args.image)
    except (ValueError, VisionError) as exc:
        print(f"tilescribe read: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(reading.to_json()))
    elif not reading.board_found:
        print(reading.findings[0])
    else:
        for cell, r in sorted(reading.cells.items(), key=lambda item: address_sort_key(item[0])):
            value = "wild" if r.value is None else r.value
            print(f"{format_address(cell):>4} {r.face:>6}  value {value}  confidence {r.confidence:.2f}")
        for finding in reading.findings:
            print(finding)
        print(f"{len(reading.cells)} tiles, {reading.ms:.1f} ms")
    return 0 if reading.board_found else 1


def read_table(args: argparse.Namespace) -> int:
    """``read IMAGE --game superwild|holominoes``: games.md's "Reading a table" JSON; 0 when tiles
    were placed, 1 for bad input or nothing to place (one line on standard error naming it)."""
    from vision.capture.images import load_image
    from vision.errors import VisionError
    from vision.reader.model import TileReader
    from vision.table.table_reading import TABLE_GAMES, read_table, table_game

    try:
        game = table_game(args.game)
        if game is None:
            raise ValueError(f"--game {args.game}: read from a bare table are {', '.join(TABLE_GAMES)}")
        image = load_image(args.image)
        reading = read_table(game, image, TileReader())
    except (ValueError, VisionError) as exc:
        where = "" if args.image in str(exc) else f"{args.image}: "  # the image's errors name it
        print(f"tilescribe read: {where}{exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(reading.to_json()))
    else:
        for tile in reading.tiles:
            print("  ".join(f"{k} {v}" for k, v in tile.items()))
        print(f"{len(reading.tiles)} tiles, {reading.ms:.1f} ms")
    for problem in reading.problems:
        print(problem, file=sys.stderr)
    if not reading.tiles:
        print(f"tilescribe read: {args.image}: no {game} tile found", file=sys.stderr)
        return 1
    return 0
