"""``tilescribe board print``: write the printable board (board.pdf, board.png, board.json).

``--game`` picks the board: MODLINSEQ's hex board (the default) or Yushino's 15 x 15 squares with
their premiums (``--layout`` a layout file, games.md). Super Wild and Holominoes have no board.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from calibration.geometry import MAX_CELL_MM
from calibration.paper import PAPER_MM
from engine.games import canonical_name
from engine.limits import MAX_ORDER
from tilescribe.options import float_in, int_in

#: The games with a printed board.
BOARD_GAMES = ("MODLINSEQ", "Yushino")


def game_among(games: tuple[str, ...], what: str) -> Callable[[str], str]:
    """An argparse type: the registered name of one of ``games`` (games.md's matching of names).

    Args:
        games: the games accepted.
        what: what they have, for the message (``"a board"``).
    """

    def parse(text: str) -> str:
        try:
            name = canonical_name(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        if name not in games:
            raise argparse.ArgumentTypeError(f"{name} has no {what}; these do: {', '.join(games)}")
        return name

    return parse


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``board`` (with its ``print`` action) to the CLI."""
    parser = subparsers.add_parser("board", help="print a game board sheet with fiducial markers")
    actions = parser.add_subparsers(dest="board_action", required=True, metavar="ACTION")
    p = actions.add_parser("print", help="write board.pdf, board.png and board.json")
    p.add_argument("--game", type=game_among(BOARD_GAMES, "board to print"), default="MODLINSEQ",
                   help="MODLINSEQ (hex board, the default) or Yushino (15 x 15 squares)")
    p.add_argument("--order", type=int_in(0, MAX_ORDER), default=9,
                   help=f"MODLINSEQ: hexagon order, rings 0..ORDER (default 9, at most {MAX_ORDER})")
    p.add_argument("--cell-mm", type=float_in(27.0, MAX_CELL_MM), default=32.0,
                   help=f"MODLINSEQ: distance between cell centres (mm, 27 to {MAX_CELL_MM:g})")
    p.add_argument("--square-mm", type=float_in(15.0, 60.0), default=25.0,
                   help="Yushino: side of a square (mm, default 25, 15 to 60)")
    p.add_argument("--layout", default="classic",
                   help="Yushino: premium layout, 'classic' or a layout file (games.md)")
    p.add_argument("--paper", choices=sorted(PAPER_MM), default="A3", help="sheet size for board.pdf")
    p.add_argument("--dpi", type=float_in(50.0, 600.0), default=150.0,
                   help="board.png resolution (default 150, 50 to 600)")
    p.add_argument("--out", required=True, help="output directory")
    p.set_defaults(func=run_print)


def run_print(args: argparse.Namespace) -> int:
    """Write the board files; returns 0, or 2 with a message for bad options."""
    try:
        if args.game == "Yushino":
            return _print_yushino(args)
        from calibration.board_print import SheetSpec, print_board

        spec = SheetSpec(order=args.order, cell_mm=args.cell_mm, dpi=args.dpi)
        geometry = print_board(spec, args.out, args.paper)
    except (ValueError, OSError) as exc:
        print(f"tilescribe board print: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}/board.pdf, board.png, board.json: order {geometry.order}, "
          f"{len(geometry.cells)} cells, {len(geometry.markers)} markers")
    return 0


def _print_yushino(args: argparse.Namespace) -> int:
    """Yushino's board; ValueError / OSError (a bad layout file among them) go to the caller."""
    from calibration.square_board import SquareSpec, print_square_board
    from engine.yushino.board import load_layout

    path = Path(args.layout)  # 'classic', or a file read from its own folder
    layout = load_layout(path.name, path.parent)
    geometry = print_square_board(SquareSpec(square_mm=args.square_mm, dpi=args.dpi), args.out, args.paper,
                                  layout)
    premiums = sum(s.premium is not None for s in geometry.squares.values())
    print(f"wrote {args.out}/board.pdf, board.png, board.json: Yushino, {len(geometry.squares)} squares "
          f"({premiums} premiums, layout {geometry.layout}), {len(geometry.markers)} markers")
    return 0
