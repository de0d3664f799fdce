"""The journal-writing process killed at every write point and at random moments, and racing writers:
no committed turn lost, no unreadable, tangled or stale game after recovery, one racer refused.

Small scale for CI; bench/bench_reliability.py runs the full scale and prints the figures.
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.reliability.harness import REFUSED, check, complete, race, run_writer, target_game

TARGET = target_game(4, seed=3)


@pytest.fixture
def scratch() -> Iterator[Path]:
    """A folder in memory (/dev/shm) where there is one: the kills test the process, not the disk,
    and fsyncs there cost nothing (bench/bench_reliability.py runs on the disk)."""
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as folder:
        yield Path(folder)


def test_a_kill_at_every_write_point_loses_nothing(scratch: Path) -> None:
    points = run_writer(scratch / "count", TARGET, kill_at=10**9).passed
    assert points >= 40  # the game's making, four turns, an undo and the result
    for point in range(1, points + 1):
        games = scratch / str(point)
        killed = run_writer(games, TARGET, kill_at=point)
        assert killed.status == 137, f"write point {point}: the writer was not killed there"
        after = check(games, TARGET, killed.acked)
        assert after.sound, f"write point {point}: {after}"
        assert run_writer(games, TARGET, resume_only=True).status == 0
        assert check(games, TARGET, len(TARGET)).sound and complete(games, TARGET), f"write point {point}"


def test_sigkill_at_random_moments_loses_nothing(scratch: Path) -> None:
    rng = random.Random(7)
    started = time.monotonic()
    assert run_writer(scratch / "timed", TARGET).status == 0
    took = time.monotonic() - started  # kill moments scale with this machine's speed and load
    kills = 0
    for n in range(12):
        games = scratch / str(n)
        first = run_writer(games, TARGET, kill_after=rng.uniform(0.0, 0.8 * took))
        kills += first.status == -9
        after = check(games, TARGET, first.acked)
        assert after.sound, f"kill {n}: {after}"
        assert run_writer(games, TARGET, resume_only=True).status == 0 and complete(games, TARGET)
    assert kills >= 6  # most of them land while it writes


def test_two_writers_on_one_game_one_is_refused(scratch: Path) -> None:
    for n in range(5):
        games = scratch / str(n)
        assert run_writer(games, TARGET, kill_at=35).status == 137  # an unfinished game to resume
        check(games, TARGET, 0)
        outcomes = sorted(o.status for o in race(games, TARGET, hold=0.2))
        assert outcomes == [0, REFUSED], f"pair {n}: {outcomes}"
        assert check(games, TARGET, len(TARGET)).sound and complete(games, TARGET)
