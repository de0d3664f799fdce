"""Start-up time of the command line: ``tilescribe --help`` and ``tilescribe score TRANSCRIPT``.

Each command runs as a fresh subprocess (``python -m tilescribe.cli`` with PYTHONPATH set to the
checkout), ``--runs`` times, the checkouts taking turns run by run so that a busy machine slows
them alike; prints the median, the fastest and the slowest wall time per command and checkout. The
transcript is a seeded random MODLINSEQ game of ``--turns`` turns (order 9, modulus 13), written to
a temporary file.

    .venv/bin/python bench/bench_cli.py                           # this checkout
    .venv/bin/python bench/bench_cli.py --checkout /work/main     # and another one, side by side
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from engine.modlinseq_rules import random_game_text  # noqa: E402
from engine.settings import Settings  # noqa: E402
from tilescribe.progress import add_quiet_option, progress  # noqa: E402


def time_run(checkout: Path, args: list[str]) -> float:
    """Wall time (s) of ``python -m tilescribe.cli ARGS`` run from ``checkout``.

    Raises:
        SystemExit: the command failed (exit status above 1: 1 is an illegal turn, still a run).
    """
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "tilescribe.cli", *args],
        cwd=checkout,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    elapsed = time.perf_counter() - start
    if done.returncode > 1:
        raise SystemExit(f"{checkout}: tilescribe {' '.join(args)} failed ({done.returncode}): {done.stderr}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command per checkout")
    parser.add_argument("--turns", type=int, default=40, help="turns of the scored transcript")
    parser.add_argument(
        "--checkout",
        type=Path,
        action="append",
        default=[],
        help="another checkout to time beside this one (repeatable)",
    )
    add_quiet_option(parser)
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error(f"--runs must be >= 1, got {args.runs}")
    checkouts = [REPO, *(c.resolve() for c in args.checkout)]
    for checkout in checkouts:
        if not (checkout / "tilescribe" / "cli.py").is_file():
            parser.error(f"--checkout {checkout}: no tilescribe/cli.py there")
    with tempfile.TemporaryDirectory() as tmp:
        transcript = Path(tmp) / "demo.txt"
        text = random_game_text(Settings(modulus=13), seed=1, turns=args.turns)  # order 9, two players
        transcript.write_text(text, encoding="utf-8")
        commands = {"--help": ["--help"], "score": ["score", str(transcript)]}
        times: dict[tuple[Path, str], list[float]] = {(c, n): [] for c in checkouts for n in commands}
        for checkout in checkouts:  # one untimed run each: the files in the page cache, bytecode compiled
            for command in commands.values():
                time_run(checkout, command)
        for _ in progress(range(args.runs), unit="round", quiet=args.quiet):
            for name, command in commands.items():
                for checkout in checkouts:
                    times[checkout, name].append(time_run(checkout, command))
    print(
        f"tilescribe start-up, {args.runs} runs each (subprocesses, interleaved), "
        f"score of a {args.turns}-turn transcript; {sys.executable}"
    )
    for (checkout, name), values in times.items():
        print(
            f"{str(checkout):<28} {name:<7} median {statistics.median(values) * 1000:6.0f} ms  "
            f"min {min(values) * 1000:5.0f}  max {max(values) * 1000:5.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
