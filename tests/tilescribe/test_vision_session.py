"""The camera observer on a simulated 1280x960 recording: hands, settled reads, occupied cells.

Exercises the real vision stack (board locating, gate, presence, tile reader) through
tilescribe.vision_observer. Face accuracy is not asserted here (it is the tile reader's figure,
see bench/bench_tiles.py and bench/bench_session.py); this checks what the session relies on:
a hand is never read, every change of the board is read once it is still, in time, and the read
finds exactly the occupied cells.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from display.view import CameraState
from engine.hexgrid import Board, format_address
from engine.settings import Settings
from tilescribe.demo import plan_game, write_recording
from tilescribe.faces import FaceMap
from tilescribe.settings import TableSettings
from tilescribe.vision_observer import VisionObserver
from vision.sim.recording import SimOptions
from vision.sim.timeline import Pacing
from vision.sources import RecordingSource


@pytest.fixture(scope="module")
def camera_recording(tmp_path_factory: pytest.TempPathFactory, board_json: Path) -> Path:
    settings = TableSettings(game=Settings(modulus=13, board=Board.hexagon(4), players=("Ana", "Bo")))
    plan = plan_game(settings, turns=3, seed=3)
    options = SimOptions(seed=9, size=(1280, 960), pacing=Pacing(lead_in=3.0, pause_chance=0.0),
                         shapes=("pentagon",))
    return write_recording(plan, board_json, tmp_path_factory.mktemp("camera") / "recording", options)


def test_hands_are_never_read_and_every_still_board_is_read_in_time(camera_recording: Path) -> None:
    source = RecordingSource(camera_recording)
    frames = source.recording.frames
    observer = VisionObserver(source.recording.board, FaceMap("modlinseq", 13), still_seconds=0.5)
    reads: dict[int, set[str]] = {}
    with source:
        for frame in source:
            obs = observer.observe(frame)
            if obs.faces is not None:
                assert not frames[frame.index].hand, f"frame {frame.index}: read with a hand over the board"
                reads[frame.index] = {format_address(c) for c in obs.faces}
            if frames[frame.index].hand:
                assert obs.camera is not CameraState.LOCKED or frame.index == 0
    changes = [i for i in range(1, len(frames)) if frames[i].cells != frames[i - 1].cells]
    assert len(changes) >= 4 and len(reads) >= 4
    for change in changes:
        still = next(i for i in range(change, len(frames)) if not frames[i].hand)
        after = [i for i in reads if i >= still]
        assert after, f"the board after frame {still} was never read"
        first = min(after)
        delay = frames[first].t - frames[still].t
        assert delay <= 1.0, f"the board still at frame {still} was read {delay:.2f} s later"
        assert reads[first] == set(frames[first].cells), f"frame {first}: occupied cells misfound"
