"""The command line starts without the heavy libraries: ``tilescribe --help`` and ``tilescribe
score`` load neither OpenCV, numpy, fpdf nor pygame (bench/bench_cli.py times them)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
HEAVY = ("cv2", "numpy", "fpdf", "pygame")
PROBE = """
import sys
from tilescribe.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(" ".join(sorted(m for m in {heavy!r} if m in sys.modules)), file=sys.stderr)
"""


def loaded_heavy_modules(*args: str) -> list[str]:
    run = subprocess.run(
        [sys.executable, "-c", PROBE.format(heavy=HEAVY), *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        cwd=REPO,
        timeout=60,
    )
    return run.stderr.strip().splitlines()[-1].split() if run.stderr.strip() else []


@pytest.mark.parametrize(
    "args",
    [("--help",), ("board", "--help"), ("doctor", "--help"), ("run", "--help"), ("simulate", "--help")],
)
def test_help_loads_no_heavy_library(args: tuple[str, ...]) -> None:
    assert loaded_heavy_modules(*args) == []


def test_score_loads_no_heavy_library(tmp_path: Path) -> None:
    game = tmp_path / "game.txt"
    game.write_text('[Game "MODLINSEQ"]\n[Modulus "13"]\n[Order "3"]\n1. 3B2, 5B1\n', encoding="utf-8")
    assert loaded_heavy_modules("score", str(game)) == []


def test_printing_loads_what_it_needs(tmp_path: Path) -> None:
    assert loaded_heavy_modules("board", "print", "--order", "1", "--dpi", "50", "--out", str(tmp_path)) == [
        "cv2",
        "fpdf",
        "numpy",
    ]
    assert (tmp_path / "board.pdf").is_file()
