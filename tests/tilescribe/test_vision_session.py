"""The session on the real vision stack (board locating, gate, presence, tile reader), 1280x960.

- the camera observer: a hand is never read, every change of the board is read once it is still,
  within 1 s, and the read finds exactly the occupied cells;
- a whole game with real Rummikub tile crops through ``tilescribe run`` (reading the images, not
  the recorded truth), with hands, pauses mid-turn, an illegal placement fixed and a camera
  dropout: exactly the true transcript and scores.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import cv2
import pytest

from display.view import CameraState
from engine.hexgrid import format_address
from tilescribe.cli import main
from tilescribe.demo import GamePlan
from tilescribe.faces import FaceMap
from tilescribe.game_folder import plain_turns
from tilescribe.vision_observer import VisionObserver
from vision.capture.sources import Recording, RecordingSource


def test_hands_are_never_read_and_every_still_board_is_read_in_time(
        camera_game: tuple[Path, GamePlan]) -> None:
    source = RecordingSource(camera_game[0])
    frames = source.recording.frames
    observer = VisionObserver(source.recording.board, FaceMap("rummikub", 13), still_seconds=0.5)
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


def test_frames_too_small_for_the_board_are_said_once(tmp_path: Path,
                                                     camera_game: tuple[Path, GamePlan]) -> None:
    """The same recording (an order-4 board) at a quarter of its size, the cells under 20 px
    apart: the observer says once, at its first read, that the frames are too small and what to
    ask for; at full size it says nothing."""
    copy = shutil.copytree(camera_game[0], tmp_path / "recording")
    recording = Recording.load(copy)
    for frame in recording.frames:
        image = cv2.imread(str(copy / frame.file))
        small = cv2.resize(image, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
        cv2.imwrite(str(copy / frame.file), small)
    said: dict[str, list[str]] = {"small": [], "full": []}
    for name, folder in (("small", copy), ("full", camera_game[0])):
        source = RecordingSource(folder)
        observer = VisionObserver(source.recording.board, FaceMap("rummikub", 13), still_seconds=0.5,
                                  warn=said[name].append)
        reads = 0
        with source:
            for frame in source:
                reads += observer.observe(frame).faces is not None
        assert reads >= 4, name
    assert said["full"] == []
    assert len(said["small"]) == 1, said["small"]
    assert re.match(r"frame \d+: the board's cells are 1\d px apart", said["small"][0]), said["small"]
    assert "--source pi:2560x1920" in said["small"][0]


def test_whole_game_read_from_the_images(tmp_path: Path, camera_game: tuple[Path, GamePlan],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    folder, plan = camera_game
    copy = shutil.copytree(folder, tmp_path / "recording")
    frames = Recording.load(copy).frames
    for i in range(len(frames) // 2, len(frames) // 2 + 4):  # the camera drops out for 0.4 s
        (copy / frames[i].file).unlink()
    games = tmp_path / "games"
    assert main(["run", "--source", str(copy), "--headless", "--no-sound", "--games", str(games),
                 "--resume", "no"]) == 0
    transcript = next(games.glob("*/transcript.txt")).read_text()
    assert plain_turns(transcript) == plain_turns(plan.transcript())
    scores = plan.scores()
    assert f"scores final: Ana {scores['Ana']}, Bo {scores['Bo']}" in capsys.readouterr().out
