"""Table recordings of Super Wild and Holominoes (vision.sim.table_recording): frames, hand flags,
the true layout against the engine's replay, end-of-turn events after the hand has left."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.games import rules_for
from engine.holominoes import format_placement, replay
from engine.superwild import Move, Tile, format_move, replay_round
from vision.sim.table_recording import record_table_game

#: Seed 22's first six Super Wild turns move a table tile (turn 5, ``>``) besides laying.
SUPERWILD_SEED = 22


def _superwild_layout(text: str) -> set[str]:
    _, game, _ = replay_round(text)
    tiles = game.table.tiles.items()
    return {format_move(Move(Tile(t.colour, 6) if t.is_six_nine else t, p)) for p, t in tiles}


def _holominoes_layout(text: str) -> set[str]:
    game, _ = replay(text)
    return {format_placement(p) for p in game.position.placements}


def _upto(text: str, turns: int) -> str:
    """The transcript's tags and its first ``turns`` turn lines."""
    lines = text.splitlines()
    tags = [line for line in lines if not line[:1].isdigit()]
    return "\n".join(tags + [line for line in lines if line[:1].isdigit()][:turns]) + "\n"


@pytest.mark.parametrize("name", ["Super Wild", "Holominoes"])
def test_recording_follows_the_transcript(tmp_path: Path, name: str) -> None:
    text = rules_for(name).random_transcript(SUPERWILD_SEED, 2, 6)
    if name == "Super Wild":
        assert ">" in text  # a rearrangement is shown
    out = record_table_game(text, tmp_path / "rec", seed=5, size=(320, 240), fps=4.0)
    doc = json.loads((out / "frames.json").read_text())
    frames = doc["frames"]
    assert doc["game"] == name and len(frames) > 20
    hands = [f["hand"] for f in frames]
    assert any(hands) and not all(hands) and not hands[0]
    images = [cv2.imread(str(out / f["file"])) for f in frames]
    assert all(im is not None and im.shape == (240, 320, 3) for im in images)
    before, during = images[hands.index(True) - 1], images[hands.index(True)]
    assert before is not None and during is not None
    # a frame with a hand differs from the still frame before it
    assert np.abs(during.astype(int) - before.astype(int)).max() > 60
    expected = _superwild_layout if name == "Super Wild" else _holominoes_layout
    assert set(frames[-1]["layout"]) == expected(text)
    assert all(f["cells"] == {} for f in frames)
    events = [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]
    assert [e["turn"] for e in events] == list(range(1, 7))
    for event in events:
        frame = event["frame"]
        assert event["type"] == "end_turn"
        assert not frames[frame]["hand"] and not frames[frame - 1]["hand"]  # the hand has left
        assert set(frames[frame]["layout"]) == expected(_upto(text, event["turn"]))


def test_same_seed_same_frames(tmp_path: Path) -> None:
    text = rules_for("Holominoes").random_transcript(3, 2, 2)
    a = record_table_game(text, tmp_path / "a", seed=1, size=(160, 120), fps=3.0)
    b = record_table_game(text, tmp_path / "b", seed=1, size=(160, 120), fps=3.0)
    assert (a / "000005.jpg").read_bytes() == (b / "000005.jpg").read_bytes()


def test_a_line_no_table_shows(tmp_path: Path) -> None:
    text = '[Game "Super Wild"]\n[Players "Ana, Bo"]\n1. Ana: R7@1,0>2,0\n'
    with pytest.raises(ValueError, match="line 3"):
        record_table_game(text, tmp_path / "bad", seed=0)
    with pytest.raises(ValueError, match="unknown table simulation options: colour"):
        record_table_game(text, tmp_path / "bad", seed=0, colour=1)


def test_simulate_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tilescribe.cli import main

    transcript = tmp_path / "game.txt"
    transcript.write_text(rules_for("Holominoes").random_transcript(7, 2, 2), encoding="utf-8")
    out = tmp_path / "rec"
    assert main(["simulate", str(transcript), "--game", "holominoes", "--out", str(out), "--size", "320x240",
                 "--fps", "3", "--quiet"]) == 0
    doc = json.loads((out / "frames.json").read_text())
    assert len(doc["frames"]) == len(list(out.glob("*.jpg"))) > 5
    assert f"{len(doc['frames'])} frames, 2 turns" in capsys.readouterr().out
    assert main(["simulate", str(transcript), "--game", "superwild", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"tilescribe simulate: {transcript}: a Holominoes transcript, not Super Wild"
    assert main(["simulate", str(transcript), "--game", "holominoes", "--bumps", "1", "--out", str(out)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    transcript.write_text('[Game "Holominoes"]\n[Players "Ana, Bo"]\n1. Ana: 132@1,0/Q\n', encoding="utf-8")
    assert main(["simulate", str(transcript), "--game", "holominoes", "--out", str(out)]) == 2
    assert capsys.readouterr().err.startswith(f"tilescribe simulate: {transcript}:3:")


def test_a_holominoes_pass_ends_its_turn_naming_the_tile_it_returns(tmp_path: Path) -> None:
    # seed 12's first two turns leave tile 134 fitting nowhere: a pass may return it
    text = _upto(rules_for("Holominoes").random_transcript(12, players=2, turns=3), 2) + "3. Ana: pass 134\n"
    out = record_table_game(text, tmp_path / "rec", seed=3, size=(160, 120), fps=3.0)
    events = [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]
    assert [(e["type"], e["turn"], e.get("face")) for e in events] == [
        ("end_turn", 1, None), ("end_turn", 2, None), ("pass", 3, "134")]
