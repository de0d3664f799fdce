"""Timing shared by the engine benchmarks: the median wall time of a call, and each game's cases
(bench/games_*.py) timed on their own from the command line."""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``fn()`` in milliseconds over ``repeat`` calls (after one warm-up)."""
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def calls_for(case: str, repeat: int) -> int:
    """Timed calls for ``case``: ``repeat``, a tenth of it (at least 3) for the slow ``"hint"``."""
    return repeat if case != "hint" else max(3, repeat // 10)


def time_cases(cases: Callable[[int], dict[str, Callable[[], object]]], description: str) -> None:
    """Command line of a bench/games_*.py module: ``[--seed N] [--repeat N]``; prints the median ms of
    each case of ``cases(seed)``."""
    parser = argparse.ArgumentParser(description=description.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=50, help="timed calls per case (a tenth for hint)")
    args = parser.parse_args()
    for name, fn in cases(args.seed).items():
        runs = calls_for(name, args.repeat)
        print(f"{name:12s} {median_ms(fn, runs):9.3f} ms (median of {runs} calls)")
