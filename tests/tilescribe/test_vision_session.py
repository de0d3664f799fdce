"""The session on the real vision stack (board locating, gate, presence, tile reader), 1280x960.

- the camera observer: a hand is never read, every change of the board is read once it is still,
  within 1 s, and the read finds exactly the occupied cells;
- a whole game with real Rummikub tile crops through ``tilescribe run`` (reading the images, not
  the recorded truth), with hands, pauses mid-turn, an illegal placement fixed and a camera
  dropout: exactly the true transcript and scores.
"""

from __future__ import annotations

import shutil
from pathlib import Path

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
