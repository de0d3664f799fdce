"""``tilescribe read-tiles IMAGE --tileset rummikub [--json]``: loose tiles lying face up in a photo.

Prints every tile found::

    {"tiles": [{"face": "7", "colour": "red", "joker": false, "value": 7,
                "corners": [[x, y], ...4], "center": [x, y], "confidence": 0.98}, ...], "ms": 85.0}

in the photo's pixels: the tiles found by the learned tile finder and read by the learned reader
(vision.table.loose_tiles), the faces limited to the tile set's. ``value`` is the face's value
under ``--modulus`` (default: 13 for Rummikub) by the tile-set profile (13 -> 0, joker -> null: a
wild tile). ``--ocr tesseract`` asks tesseract too for the faces read unsure
(vision.reader.glyph_reader.SECOND_OPINION_BELOW), whose reading of one of the set's faces then
stands; by default tesseract is not asked.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from engine.limits import MAX_MODULUS
from tilescribe.options import SECOND_READERS, int_in


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``read-tiles`` to the CLI."""
    p = subparsers.add_parser("read-tiles", help="find and read loose tiles lying face up in a photo")
    p.add_argument("image", help="photo (JPEG/PNG) of tiles on a table")
    p.add_argument("--tileset", default="rummikub", help="tile-set profile name or file (default rummikub)")
    p.add_argument("--modulus", type=int_in(1, MAX_MODULUS), default=13,
                   help=f"modulus for the tiles' values (default 13, at most {MAX_MODULUS})")
    p.add_argument("--ocr", choices=SECOND_READERS, default="none",
                   help="a second reader for the faces the reader is unsure of (default none; "
                        "tesseract is slower)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Read one photo; 0 on success, 2 for bad input."""
    from calibration.tilesets import TileSetError, load_tileset
    from vision.capture.images import ImageError, load_image
    from vision.reader import ReaderError, tile_reader
    from vision.table import TableError
    from vision.table.finder import tile_finder
    from vision.table.loose_tiles import find_tiles

    try:
        image = load_image(args.image)
        tileset = load_tileset(args.tileset)
        reader, finder = tile_reader(), tile_finder()  # "ms" is the photo's own time, not the first loads
        start = time.perf_counter()
        tiles = find_tiles(image, reader, tileset.faces, finder, tesseract=args.ocr == "tesseract")
        ms = (time.perf_counter() - start) * 1000
        out = []
        for t in tiles:
            out.append({
                "face": t.face,
                "colour": t.colour,
                "joker": t.face in tileset.wild_faces,
                "value": tileset.value(t.face, args.modulus),
                "corners": [[round(x, 1), round(y, 1)] for x, y in t.corners],
                "center": [round(t.center[0], 1), round(t.center[1], 1)],
                "confidence": round(t.confidence, 3),
            })
    except (ImageError, TileSetError) as exc:
        print(f"tilescribe read-tiles: {exc}", file=sys.stderr)
        return 2
    except (ReaderError, TableError) as exc:
        print(f"tilescribe read-tiles: {args.image}: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"tiles": out, "ms": round(ms, 1)}))
    else:
        for t in tiles:
            value = tileset.value(t.face, args.modulus)
            print(f"{t.face:>6} {t.colour:<7} value {'wild' if value is None else value!s:>4}  "
                  f"confidence {t.confidence:.2f}  at ({t.center[0]:.0f}, {t.center[1]:.0f})")
        print(f"{len(out)} tiles, {ms:.1f} ms")
    return 0
