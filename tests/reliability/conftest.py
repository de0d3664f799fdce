"""A small recorded game for the real ``tilescribe run`` sessions of the reliability tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reliability.harness import small_recording


@pytest.fixture(scope="session")
def recording(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 320x240 recording of seven turns (no hands: the session, not the vision, is under test)."""
    return small_recording(tmp_path_factory.mktemp("reliability"))
