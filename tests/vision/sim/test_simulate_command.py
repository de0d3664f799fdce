"""``tilescribe simulate`` on real transcripts, and transcript tiles -> printed faces."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calibration.board_print import SheetSpec, design_board
from calibration.geometry import BoardGeometry
from engine.tiles import Tile
from engine.transcript import parse_transcript
from tilescribe.cli import main
from vision.sim.transcripts import face_of, plan_game

GAME = """[Game "MODLINSEQ"]
[Modulus "13"]
[Order "3"]
[Players "Ana, Bo"]
[Marker "yes"]
[Wild "A"]
1. Ana: 3B2, 5B1, 2M1
2. Bo: #T1, 12T2
3. Ana: pass
"""


@pytest.fixture()
def board_json(tmp_path: Path) -> Path:
    path = tmp_path / "board.json"
    design_board(SheetSpec(order=3, dpi=80)).save(path)
    return path


def test_simulate_writes_a_recording_of_the_transcript(tmp_path: Path, board_json: Path) -> None:
    game = tmp_path / "game.txt"
    game.write_text(GAME, encoding="utf-8")
    out = tmp_path / "rec"
    status = main(
        [
            "simulate",
            str(game),
            "--board",
            str(board_json),
            "--out",
            str(out),
            "--size",
            "320x240",
            "--fps",
            "4",
            "--bumps",
            "1",
            "--light-jumps",
            "1",
            "--pauses",
            "1",
            "--quiet",
        ]
    )
    assert status == 0
    doc = json.loads((out / "frames.json").read_text(encoding="utf-8"))
    assert doc["board"] == "board.json"  # a copy in the folder: recordings name no file outside it
    assert BoardGeometry.load(out / "board.json") == BoardGeometry.load(board_json)
    frames = doc["frames"]
    assert frames[0]["cells"] == {"A0": "marker"}
    assert frames[-1]["cells"] == {"A0": "marker", "B2": "3", "B1": "5", "M1": "2", "T1": "#", "T2": "12"}
    events = [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]
    assert [e["turn"] for e in events] == [1, 2, 3]
    assert all((out / f["file"]).stat().st_size > 1000 for f in frames)
    assert len(doc["poses"]) == 2 and doc["poses"][0] != doc["poses"][1]


def test_simulate_reports_transcript_errors_with_file_and_line(
    tmp_path: Path, board_json: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "bad.txt"
    game.write_text(GAME.replace("12T2", "12Q2"), encoding="utf-8")
    status = main(
        ["simulate", str(game), "--board", str(board_json), "--out", str(tmp_path / "o"), "--quiet"]
    )
    assert status == 2
    assert f"{game}:8:" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_simulate_reports_a_missing_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "game.txt"
    game.write_text(GAME, encoding="utf-8")
    status = main(
        [
            "simulate",
            str(game),
            "--board",
            str(tmp_path / "nope.json"),
            "--out",
            str(tmp_path / "o"),
            "--quiet",
        ]
    )
    assert status == 2
    assert "nope.json" in capsys.readouterr().err


def test_faces_of_tiles_in_both_tile_sets() -> None:
    assert face_of(Tile.natural(7), 13) == "7"
    assert face_of(Tile.wild(4), 13) == "#"
    assert face_of(Tile.marker(), 13) == "marker"
    assert face_of(Tile.natural(0), 13, "rummikub") == "13"
    assert face_of(Tile.wild(), 13, "rummikub") == "joker"
    with pytest.raises(ValueError, match="no Rummikub tile"):
        face_of(Tile.natural(15), 17, "rummikub")
    with pytest.raises(ValueError, match="unknown tile set"):
        face_of(Tile.natural(1), 13, "dominoes")


def test_plan_game_puts_the_marker_down_first_and_keeps_passes() -> None:
    transcript, errors = parse_transcript(GAME)
    assert errors == []
    plan = plan_game(transcript)
    assert [(p.address, p.face) for p in plan.initial] == [("A0", "marker")]
    assert [len(t) for t in plan.turns] == [3, 2, 0]
    assert plan.players == 2


def test_simulate_with_real_rummikub_tiles(
    tmp_path: Path, board_json: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "game.txt"
    game.write_text(GAME.replace('[Marker "yes"]\n', ""), encoding="utf-8")
    out = tmp_path / "rec"
    args = [
        "simulate",
        str(game),
        "--board",
        str(board_json),
        "--out",
        str(out),
        "--size",
        "320x240",
        "--fps",
        "2",
        "--tileset",
        "rummikub",
        "--quiet",
    ]
    assert main(args) == 0
    doc = json.loads((out / "frames.json").read_text(encoding="utf-8"))
    assert doc["frames"][-1]["cells"] == {"B2": "3", "B1": "5", "M1": "2", "T1": "joker", "T2": "12"}
    assert all(tile["style"].startswith("photo-") for tile in doc["tiles"].values())
    # a Rummikub set has no modulus marker
    game.write_text(GAME, encoding="utf-8")
    assert main(args) == 2
    assert "cannot show face 'marker'" in capsys.readouterr().err
