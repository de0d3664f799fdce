"""A small recorded game for the real ``tilescribe run`` sessions of the reliability tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from calibration.board_print import SheetSpec, print_board
from tests.tilescribe.conftest import small_plan
from tilescribe.demo import write_recording
from vision.sim.recording import SimOptions


@pytest.fixture(scope="session")
def recording(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 320x240 recording of seven turns (no hands: the session, not the vision, is under test)."""
    out = tmp_path_factory.mktemp("reliability")
    print_board(SheetSpec(order=4), out / "board")
    return write_recording(
        small_plan(),
        out / "board" / "board.json",
        out / "recording",
        SimOptions(seed=5, size=(320, 240), fps=10.0),
    )
