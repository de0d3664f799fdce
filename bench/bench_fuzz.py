"""Fuzz every file tilescribe reads: tracebacks, time-outs and the slowest case, per kind of file.

The cases are the fuzz tests' (tests/tilescribe/fuzz_inputs.py: valid transcripts, settings
files, tile-set profiles, board.json, frames.json and images, mutated with huge numbers, hostile
tags and addresses, bytes that are not UTF-8, forged image sizes, truncation), drawn by hypothesis
from a fixed seed, ``--cases`` per kind (default 1,500: 10,500 in all). A case whose reader raises
anything but its documented errors is a traceback; one that runs past ``--timeout`` seconds (15)
is a time-out. Both should be 0; the exit status is 1 otherwise.

Run: ``.venv/bin/python bench/bench_fuzz.py [--cases N] [--timeout S]``.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hypothesis import HealthCheck, Phase, given, seed, settings

from tilescribe.progress import add_quiet_option, progress

if TYPE_CHECKING:
    from tests.tilescribe.fuzz_inputs import Target

REPO = Path(__file__).resolve().parents[1]


class CaseTimeout(Exception):
    """A case ran past the time limit."""


def _alarm(_signum: int, _frame: object) -> None:
    raise CaseTimeout


@dataclass
class Tally:
    """What the cases of one kind of file did."""

    cases: int = 0
    refused: int = 0
    tracebacks: list[str] = field(default_factory=list)
    timeouts: list[str] = field(default_factory=list)
    slowest: tuple[float, str] = (0.0, "")


def _short(case: Any) -> str:
    text = repr(case)
    return text if len(text) <= 160 else f"{text[:120]} ... ({len(text)} characters)"


def fuzz(target: Target, cases: int, timeout: float, quiet: bool) -> Tally:
    """Run ``cases`` cases of ``target``, each under a ``timeout``-second alarm (a progress bar
    unless ``quiet``)."""
    tally = Tally()
    bar = progress(total=cases, desc=target.name, unit="case", leave=False, quiet=quiet)

    @seed(20261124)
    @settings(
        max_examples=cases,
        deadline=None,
        database=None,
        derandomize=False,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.generate],
    )
    @given(target.cases)
    def one(case: Any) -> None:
        tally.cases += 1
        bar.update()
        signal.setitimer(signal.ITIMER_REAL, timeout)
        start = time.perf_counter()
        try:
            target.run(case)
        except target.documented:
            tally.refused += 1
        except CaseTimeout:
            tally.timeouts.append(_short(case))
        except Exception:  # any other exception is what the bench counts
            tally.tracebacks.append(f"{_short(case)}\n{traceback.format_exc(limit=-3)}")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        elapsed = time.perf_counter() - start
        if elapsed > tally.slowest[0]:
            tally.slowest = (elapsed, _short(case))

    one()
    bar.close()
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cases", type=int, default=1500, help="cases per kind of file (default 1500)")
    parser.add_argument("--timeout", type=float, default=15.0, help="seconds before a case is a time-out")
    add_quiet_option(parser)
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))  # the cases live with the tests
    from tests.tilescribe.fuzz_inputs import TARGETS

    signal.signal(signal.SIGALRM, _alarm)
    print(f"{'input':<16}{'cases':>7}{'refused':>9}{'tracebacks':>12}{'time-outs':>11}{'slowest ms':>12}")
    total = Tally()
    for target in TARGETS:
        tally = fuzz(target, args.cases, args.timeout, args.quiet)
        print(
            f"{target.name:<16}{tally.cases:>7}{tally.refused:>9}{len(tally.tracebacks):>12}"
            f"{len(tally.timeouts):>11}{tally.slowest[0] * 1e3:>12.1f}",
            flush=True,
        )
        total.cases += tally.cases
        total.refused += tally.refused
        total.tracebacks += [f"[{target.name}] {t}" for t in tally.tracebacks]
        total.timeouts += [f"[{target.name}] {t}" for t in tally.timeouts]
        if tally.slowest[0] > total.slowest[0]:
            total.slowest = (tally.slowest[0], f"[{target.name}] {tally.slowest[1]}")
    print(
        f"{'all':<16}{total.cases:>7}{total.refused:>9}{len(total.tracebacks):>12}{len(total.timeouts):>11}"
        f"{total.slowest[0] * 1e3:>12.1f}"
    )
    print(f"slowest case: {total.slowest[1]}")
    for problem in (total.tracebacks + total.timeouts)[:10]:
        print(f"\n{problem}")
    return 1 if total.tracebacks or total.timeouts else 0


if __name__ == "__main__":
    sys.exit(main())
