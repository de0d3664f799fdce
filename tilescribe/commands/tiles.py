"""``tilescribe tiles print``: print-and-play tile sheets (tiles.pdf with cut lines, tiles.json).

``--game`` picks the set: Yushino's 96 tiles (seed §6), Holominoes' 40 (games.md) or a MODLINSEQ
set for ``--modulus`` (§1-3, the built-in tile-set profile). See calibration.tile_sheets.
"""

from __future__ import annotations

import argparse
import sys

from calibration.paper import PAPER_MM
from tilescribe.commands.board import game_among
from tilescribe.options import float_in, int_in

#: The games with a tile sheet (Super Wild is played with a bought Rummikub-style set).
TILE_GAMES = ("Yushino", "Holominoes", "MODLINSEQ")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``tiles`` (with its ``print`` action) to the CLI."""
    parser = subparsers.add_parser("tiles", help="print a game's tiles to cut out")
    actions = parser.add_subparsers(dest="board_action", required=True, metavar="ACTION")
    p = actions.add_parser("print", help="write tiles.pdf (with cut lines) and tiles.json")
    p.add_argument("--game", type=game_among(TILE_GAMES, "tile sheet"), required=True,
                   help="Yushino, Holominoes or MODLINSEQ")
    p.add_argument("--paper", choices=sorted(PAPER_MM), default="A4", help="sheet size (default A4)")
    p.add_argument("--modulus", type=int_in(2, 13), default=13, help="MODLINSEQ: the modulus (default 13)")
    p.add_argument("--square-mm", type=float_in(15.0, 60.0), default=25.0,
                   help="Yushino: the board's square side; tiles are 2 mm smaller (default 25)")
    p.add_argument("--out", required=True, help="output directory")
    p.set_defaults(func=run_print)


def run_print(args: argparse.Namespace) -> int:
    """Write the sheets; returns 0, or 2 with a message for bad options."""
    from calibration.tile_sheets import write_tile_sheets

    try:
        placed = write_tile_sheets(args.game, args.out, args.paper, args.modulus, args.square_mm)
    except (ValueError, OSError) as exc:
        print(f"tilescribe tiles print: {exc}", file=sys.stderr)
        return 2
    sheets = placed[-1].page
    print(f"wrote {args.out}/tiles.pdf, tiles.json: {args.game}, {len(placed)} tiles on {sheets} sheets")
    return 0
