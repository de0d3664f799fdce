"""Progress bars for the long jobs (simulate, the benchmarks, the training scripts): tqdm on
standard error, shown only where someone watches (standard error is a terminal) and not with
``--quiet``."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import TypeVar

from tqdm import tqdm

T = TypeVar("T")


def progress(iterable: Iterable[T] | None = None, *, quiet: bool = False, **options: object) -> tqdm[T]:
    """A tqdm bar over ``iterable``; off when ``quiet`` or when standard error is not a terminal.

    Args:
        iterable: what to iterate (None for a bar updated by hand).
        quiet: no bar at all.
        options: tqdm's own (``desc``, ``total``, ``unit``, ``leave``, ...).
    """
    return tqdm(iterable, disable=True if quiet else None, **options)  # None: off when not a terminal


def add_quiet_option(parser: argparse.ArgumentParser) -> None:
    """The ``--quiet`` option (no progress bars)."""
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
