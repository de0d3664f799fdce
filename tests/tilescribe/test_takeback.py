"""Lift to undo: the last committed turn's tiles lifted and a new turn laid in their place."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from display.view import AlertLevel, CameraState
from engine.hexgrid import parse_address
from engine.settings import Settings
from tilescribe.cli import main
from tilescribe.game_folder import game_folders, read_game
from tilescribe.observe import Observation
from tilescribe.settings import TableSettings
from tilescribe.table import Table
from vision.capture.sources import Recording

A = parse_address
FIRST = "4B2 6B1 1A0 3M1"


def _table(auto: float | None = None) -> Table:
    settings = TableSettings(game=Settings(modulus=7, players=("Ana", "Bo")), auto_end_seconds=auto)
    return Table(settings)


def _seen(i: int, cells: str) -> Observation:
    """A settled reading at frame i (t = i / 10 s): ``cells`` like "4B2 6B1"."""
    faces = {}
    for item in cells.split():
        split = 2 if item[-2].isalpha() else 3
        faces[A(item[-split:])] = item[:-split]
    return Observation(i, i / 10, CameraState.LOCKED, faces)


def _quiet(i: int) -> Observation:
    return Observation(i, i / 10, CameraState.LOCKED)


def _moves(table: Table) -> list[tuple[str, list[str]]]:
    return [(r.player, sorted(str(p) for p in r.placements)) for r in table.game.history]


def test_a_tile_committed_by_auto_then_taken_back_is_replaced_by_the_real_turn() -> None:
    table = _table(auto=2.0)
    table.observe(_seen(1, FIRST))
    assert table.request_end() is not None
    table.observe(_seen(10, f"{FIRST} 5M2"))  # Bo lays 5M2 and leaves it still: auto commits it
    assert table.observe(_quiet(40)) is not None and table.game.scores["Bo"] == 6
    assert table.take_lifted() == []
    table.observe(_seen(50, f"{FIRST} 2B4"))  # lifts 5M2, lays 2B4 in one go
    lifted = table.take_lifted()
    assert [(r.player, r.number) for r in lifted] == [("Bo", 2)]
    assert table.alert_level is AlertLevel.WARN and "Turn 2 taken back" in table.alert
    assert table.game.current_player == "Bo" and table.turn is not None and table.turn.legal
    assert table.observe(_quiet(80)) is not None  # the real turn ends by itself in turn
    assert _moves(table) == [("Ana", ["1A0", "3M1", "4B2", "6B1"]), ("Bo", ["2B4"])]
    assert table.game.scores == {"Ana": 3, "Bo": 6}


def test_a_knocked_off_tile_is_put_back_and_nothing_is_undone() -> None:
    table = _table()
    table.observe(_seen(1, FIRST))
    table.request_end()
    table.observe(_seen(2, f"{FIRST} 5M2"))
    assert table.request_end() is not None
    table.observe(_seen(3, FIRST))  # 5M2 knocked off the board
    view = table.view()
    assert view.restore == {A("M2"): "5"} and "or lay a new turn in its place" in view.alert
    assert table.take_lifted() == [] and len(table.game.history) == 2
    table.observe(_seen(4, f"{FIRST} 5M2"))  # put back
    assert table.view().restore == {} and table.alert_level is not AlertLevel.ERROR
    table.observe(_seen(5, f"{FIRST} 5M2 2B4"))
    record = table.request_end()
    assert record is not None and record.player == "Ana" and len(table.game.history) == 3


def test_lifting_the_last_turn_and_ending_the_turn_takes_it_back() -> None:
    table = _table()
    table.observe(_seen(1, FIRST))
    table.request_end()
    table.observe(_seen(2, f"{FIRST} 5M2"))
    table.request_end()
    table.observe(_seen(3, FIRST))
    assert table.request_end() is None
    assert [r.number for r in table.take_lifted()] == [2]
    assert len(table.game.history) == 1 and table.game.current_player == "Bo"
    assert table.view().restore == {} and table.game.scores["Bo"] == 0


def test_a_tile_of_an_earlier_turn_knocked_off_while_a_new_turn_is_laid_is_shown_to_restore() -> None:
    table = _table()
    table.observe(_seen(1, FIRST))
    table.request_end()
    table.observe(_seen(2, f"{FIRST} 5M2"))
    table.request_end()
    table.observe(_seen(3, "4B2 1A0 3M1 5M2 2B4"))  # 6B1 (turn 1) knocked off, 2B4 laid
    assert table.take_lifted() == [] and table.view().restore == {A("B1"): "6"}
    assert table.request_end() is None
    table.observe(_seen(4, f"{FIRST} 5M2 2B4"))
    record = table.request_end()
    assert record is not None and record.player == "Ana" and [str(p) for p in record.placements] == ["2B4"]


def test_an_end_asked_for_before_the_board_settles_commits_the_turn_laid_where_one_was_lifted() -> None:
    table = _table()
    table.observe(_seen(1, FIRST))
    table.request_end()
    table.observe(_seen(2, f"{FIRST} 5M2"))
    table.request_end()
    table.observe(Observation(3, 0.3, CameraState.HAND))  # Bo lifts 5M2, lays 2B4, presses End meanwhile
    assert table.request_end() is None
    assert table.observe(_seen(4, f"{FIRST} 2B4")) is None  # turn 2 taken back (journalled now)...
    assert [(r.player, r.number) for r in table.take_lifted()] == [("Bo", 2)]
    record = table.observe(_quiet(5))  # ...and 2B4 committed with the next frame
    assert record is not None and (record.player, [str(p) for p in record.placements]) == ("Bo", ["2B4"])
    assert "Turn 2 taken back" in table.alert and "+6" in table.alert
    assert table.observe(_seen(9, f"{FIRST} 2B4 3B5")) is None  # the next tiles wait for their own end
    assert len(table.game.history) == 2


def _recording(
    folder: Path, frames: list[str], events: list[dict[str, object]], hands: range = range(0)
) -> Path:
    """A recording folder: one frame a tenth of a second with the true cells ``frames[i]``, a hand
    over the board in the frames ``hands``."""
    folder.mkdir()
    cv2.imwrite(str(folder / "frame.jpg"), np.full((48, 64, 3), 128, np.uint8))
    settings = TableSettings(game=Settings(modulus=7, players=("Ana", "Bo")))
    entries = [
        {
            "file": "frame.jpg",
            "t": i / 10,
            "cells": {item[-2:]: item[:-2] for item in cells.split()},
            "hand": i in hands,
        }
        for i, cells in enumerate(frames)
    ]
    doc = {"fps": 10, "settings": settings.to_dict(), "frames": entries}
    (folder / "frames.json").write_text(json.dumps(doc), encoding="utf-8")
    lines = [json.dumps({"t": e["frame"] / 10, **e}) for e in events]  # type: ignore[operator]
    (folder / "events.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert len(Recording.load(folder).frames) == len(frames)
    return folder


def test_a_turn_taken_back_by_a_correction_is_journalled_before_the_game_ends(tmp_path: Path) -> None:
    # Bo's 5M2 lifted and 2B4 laid while 6B1 (turn 1) is misread as 5: out of sync, nothing taken
    # back; correcting B1 on the last frame shows the lift, and the recording ends there.
    lifted = "4B2 5B1 1A0 3M1 2B4"
    frames = [FIRST] * 10 + [f"{FIRST} 5M2"] * 10 + [lifted] * 10
    events = [
        {"frame": 9, "type": "end_turn", "turn": 1},
        {"frame": 19, "type": "end_turn", "turn": 2},
        {"frame": 29, "type": "correct", "cell": "B1", "face": "6"},
    ]
    folder = _recording(tmp_path / "rec", frames, events)
    games = tmp_path / "games"
    argv = ["run", "--source", str(folder), "--truth", "--headless", "--no-sound", "--games", str(games)]
    assert main([*argv, "--resume", "no"]) == 0
    (game,) = game_folders(games)
    record = read_game(game)
    assert [r.player for r in record.game.history] == ["Ana"]
    assert "] taken back (tiles lifted): 2. Bo: 5M2" in record.text
    assert record.result == ", ".join(f"{p} {s}" for p, s in record.game.scores.items()) == "Ana 3, Bo 0"


def test_a_session_journals_the_turn_taken_back_then_the_one_laid_in_its_place(tmp_path: Path) -> None:
    relaid = f"{FIRST} 2B4"
    frames = [FIRST] * 10 + [f"{FIRST} 5M2"] * 10 + [relaid] * 10
    events = [
        {"frame": 9, "type": "end_turn", "turn": 1},
        {"frame": 19, "type": "end_turn", "turn": 2},
        {"frame": 21, "type": "end_turn"},  # pressed while the hand is still over the board
    ]
    folder = _recording(tmp_path / "rec", frames, events, hands=range(20, 23))
    games = tmp_path / "games"
    argv = ["run", "--source", str(folder), "--truth", "--headless", "--no-sound", "--games", str(games)]
    assert main([*argv, "--resume", "no"]) == 0
    (game,) = game_folders(games)
    record = read_game(game)
    assert [(r.player, [str(p) for p in r.placements]) for r in record.game.history][1:] == [("Bo", ["2B4"])]
    assert "] taken back (tiles lifted): 2. Bo: 5M2" in record.text
