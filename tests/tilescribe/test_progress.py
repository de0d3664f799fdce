"""Progress bars of the long jobs: shown on a terminal, not with --quiet, not when standard error is
a pipe or a file (``tilescribe simulate`` run for real each way)."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from calibration.board_print import SheetSpec, design_board

REPO = Path(__file__).resolve().parents[2]
GAME = """[Game "MODLINSEQ"]
[Modulus "13"]
[Order "2"]
[Players "Ana, Bo"]
1. Ana: 3B2, 5B1
2. Bo: 7M1
"""


def run_on_terminal(argv: list[str]) -> str:
    """Run ``argv`` with standard error (and output) on a pseudo-terminal of 100 x 40; its output."""
    main, side = pty.openpty()
    fcntl.ioctl(side, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=side, stderr=side, env=env, cwd=REPO)
    os.close(side)
    chunks = []
    while True:
        try:
            data = os.read(main, 65536)
        except OSError:  # the terminal closed with the process
            break
        if not data:
            break
        chunks.append(data)
    os.close(main)
    assert proc.wait(timeout=120) == 0
    return b"".join(chunks).decode(errors="replace")


@pytest.fixture()
def simulate_argv(tmp_path: Path) -> list[str]:
    design_board(SheetSpec(order=2, dpi=60)).save(tmp_path / "board.json")
    (tmp_path / "game.txt").write_text(GAME, encoding="utf-8")
    return [
        sys.executable,
        "-m",
        "tilescribe.cli",
        "simulate",
        str(tmp_path / "game.txt"),
        "--board",
        str(tmp_path / "board.json"),
        "--out",
        str(tmp_path / "rec"),
        "--size",
        "160x120",
        "--fps",
        "2",
        "--no-hands",
    ]


def test_simulate_shows_a_bar_on_a_terminal_only(simulate_argv: list[str]) -> None:
    shown = run_on_terminal(simulate_argv)
    assert "100%" in shown and "frame/s" in shown
    assert "100%" not in run_on_terminal([*simulate_argv, "--quiet"])
    piped = subprocess.run(
        simulate_argv,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        cwd=REPO,
        timeout=120,
    )
    assert piped.returncode == 0 and piped.stderr == ""
    assert "frames" in piped.stdout
