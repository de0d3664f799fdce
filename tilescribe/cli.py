"""The ``tilescribe`` command line: one sub-command per module in tilescribe.commands.

Each command module defines ``register(subparsers) -> None``, which adds its sub-parser and sets
``func`` (called with the parsed ``argparse.Namespace``, returning the exit status).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from tilescribe.allocator import keep_freed_memory

#: Our error types that are not ValueError or OSError, as module and class: a command's bad input.
#: Looked up only in modules already loaded (an error of a module never loaded cannot be raised),
#: so that the command line starts without OpenCV.
INPUT_ERRORS: tuple[tuple[str, str], ...] = (
    ("vision.errors", "VisionError"),
    ("tilescribe.game_folder", "JournalError"),
)

#: Sub-command modules, in the order ``tilescribe --help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "tilescribe.commands.score",
    "tilescribe.commands.hint",
    "tilescribe.commands.board",
    "tilescribe.commands.tiles",
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


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line usage error: ``tilescribe CMD: argument --X: what is wrong``."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every sub-command registered (sub-parsers share its class)."""
    parser = _Parser(
        prog="tilescribe",
        description="A table companion for numbered-tile board games (MODLINSEQ and others).",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def command_name(args: argparse.Namespace) -> str:
    """``tilescribe CMD [ACTION]`` of the parsed command line, the prefix of its error lines."""
    words = [args.command, getattr(args, "board_action", None), getattr(args, "action", None)]
    return " ".join(["tilescribe", *(w for w in words if w)])


def is_input_error(exc: BaseException) -> bool:
    """True for an error that reports bad input: ValueError, OSError or one of INPUT_ERRORS."""
    if isinstance(exc, ValueError | OSError):
        return True
    for module, name in INPUT_ERRORS:
        loaded = sys.modules.get(module)
        if loaded is not None and isinstance(exc, getattr(loaded, name)):
            return True
    return False


def error_line(exc: BaseException) -> str:
    """An error as one line naming its input: an OSError's file and reason, else the message."""
    if isinstance(exc, OSError) and exc.filename is not None and exc.strerror:
        text = f"{exc.filename}: {exc.strerror}"
    else:
        text = str(exc) or type(exc).__name__
    return " ".join(text.split())


def main(argv: Sequence[str] | None = None) -> int:
    """Run one sub-command; returns its exit status (2 for a usage error or bad input).

    Bad input the command did not report itself (an error of ours, or a ValueError or OSError from
    reading an input) ends as one line ``tilescribe CMD: message`` on standard error and status 2,
    never a traceback; Ctrl-C ends with status 130, and a closed standard output (``| head``) with
    status 141 and nothing more.
    """
    keep_freed_memory()
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        name = command_name(args)
        print(f"{name}: unrecognized arguments: {' '.join(extra)} (see {name} --help)", file=sys.stderr)
        return 2
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:  # the reader of standard output left (``| head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception as exc:
        if not is_input_error(exc):
            raise
        print(f"{command_name(args)}: {error_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{command_name(args)}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
