"""Fixtures of the board-reading tests: a printed board and a simulated recording on disk."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.board_print import SheetSpec, print_board
from calibration.geometry import BoardGeometry
from vision.reader.glyph_reader import TileReader
from vision.sim.crops import LabelledTile, read_class_names, read_labels
from vision.sim.recording import SimOptions, make_recording
from vision.sim.timeline import Pacing, SimPlacement

#: A short game: the modulus marker, 6 and 9 (any rotation), wild tiles, two-digit faces.
TURNS: list[list[tuple[str, str]]] = [
    [("A0", "marker"), ("B1", "6"), ("B2", "9")],
    [("M1", "12"), ("M2", "#"), ("M4", "7")],
    [("E1", "9"), ("E2", "6"), ("H1", "19"), ("T1", "0")],
]


@dataclass(frozen=True, slots=True)
class RecordedGame:
    """A recording written by the scene simulator and read back from disk."""

    folder: Path
    board_json: Path
    geometry: BoardGeometry
    frames: list[dict]

    def image(self, i: int) -> np.ndarray:
        """Frame ``i`` as read from its JPEG file (BGR uint8)."""
        image = cv2.imread(str(self.folder / self.frames[i]["file"]))
        assert image is not None
        return image


@pytest.fixture(scope="session")
def printed_board(tmp_path_factory) -> tuple[Path, BoardGeometry]:
    """board.json of an order-9 board at 150 dpi (the default sheet)."""
    out = tmp_path_factory.mktemp("board9")
    geometry = print_board(SheetSpec(order=9), out)
    return out / "board.json", geometry


@pytest.fixture(scope="session")
def recorded_game(tmp_path_factory, printed_board) -> RecordedGame:
    """The TURNS game recorded with hands, a bump of the sheet, held-out tile styles, any rotation."""
    board_json, geometry = printed_board
    out = tmp_path_factory.mktemp("recording")
    turns = [[SimPlacement(a, f) for a, f in turn] for turn in TURNS]
    pacing = Pacing(lead_in=1.0, reach=0.4, move=0.3, rest=0.3, settle=0.8, after=0.8)
    options = SimOptions(seed=11, fps=5.0, split="held_out", shapes=("pentagon", "rectangle"),
                         per_tile_styles=True, any_rotation=True, bumps=1, pacing=pacing)
    make_recording(turns, board_json, out, options)
    doc = json.loads((out / "frames.json").read_text())
    return RecordedGame(out, board_json, geometry, doc["frames"])


@pytest.fixture(scope="module")
def loose_reader() -> TileReader:
    """The tile reader as the loose-tile tests use it: the classifier alone (no tesseract, the
    default)."""
    return TileReader()


@pytest.fixture(scope="session")
def train_photo(photos_dir: Path) -> Callable[[str], tuple[np.ndarray, list[LabelledTile]]]:
    """Loads the real photo of train/ whose name starts with a prefix: (BGR uint8 H x W x 3,
    its labelled tiles)."""
    names = read_class_names(photos_dir / "data.yaml")

    def load(prefix: str) -> tuple[np.ndarray, list[LabelledTile]]:
        path = next((photos_dir / "train" / "images").glob(f"{prefix}*.jpg"))
        image = cv2.imread(str(path))
        h, w = image.shape[:2]
        return image, read_labels(photos_dir / "train" / "labels" / f"{path.stem}.txt", path, (w, h), names)

    return load
