"""The ``tilescribe`` command line: one sub-command per module in tilescribe.commands.

Each command module defines ``register(subparsers) -> None``, which adds its sub-parser and sets
``func`` (called with the parsed ``argparse.Namespace``, returning the exit status).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from tilescribe.allocator import keep_freed_memory

#: Sub-command modules, in the order ``tilescribe --help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "tilescribe.commands.score",
    "tilescribe.commands.hint",
    "tilescribe.commands.board",
    "tilescribe.commands.calibrate",
    "tilescribe.commands.read",
    "tilescribe.commands.simulate",
    "tilescribe.commands.run",
    "tilescribe.commands.games",
    "tilescribe.commands.export",
    "tilescribe.commands.read_tiles",
    "tilescribe.commands.tileset",
    "tilescribe.commands.doctor",
)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every sub-command registered."""
    parser = argparse.ArgumentParser(
        prog="tilescribe",
        description="A table companion for numbered-tile board games (MODLINSEQ and others).",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one sub-command; returns its exit status (2 for a usage error)."""
    keep_freed_memory()
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
