"""``tilescribe read IMAGE --board board.json --modulus M``: the tiles on the board in one frame.

``--game yushino`` reads Yushino's printed square board instead (``--board`` optional: the default
sheet of ``tilescribe board print --game yushino``); the JSON is MODLINSEQ's, squares as addresses
("H8") and a blank as face "#" with value null. ``--game superwild|holominoes`` reads the tiles
lying on the bare table (games.md, "Reading a table").
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from engine.games import TABLE_GAMES
from engine.limits import MAX_MODULUS
from tilescribe.commands.board import BOARD_GAMES, game_among
from tilescribe.options import SECOND_READERS, int_in

if TYPE_CHECKING:
    from vision.board.board_reader import BoardReading, ReadConfig


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``read`` to the CLI."""
    p = subparsers.add_parser("read", help="read every tile on the board (or the table) in one image")
    p.add_argument("image", help="camera image (JPEG/PNG) of the board or the table")
    p.add_argument("--game", type=game_among(BOARD_GAMES + TABLE_GAMES, "reading"), default="MODLINSEQ",
                   help="the game: MODLINSEQ (default) or Yushino on their boards, Super Wild or "
                        "Holominoes on the bare table")
    p.add_argument("--board", help="board.json written by 'tilescribe board print' (needed for MODLINSEQ; "
                                   "Yushino: the default square board when left out)")
    p.add_argument("--modulus", type=int_in(1, MAX_MODULUS),
                   help=f"MODLINSEQ's modulus (faces >= it have no value; 1 to {MAX_MODULUS})")
    p.add_argument("--direction", choices=("forward", "either"),
                   help="Yushino: how its sequences read (the transcript's Direction tag; default forward)")
    p.add_argument("--calibration", help="calibration file from 'tilescribe calibrate' (optional)")
    p.add_argument("--tileset", help="tile-set profile mapping faces to values (e.g. rummikub)")
    p.add_argument("--ocr", choices=SECOND_READERS,
                   help="MODLINSEQ: a second reader for the faces the reader is unsure of (default "
                        "none; tesseract is slower and reads with the glyph reader, which asks it)")
    p.add_argument("--json", action="store_true", help="print the reading as JSON")
    p.set_defaults(func=run)


def build_config(board: str, modulus: int, calibration: str | None, tileset: str | None,
                 ocr: str | None = None) -> ReadConfig:
    """The read pipeline's config from command-line options (``ocr``: the second reader,
    "tesseract", or None or "none").

    Raises:
        BoardFileError: board.json bad; CalibrationError: calibration bad or for another board;
        ValueError: bad modulus or unknown tile set.
    """
    from calibration.board_calibration import Calibration
    from calibration.geometry import BoardGeometry
    from vision.board.board_reader import ReadConfig
    from vision.reader import board_face_reader

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
    return ReadConfig(geometry, modulus, board_face_reader(profile, ocr == "tesseract"), face_values, empty)


def run(args: argparse.Namespace) -> int:
    """Read one image; 0 when the board was found, 1 when not, 2 for bad input (the image, board.json,
    the calibration or the tile set, named in one line on standard error)."""
    if args.game == "Yushino":
        return read_yushino(args)
    if args.game in TABLE_GAMES:
        return read_table_game(args)
    from vision.board.board_reader import BoardReader
    from vision.capture.images import load_image
    from vision.errors import VisionError

    missing = [o for o, v in (("--board", args.board), ("--modulus", args.modulus)) if v is None]
    if missing or args.direction:
        print(f"tilescribe read: MODLINSEQ needs {' and '.join(missing)}" if missing else
              "tilescribe read: --direction: not for MODLINSEQ (Yushino's option)", file=sys.stderr)
        return 2
    try:
        image = load_image(args.image)
        config = build_config(args.board, args.modulus, args.calibration, args.tileset, args.ocr)
        reading = BoardReader(config).read(image, args.image)
    except (ValueError, VisionError) as exc:
        print(f"tilescribe read: {exc}", file=sys.stderr)
        return 2
    return print_reading(reading, args.json, "wild")


def print_reading(reading: BoardReading, as_json: bool, no_value: str) -> int:
    """Print a reading: its JSON document, or a line per tile, the findings and a summary.

    Args:
        reading: the board's reading.
        as_json: print the ``--json`` document.
        no_value: the word for a tile without a value ("wild", "blank").

    Returns:
        0 when the board was found, 1 when not.
    """
    doc = reading.to_json()
    if as_json:
        print(json.dumps(doc))
    elif not reading.board_found:
        print(reading.findings[0])
    else:
        for address, r in doc["cells"].items():
            value = no_value if r["value"] is None else r["value"]
            print(f"{address:>4} {r['face']:>6}  value {value}  confidence {r['confidence']:.2f}")
        for finding in reading.findings:
            print(finding)
        print(f"{len(reading.cells)} tiles, {reading.ms:.1f} ms")
    return 0 if reading.board_found else 1


def read_yushino(args: argparse.Namespace) -> int:
    """Read Yushino's square board in one image (exit status as :func:`run`)."""
    from calibration.square_board import SquareSpec, design_square_board
    from calibration.square_geometry import SquareBoardGeometry, load_board
    from vision.board.square_reader import SquareBoardReader, SquareReadConfig
    from vision.capture.images import load_image
    from vision.errors import VisionError
    from vision.reader.model import TileReader

    unused = [o for o, v in (("--modulus", args.modulus), ("--calibration", args.calibration),
                             ("--tileset", args.tileset), ("--ocr", args.ocr)) if v is not None]
    try:
        if unused:
            raise ValueError(f"{', '.join(unused)}: not for Yushino (MODLINSEQ's options)")
        geometry = design_square_board(SquareSpec()) if args.board is None else load_board(args.board)
        if not isinstance(geometry, SquareBoardGeometry):
            raise ValueError(f"{args.board}: a hex board; Yushino is read on the square board of "
                             f"'tilescribe board print --game yushino'")
        image = load_image(args.image)
        config = SquareReadConfig(geometry, TileReader(), direction=args.direction or "forward")
        reading = SquareBoardReader(config).read(image, args.image)
    except (ValueError, VisionError) as exc:
        print(f"tilescribe read: {exc}", file=sys.stderr)
        return 2
    return print_reading(reading, args.json, "blank")


def read_table_game(args: argparse.Namespace) -> int:
    """``read IMAGE --game superwild|holominoes``: games.md's "Reading a table" JSON; 0 when tiles
    were placed, 1 when none was (or no Super Wild was seen), 2 for bad input (one line on standard
    error naming it)."""
    from vision.capture.images import load_image
    from vision.errors import VisionError
    from vision.table.superwild_grid import GridError
    from vision.table.table_reading import TableConfig, read_table

    game = args.game
    options = (("--board", args.board), ("--modulus", args.modulus), ("--direction", args.direction),
               ("--calibration", args.calibration), ("--tileset", args.tileset), ("--ocr", args.ocr))
    unused = [o for o, v in options if v is not None]
    try:
        if unused:
            raise ValueError(f"{', '.join(unused)}: not for {game} (read from the bare table)")
        image = load_image(args.image)
        reading = read_table(TableConfig(game), image)
    except GridError as exc:  # nothing to count the grid from: a reading, not bad input
        print(f"tilescribe read: {args.image}: {exc}", file=sys.stderr)
        return 1
    except (ValueError, VisionError) as exc:
        print(f"tilescribe read: {exc}", file=sys.stderr)
        return 2
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
