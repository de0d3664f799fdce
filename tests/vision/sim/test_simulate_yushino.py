"""``tilescribe simulate --game yushino``: a recording of a Yushino transcript on the square board,
read back by ``tilescribe read --game yushino``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.yushino import format_transcript, random_game
from tilescribe.cli import main as cli

TURNS = 6


@pytest.fixture(scope="module")
def recording(tmp_path_factory) -> tuple[Path, dict[str, str], int]:
    """A seeded random legal game of TURNS turns, recorded with hands in held-out fonts."""
    game, transcript = random_game(8, 2, TURNS)
    folder = tmp_path_factory.mktemp("yushino_rec")
    text = folder / "game.txt"
    text.write_text(format_transcript(transcript), encoding="utf-8")
    out = folder / "rec"
    status = cli(["simulate", str(text), "--game", "yushino", "--out", str(out), "--styles", "held_out",
                  "--fps", "4", "--seed", "3", "--quiet"])
    assert status == 0
    faces = {str(square): tile.face for square, tile in game.position.tiles.items()}
    return out, faces, sum(1 for line in transcript.turns)


def test_the_recording_shows_the_transcripts_tiles(recording):
    out, faces, turns = recording
    doc = json.loads((out / "frames.json").read_text(encoding="utf-8"))
    assert json.loads((out / "board.json").read_text(encoding="utf-8"))["kind"] == "square"
    assert doc["frames"][-1]["cells"] == {}  # the other games' recordings carry a layout instead
    assert doc["frames"][-1]["layout"] == sorted(face + address for address, face in faces.items())
    assert any(frame["hand"] for frame in doc["frames"])
    events = [json.loads(line) for line in (out / "events.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [e["turn"] for e in events] == list(range(1, turns + 1))
    for address, tile in doc["tiles"].items():  # square to the board: a quarter turn, give or take a little
        off = (tile["angle_deg"] + 45) % 90 - 45
        assert abs(off) < 15, (address, tile["angle_deg"])


def test_the_last_frame_reads_back(recording, capsys):
    out, faces, _ = recording
    last = sorted(out.glob("*.jpg"))[-1]
    assert cli(["read", str(last), "--game", "yushino", "--board", str(out / "board.json"), "--json"]) == 0
    cells = json.loads(capsys.readouterr().out)["cells"]
    assert set(cells) == set(faces)
    # measured with the shipped reader: every face of the 20 right (2 wrong without the rules' prior)
    assert len(faces) == 20 and sum(cells[a]["face"] != f for a, f in faces.items()) <= 1


@pytest.mark.parametrize("extra, named", [(["--tileset", "rummikub"], "--tileset"),
                                          (["--board", "nowhere.json"], "nowhere.json")])
def test_bad_input_is_one_line(recording, tmp_path, capsys, extra, named):
    out, _, _ = recording
    status = cli(["simulate", str(out.parent / "game.txt"), "--game", "yushino", "--out",
                  str(tmp_path / "rec"), "--quiet", *extra])
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert status == 2 and len(err) == 1 and err[0].startswith("tilescribe simulate: ") and named in err[0]


def test_a_yushino_header_that_makes_no_game_names_its_line(tmp_path, capsys):
    text = tmp_path / "five.txt"
    text.write_text('[Game "Yushino"]\n[Players "A, B, C, D, E"]\n1. A: 3G8, 4H8\n', encoding="utf-8")
    assert cli(["simulate", str(text), "--game", "yushino", "--out", str(tmp_path / "rec"), "--quiet"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"tilescribe simulate: {text}:2:")
