"""Benchmark of the game journal's reliability: kills at every write point and at random moments, and
racing sessions, on the disk (fsync for real).

- every write point: the journal writer (tests/reliability/harness.py: the journal driven as
  ``tilescribe run`` drives it, over a seeded random game with an undo) killed at each of its
  write points in turn (``TILESCRIBE_KILL_AT``), then recovered and resumed;
- random kills: the writer SIGKILLed at a moment drawn uniformly over its run, then resumed;
- racing pairs: two writers started at once on one unfinished game;
- real sessions: ``tilescribe run`` of a small recording SIGKILLed at a random moment, then resumed.

Prints, per part: the runs, committed turns lost, unreadable games, tangled games, stale files after
recovery, the recovery's repairs; for the races, the pairs where exactly one writer was refused.
Targets: 0 lost, 0 unreadable, 0 tangled, 0 stale; one refused in every pair.

    .venv/bin/python bench/bench_reliability.py                 # full scale
    .venv/bin/python bench/bench_reliability.py --kills 10 --pairs 10 --run-kills 2 --turns 4
"""

from __future__ import annotations

import argparse
import collections
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.reliability.harness import (  # noqa: E402 - after the path
    REFUSED,
    Check,
    check,
    complete,
    race,
    recorded_game,
    run_writer,
    small_recording,
    start_run,
    target_game,
)
from tilescribe.game_folder import game_folders, read_game  # noqa: E402
from tilescribe.progress import add_quiet_option, progress  # noqa: E402


class Tally:
    """Sums of :class:`Check` over runs."""

    def __init__(self) -> None:
        self.runs = self.lost = self.unreadable = self.tangled = self.stale = self.incomplete = 0
        self.repairs: collections.Counter[str] = collections.Counter()

    def add(self, after: Check, final: Check, is_complete: bool) -> None:
        self.runs += 1
        for c in (after, final):
            self.lost += c.lost
            self.unreadable += c.unreadable
            self.tangled += c.tangled
            self.stale += c.stale
        self.incomplete += not is_complete
        for line in after.repairs:
            self.repairs[re.sub(r"\d+", "N", line.split(": ", 1)[1])] += 1

    def line(self, name: str) -> str:
        return (
            f"{name}: {self.runs} runs, lost turns {self.lost}, unreadable {self.unreadable}, tangled "
            f"{self.tangled}, stale {self.stale}, not complete after resuming {self.incomplete}"
        )


def _resume_and_check(games: Path, target: tuple, acked: int, tally: Tally) -> None:
    after = check(games, target, acked)
    status = run_writer(games, target, resume_only=True).status
    final = check(games, target, len(target))
    tally.add(after, final, status == 0 and complete(games, target))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--turns", type=int, default=8, help="turns of the writers' game")
    parser.add_argument("--kills", type=int, default=100, help="writers SIGKILLed at random moments")
    parser.add_argument("--pairs", type=int, default=100, help="racing pairs")
    parser.add_argument("--run-kills", type=int, default=10, help="real `tilescribe run` sessions SIGKILLed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", type=Path, help="scratch folder (default: a temporary one on /tmp's disk)")
    add_quiet_option(parser)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    target = target_game(args.turns, args.seed)
    with tempfile.TemporaryDirectory(dir=args.dir) as scratch:
        root = Path(scratch)
        full = run_writer(root / "count", target, kill_at=10**9)
        durations = []
        for n in range(3):  # a whole game's time, to draw the random kills over
            start = time.monotonic()
            run_writer(root / f"time-{n}", target)
            durations.append(time.monotonic() - start)
        duration = statistics.median(durations)
        ms = duration * 1000
        print(f"writer: {args.turns} turns, {full.passed} write points, {ms:.0f} ms a game on this disk")

        points = Tally()
        for point in progress(range(1, full.passed + 1), quiet=args.quiet, desc="write points"):
            games = root / f"point-{point}"
            killed = run_writer(games, target, kill_at=point)
            points.incomplete += killed.status != 137
            _resume_and_check(games, target, killed.acked, points)
        print(points.line("every write point"))

        randoms, landed = Tally(), 0
        for n in progress(range(args.kills), quiet=args.quiet, desc="random kills"):
            games = root / f"random-{n}"
            killed = run_writer(games, target, kill_after=rng.uniform(0.0, duration))
            landed += killed.status == -signal.SIGKILL
            _resume_and_check(games, target, killed.acked, randoms)
        print(randoms.line("random kills") + f" ({landed} landed before the writer ended)")
        repairs = points.repairs + randoms.repairs
        for what, count in sorted(repairs.items(), key=lambda kv: -kv[1]):
            print(f"  repaired {count:4d}x: {what}")

        one_refused = races_sound = 0
        for n in progress(range(args.pairs), quiet=args.quiet, desc="racing pairs"):
            games = root / f"race-{n}"
            run_writer(games, target, kill_at=full.passed // 2)
            check(games, target, 0)
            outcomes = sorted(o.status for o in race(games, target, hold=0.1))
            one_refused += outcomes == [0, REFUSED]
            races_sound += check(games, target, len(target)).sound and complete(games, target)
        print(
            f"racing pairs: {args.pairs}, exactly one refused {one_refused}, journals sound and complete "
            f"{races_sound}"
        )

        if args.run_kills:
            _real_sessions(root, args.run_kills, rng, args.quiet)
    return 0


def _real_sessions(root: Path, kills: int, rng: random.Random, quiet: bool) -> None:
    recording = small_recording(root)
    target = recorded_game(recording)
    start = time.monotonic()
    start_run(recording, root / "run-timed", speed=20.0).communicate(timeout=300)
    whole = time.monotonic() - start  # start-up and the game
    tally, landed = Tally(), 0
    for n in progress(range(kills), quiet=quiet, desc="sessions killed"):
        games = root / f"run-{n}"
        session = start_run(recording, games, speed=20.0)
        acked, ended = 0, False
        try:
            session.communicate(timeout=rng.uniform(0.4 * whole, whole))
        except subprocess.TimeoutExpired:  # still running, as wanted: what it committed, then the kill
            records = [read_game(f) for f in game_folders(games)]
            acked = max((len(r.game.history) for r in records), default=0)
            ended = any(r.is_finished for r in records)
            session.send_signal(signal.SIGKILL)
            session.communicate()
        landed += session.returncode == -signal.SIGKILL and not ended
        after = check(games, target, acked)
        resumed = start_run(recording, games)
        resumed.communicate(timeout=300)
        final = check(games, target, len(target))
        tally.add(after, final, resumed.returncode == 0 and complete(games, target))
    print(tally.line("real sessions SIGKILLed") + f" ({landed} killed before the game's end)")


if __name__ == "__main__":
    sys.exit(main())
