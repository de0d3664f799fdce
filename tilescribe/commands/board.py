"""``tilescribe board print``: write the printable board (board.pdf, board.png, board.json)."""

from __future__ import annotations

import argparse

from calibration.board_print import MAX_CELL_MM, PAPER_MM, SheetSpec, print_board
from engine.limits import MAX_ORDER
from tilescribe.options import float_in, int_in


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``board`` (with its ``print`` action) to the CLI."""
    parser = subparsers.add_parser("board", help="print a MODLINSEQ board sheet with fiducial markers")
    actions = parser.add_subparsers(dest="board_action", required=True, metavar="ACTION")
    p = actions.add_parser("print", help="write board.pdf, board.png and board.json")
    p.add_argument("--order", type=int_in(0, MAX_ORDER), default=9,
                   help=f"hexagon order, rings 0..ORDER (default 9, at most {MAX_ORDER})")
    p.add_argument("--cell-mm", type=float_in(27.0, MAX_CELL_MM), default=32.0,
                   help=f"distance between cell centres (mm, 27 for 25 mm tiles to {MAX_CELL_MM:g})")
    p.add_argument("--paper", choices=sorted(PAPER_MM), default="A3", help="sheet size for board.pdf")
    p.add_argument("--dpi", type=float_in(50.0, 600.0), default=150.0,
                   help="board.png resolution (default 150, 50 to 600)")
    p.add_argument("--out", required=True, help="output directory")
    p.set_defaults(func=run_print)


def run_print(args: argparse.Namespace) -> int:
    """Write the board files; returns 0.

    Raises:
        ValueError: the options make a sheet too large (tilescribe.cli reports it in one line).
        OSError: ``--out`` cannot be written.
    """
    spec = SheetSpec(order=args.order, cell_mm=args.cell_mm, dpi=args.dpi)
    geometry = print_board(spec, args.out, args.paper)
    print(f"wrote {args.out}/board.pdf, board.png, board.json: order {geometry.order}, "
          f"{len(geometry.cells)} cells, {len(geometry.markers)} markers")
    return 0
