"""``tilescribe board print``: write the printable board (board.pdf, board.png, board.json)."""

from __future__ import annotations

import argparse
import sys

from calibration.paper import PAPER_MM


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``board`` (with its ``print`` action) to the CLI."""
    parser = subparsers.add_parser("board", help="print a MODLINSEQ board sheet with fiducial markers")
    actions = parser.add_subparsers(dest="board_action", required=True, metavar="ACTION")
    p = actions.add_parser("print", help="write board.pdf, board.png and board.json")
    p.add_argument("--order", type=int, default=9, help="hexagon order, rings 0..ORDER (default 9)")
    p.add_argument("--cell-mm", type=float, default=32.0, help="distance between cell centres (mm)")
    p.add_argument("--paper", choices=sorted(PAPER_MM), default="A3", help="sheet size for board.pdf")
    p.add_argument("--dpi", type=float, default=150.0, help="board.png resolution (default 150)")
    p.add_argument("--out", required=True, help="output directory")
    p.set_defaults(func=run_print)


def run_print(args: argparse.Namespace) -> int:
    """Write the board files; returns 0, or 2 with a message for bad options."""
    from calibration.board_print import SheetSpec, print_board

    try:
        spec = SheetSpec(order=args.order, cell_mm=args.cell_mm, dpi=args.dpi)
        geometry = print_board(spec, args.out, args.paper)
    except (ValueError, OSError) as exc:
        print(f"tilescribe board print: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}/board.pdf, board.png, board.json: order {geometry.order}, "
          f"{len(geometry.cells)} cells, {len(geometry.markers)} markers")
    return 0
