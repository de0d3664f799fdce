"""Whole simulated games through ``tilescribe run``: exact transcripts and scores.

These runs read the recordings' true cells (``--truth``): they test the session (hands, pauses
mid-turn, the illegal placement, corrections, dropouts, crash and resume), not the vision.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pygame
import pytest

from display.theme import Theme
from engine.transcript import parse_transcript
from tilescribe.cli import main
from tilescribe.demo import DEMO_VERSION, GamePlan, demo_recording
from tilescribe.game_folder import game_folders, read_game
from vision.capture.sources import Recording

REPO = Path(__file__).resolve().parents[2]


def _turns(text: str) -> list[tuple[str | None, str, frozenset[str], str | None]]:
    """The turns with their comments, less the journal's clock comments."""
    transcript, errors = parse_transcript(text)
    assert errors == []
    return [(t.player, t.kind, frozenset(str(p) for p in t.placements),
             re.sub(r"\s*\[%time [\d:]+\]", "", t.comment or "") or None) for t in transcript.turns]



def _turn_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line[:1].isdigit()]


def _run(tmp_path: Path, source: Path | None, *extra: str) -> tuple[int, Path]:
    games = tmp_path / "games"
    args = ["run", "--truth", "--headless", "--no-sound", "--games", str(games), "--resume", "no", *extra]
    if source is not None:
        args += ["--source", str(source)]
    status = main(args)
    transcripts = sorted(games.glob("*/transcript.txt"))
    return status, transcripts[-1]


def _has_colour(png: Path, colour: tuple[int, int, int]) -> bool:
    pixels = pygame.surfarray.pixels3d(pygame.image.load(str(png)))
    return bool(np.all(pixels == np.array(colour, np.uint8), axis=2).sum() > 50)


@pytest.mark.parametrize("size", ["800x480", "1920x1080"])
def test_whole_game_hands_pauses_and_an_illegal_placement(
        tmp_path: Path, truth_recording: tuple[Path, GamePlan], capsys: pytest.CaptureFixture[str],
        size: str) -> None:
    folder, plan = truth_recording
    recording = Recording.load(folder)
    assert any(f.hand for f in recording.frames)
    wrong_turn = plan.wrong[0] if plan.wrong else 0
    assert [e.turn for e in recording.events].count(wrong_turn) == 2  # rejected once, then committed
    status, transcript = _run(tmp_path, folder, "--screenshots", str(tmp_path / "shots"), "--size", size)
    assert status == 0
    assert _turns(transcript.read_text()) == _turns(plan.transcript())
    out = capsys.readouterr().out
    scores = plan.scores()
    assert f"scores final: Ana {scores['Ana']}, Bo {scores['Bo']}" in out
    assert read_game(transcript.parent).is_finished
    plays = [r for r in plan.history if r.kind == "play"]
    assert len(list((transcript.parent / "photos").glob("turn-*.jpg"))) == len(plays)
    shots = sorted((tmp_path / "shots").glob("*.png"))
    assert len(shots) > len(plan.history)
    assert pygame.image.load(str(shots[-1])).get_size() == tuple(int(v) for v in size.split("x"))
    theme = Theme()
    flagged = [p for p in shots if _has_colour(p, theme.illegal)]
    assert flagged, "no screenshot shows the illegal placement in red"
    assert _has_colour(flagged[0], theme.error)  # the rule broken, in words, in red


def test_camera_dropout_loses_nothing(tmp_path: Path, truth_recording: tuple[Path, GamePlan],
                                      caplog: pytest.LogCaptureFixture) -> None:
    folder, plan = truth_recording
    copy = shutil.copytree(folder, tmp_path / "rec")
    frames = Recording.load(copy).frames
    dropped = range(len(frames) // 2, len(frames) // 2 + 6)
    for i in dropped:
        (copy / frames[i].file).unlink()
    status, transcript = _run(tmp_path, copy)
    assert status == 0
    assert _turns(transcript.read_text()) == _turns(plan.transcript())
    lost = [r for r in caplog.records if "missing or unreadable" in r.getMessage()]
    assert len(lost) == len(dropped)


@pytest.mark.parametrize("corrected", [True, False])
def test_misread_corrected_from_the_kiosk(tmp_path: Path, truth_recording: tuple[Path, GamePlan],
                                          misread: Callable[..., object], corrected: bool) -> None:
    folder, plan = truth_recording
    copy = shutil.copytree(folder, tmp_path / "rec")
    misread(copy, plan, corrected)
    status, transcript = _run(tmp_path, copy)
    assert status == 0
    same = _turns(transcript.read_text()) == _turns(plan.transcript())
    assert same is corrected  # without the correction the misread spoils the transcript
    notes = re.findall(r"^\{\[%time [\d:]+\] corrected: (\w+) is (\w+)\}$", transcript.read_text(), re.M)
    assert len(notes) == corrected  # the correction stays in the record, with its time


def test_sigkill_mid_game_then_resume(tmp_path: Path, truth_recording: tuple[Path, GamePlan],
                                      killed_mid_game: Callable[[list[str], Path], list[str]]) -> None:
    folder, plan = truth_recording
    games = tmp_path / "games"
    cmd = [sys.executable, "-m", "tilescribe.cli", "run", "--source", str(folder), "--truth", "--headless",
           "--no-sound", "--games", str(games), "--resume", "yes"]
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    # paced 8 times faster than recorded, so that it is surely still running after three turns
    committed = killed_mid_game([*cmd, "--speed", "8"], games)
    folder_of_game, = game_folders(games)
    assert not read_game(folder_of_game).is_finished
    before = _turn_lines((folder_of_game / "transcript.txt").read_text())
    assert len(before) >= 3 and before[: len(committed)] == committed  # every committed turn is on disk

    resumed = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert f"after turn {len(before)}" in resumed.stdout
    assert game_folders(games) == [folder_of_game]  # the same game went on
    text = (folder_of_game / "transcript.txt").read_text()
    assert _turn_lines(text)[: len(before)] == before
    assert _turns(text) == _turns(plan.transcript())
    assert read_game(folder_of_game).is_finished


def test_default_run_plays_the_cached_demo_and_games_lists_it(
        tmp_path: Path, truth_recording: tuple[Path, GamePlan], capsys: pytest.CaptureFixture[str]) -> None:
    folder, plan = truth_recording
    cache = tmp_path / "cache"
    cached = shutil.copytree(folder, cache / f"demo-v{DEMO_VERSION}" / "recording")  # as if made before
    assert demo_recording(cache) == cached  # the cache is used, nothing is made again
    status, transcript = _run(tmp_path, None, "--cache", str(cache))
    assert status == 0 and _turns(transcript.read_text()) == _turns(plan.transcript())
    out = capsys.readouterr().out
    assert f"transcript: {transcript}" in out
    assert main(["games", "--games", str(tmp_path / "games")]) == 0
    listing = capsys.readouterr().out
    scores = ", ".join(f"{p} {s}" for p, s in plan.scores().items())
    assert f"result {scores}  {len(plan.history)} turns" in listing


def test_a_recording_without_settings_takes_the_board_from_board_json(
        tmp_path: Path, truth_recording: tuple[Path, GamePlan]) -> None:
    folder, plan = truth_recording
    copy = shutil.copytree(folder, tmp_path / "rec")
    doc = json.loads((copy / "frames.json").read_text())
    del doc["settings"], doc["transcript"]  # as `tilescribe simulate` writes it
    (copy / "frames.json").write_text(json.dumps(doc))
    status, transcript = _run(tmp_path, copy, "--players", "Ana,Bo", "--modulus", "13")
    assert status == 0
    text = transcript.read_text()
    assert '[Order "4"]' in text and _turns(text) == _turns(plan.transcript())
