"""Kill the journal-writing process and check what it leaves (tests/reliability, bench/bench_reliability.py).

The writer is a forked child running the journal exactly as ``tilescribe run`` drives it: recovery
of the games folder, the latest unfinished game resumed (locked) or a new one made, then the turns
of a seeded random game committed one by one (each play with a photo; turn 3 is undone once and
played again, so that the rewrite is killed too), then the Result. After each committed turn it
tells the parent through a pipe, so the parent knows which turns were committed before a kill.

It is killed either at a write point (``TILESCRIBE_KILL_AT``, tilescribe.durable) or by SIGKILL
from the parent at a moment chosen at random. :func:`check` then runs the recovery and counts
what a kill must never cause: committed turns lost, unreadable or tangled games, stale files.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.game import PLAY, Game, TurnRecord
from engine.hexgrid import Board
from engine.randomgame import random_game
from engine.settings import Settings
from engine.transcript import parse_transcript, replay
from tilescribe import durable
from tilescribe.durable import KILL_AT, TMP_SUFFIX
from tilescribe.game_folder import DAMAGED, JournalError, game_folders, latest_unfinished, read_game
from tilescribe.journal import GameInUseError, Journal
from tilescribe.recovery import recover
from tilescribe.settings import TableSettings

SETTINGS = TableSettings(
    game=Settings(modulus=13, board=Board.hexagon(4), players=("Ana", "Bo"), tiles_per_value=None)
)
PHOTO = np.random.default_rng(0).integers(0, 255, (48, 64, 3), dtype=np.uint8)
#: The turn that is undone once and played again.
UNDONE_TURN = 3
#: Exit status of a writer refused because another one holds the game.
REFUSED = 3


def target_game(turns: int, seed: int) -> tuple[TurnRecord, ...]:
    """The seeded random game the writers commit."""
    return random_game(SETTINGS.game, turns, seed, max_tiles=3)[0].history


def _apply(game: Game, record: TurnRecord) -> None:
    if record.kind == PLAY:
        game.play(record.placements)
    elif record.kind == "pass":
        game.pass_turn()
    else:
        game.freeze()


def write_game(
    games_dir: Path, target: tuple[TurnRecord, ...], tell: int, hold: float = 0.0, resume_only: bool = False
) -> None:
    """The writer (in the child): resume or start the game and commit the rest of ``target``.

    Args:
        games_dir: the games folder.
        target: the turns to commit.
        tell: a pipe's write end: ``T<n>`` lines, n the turns the record must hold from then on
            (after each commit, and before an undo), ``T0`` when refused.
        hold: seconds to hold the game before the first turn (a session's length, for the races).
        resume_only: go on after a kill: a game that has finished is not started again.
    """
    recover(games_dir)
    folder = latest_unfinished(games_dir)
    if folder is None and resume_only and game_folders(games_dir):
        return
    try:
        journal = Journal.open(folder) if folder is not None else Journal.create(games_dir, SETTINGS)
    except GameInUseError:
        os.write(tell, b"T0\n")
        os._exit(REFUSED)
    time.sleep(hold)
    game = journal.restore()
    while len(game.history) < len(target):
        _apply(game, target[len(game.history)])
        journal.record(
            game.history[-1], frame=len(game.history), photo=PHOTO if game.history[-1].kind == PLAY else None
        )
        os.write(tell, b"T%d\n" % len(game.history))
        if len(game.history) == UNDONE_TURN and "undone:" not in journal.transcript_path.read_text():
            game.undo()
            os.write(tell, b"T%d\n" % len(game.history))
            journal.rewrite(game, "undone")
    journal.finish(game)
    journal.close()


@dataclass(frozen=True, slots=True)
class Outcome:
    """How one writer ended.

    Attributes:
        status: its exit status (137: killed at a write point, -9: SIGKILL, REFUSED, 0: done).
        acked: the turns the record must hold (the last number it sent).
        passed: write points it passed (when run with a kill point past its last).
    """

    status: int
    acked: int
    passed: int = 0


def start_writer(
    games_dir: Path,
    target: tuple[TurnRecord, ...],
    kill_at: int | None = None,
    hold: float = 0.0,
    gate: tuple[int, int] | None = None,
    resume_only: bool = False,
) -> tuple[int, int]:
    """Fork a writer; returns (pid, the read end of its pipe). With ``gate`` (a pipe's two ends), it
    waits until the parent closes the pipe's write end (to start racing writers at once)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        status = 0
        try:
            os.close(read)
            if gate is not None:
                os.close(gate[1])
                os.read(gate[0], 1)
            if kill_at is not None:
                os.environ[KILL_AT] = str(kill_at)
            write_game(games_dir, target, write, hold, resume_only)
            os.write(write, b"P%d\n" % durable.passed_points())
        except BaseException as exc:  # noqa: BLE001 - the child reports anything and exits
            print(f"writer: {exc!r}", file=sys.stderr)
            status = 1
        os._exit(status)
    os.close(write)
    return pid, read


def finish_writer(pid: int, read: int, kill_after: float | None = None) -> Outcome:
    """Wait for a writer (SIGKILL it after ``kill_after`` seconds when given) and read what it said."""
    said = b""
    deadline = None if kill_after is None else time.monotonic() + kill_after
    while True:
        timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
        ready, _, _ = select.select([read], [], [], timeout)
        if not ready:
            os.kill(pid, signal.SIGKILL)
            deadline = None
            continue
        chunk = os.read(read, 4096)
        if not chunk:
            break
        said += chunk
    os.close(read)
    _, status = os.waitpid(pid, 0)
    code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    lines = said.decode().split()
    acked = next((int(w[1:]) for w in reversed(lines) if w.startswith("T")), 0)
    passed = next((int(w[1:]) for w in lines if w.startswith("P")), 0)
    return Outcome(code, acked, passed)


def run_writer(
    games_dir: Path,
    target: tuple[TurnRecord, ...],
    kill_at: int | None = None,
    kill_after: float | None = None,
    resume_only: bool = False,
) -> Outcome:
    """One writer from start to end (or to its kill)."""
    pid, read = start_writer(games_dir, target, kill_at, resume_only=resume_only)
    return finish_writer(pid, read, kill_after)


@dataclass(frozen=True, slots=True)
class Check:
    """What one kill left, after recovery.

    Attributes:
        lost: committed turns missing (acknowledged by the writer, not in the record).
        unreadable: games that could not be read, or were moved aside.
        tangled: games whose turns are not the target game's first turns, in order.
        stale: temporary files, photos of no committed turn, index entries out of step.
        repairs: the lines the recovery said.
    """

    lost: int
    unreadable: int
    tangled: int
    stale: int
    repairs: tuple[str, ...]

    @property
    def sound(self) -> bool:
        """Nothing lost, unreadable, tangled or stale."""
        return self.lost == self.unreadable == self.tangled == self.stale == 0


def check(games_dir: Path, target: tuple[TurnRecord, ...], acked: int) -> Check:
    """Recover ``games_dir`` and count what was lost, unreadable, tangled or left stale."""
    repairs = tuple(recover(games_dir)) if games_dir.is_dir() else ()
    unreadable = tangled = stale = 0
    committed = 0
    if (games_dir / DAMAGED).exists():
        unreadable += len(list((games_dir / DAMAGED).iterdir()))
    stale += len(list(games_dir.rglob("*" + TMP_SUFFIX))) if games_dir.is_dir() else 0
    for folder in sorted(p for p in games_dir.glob("*") if p.is_dir() and p.name != DAMAGED):
        try:
            record = read_game(folder)
        except JournalError:
            unreadable += 1
            continue
        history = record.game.history
        committed = max(committed, len(history))
        if [(r.kind, r.placements) for r in history] != [
            (r.kind, r.placements) for r in target[: len(history)]
        ]:
            tangled += 1
        if [e["turn"] for e in record.index] != list(range(1, len(history) + 1)):
            stale += 1
        photos = {folder / e["photo"] for e in record.index if e.get("photo")}
        on_disk = set((folder / "photos").iterdir())
        plays = sum(r.kind == PLAY for r in history)
        stale += len(on_disk ^ photos) + abs(len(photos) - plays)
    return Check(max(0, acked - committed), unreadable, tangled, stale, repairs)


def complete(games_dir: Path, target: tuple[TurnRecord, ...]) -> bool:
    """True when the first game of ``games_dir`` has finished with exactly ``target``'s turns (a game
    that ended before its kill is followed by a new one when the session starts again)."""
    folders = game_folders(games_dir)
    if not folders:
        return False
    record = read_game(folders[0])
    same = [(r.kind, r.placements) for r in record.game.history] == [(r.kind, r.placements) for r in target]
    return record.is_finished and same


def race(games_dir: Path, target: tuple[TurnRecord, ...], hold: float) -> tuple[Outcome, Outcome]:
    """Two writers started at once on the unfinished game of ``games_dir`` (each holds the game
    ``hold`` seconds before writing, as a session would); their outcomes."""
    gate = os.pipe()
    writers = [start_writer(games_dir, target, hold=hold, gate=gate) for _ in range(2)]
    os.close(gate[0])
    os.close(gate[1])  # both start now
    first, second = (finish_writer(pid, read) for pid, read in writers)
    return first, second


REPO = Path(__file__).resolve().parents[2]


def start_run(
    recording: Path, games_dir: Path, kill_at: int | None = None, speed: float | None = None
) -> subprocess.Popen[str]:
    """A real ``tilescribe run --resume yes`` of a recording (its recorded truth, headless) in a new
    process, optionally killed at a write point or paced ``speed`` times faster than recorded."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env.pop(KILL_AT, None)
    if kill_at is not None:
        env[KILL_AT] = str(kill_at)
    cmd = [
        sys.executable,
        "-m",
        "tilescribe.cli",
        "run",
        "--source",
        str(recording),
        "--truth",
        "--headless",
        "--no-sound",
        "--games",
        str(games_dir),
        "--resume",
        "yes",
    ]
    if speed is not None:
        cmd += ["--speed", str(speed)]
    return subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def recorded_game(recording: Path) -> tuple[TurnRecord, ...]:
    """The turns a recording's truth plays (its frames.json transcript), as committed turns."""
    transcript = json.loads((recording / "frames.json").read_text())["transcript"]
    game, _ = replay(parse_transcript(transcript)[0])
    return game.history


def small_recording(out: Path, hands: bool = False) -> Path:
    """A 320x240 recording of the seven-turn game of tests/tilescribe (``small_plan``) under ``out``."""
    from calibration.board_print import SheetSpec, print_board
    from tests.tilescribe.conftest import small_plan
    from tilescribe.demo import write_recording
    from vision.sim.recording import SimOptions

    print_board(SheetSpec(order=4), out / "board")
    options = SimOptions(seed=5, size=(320, 240), fps=10.0, hands=hands)
    return write_recording(small_plan(), out / "board" / "board.json", out / "recording", options)
