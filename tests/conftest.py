"""Shared test set-up: headless SDL, and a logged ERROR fails the test (style.md, Tests)."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
PHOTOS = SHARED / "data" / "rummikub-photos"


@pytest.fixture(autouse=True)
def _fail_on_logged_error(caplog: pytest.LogCaptureFixture):
    caplog.set_level(logging.WARNING)
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    if errors:
        pytest.fail("logged ERROR: " + "; ".join(r.getMessage() for r in errors))


@pytest.fixture(scope="session")
def photos_dir() -> Path:
    """The real Rummikub photos (../shared/data/rummikub-photos); skips when absent."""
    if not PHOTOS.is_dir():
        pytest.skip(f"real photos not found at {PHOTOS}")
    return PHOTOS
