"""The game journal on real files: records with tags and clock comments, undo and corrections kept as
comments, locks, recovery of what a kill leaves, damaged games moved aside, listing and export."""

from __future__ import annotations

import json
import re
import threading
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.game import Game
from engine.settings import Settings
from engine.tiles import parse_placements
from engine.transcript import parse_transcript
from tilescribe.cli import main
from tilescribe.durable import write_atomic
from tilescribe.game_folder import JournalError, latest_unfinished, read_game
from tilescribe.journal import GameInUseError, Journal
from tilescribe.locks import Lock
from tilescribe.recovery import recover
from tilescribe.settings import TableSettings

PHOTO = np.full((60, 80, 3), 128, np.uint8)


def _settings() -> TableSettings:
    return TableSettings(game=Settings(modulus=7, players=("Ana", "Bo")), still_seconds=0.3)


def _three_turns(journal: Journal) -> Game:
    game = Game(journal.settings.game)
    game.play(parse_placements("4B2 6B1 1A0 3M1"))
    journal.record(game.history[-1], frame=12, photo=PHOTO)
    game.pass_turn()
    journal.record(game.history[-1], frame=30)
    game.play(parse_placements("5M2"))
    journal.record(game.history[-1], frame=44, photo=PHOTO)
    return game


def test_the_record_has_its_tags_clocks_and_keeps_what_was_undone(tmp_path: Path) -> None:
    with Journal.create(tmp_path, _settings(), (("Source", "test"),)) as journal:
        game = _three_turns(journal)
        text = journal.transcript_path.read_text()
        transcript, errors = parse_transcript(text)
        assert errors == [] and [t.kind for t in transcript.turns] == ["play", "pass", "play"]
        tags = dict(transcript.tags)
        assert {"Event", "Site", "Date", "Time", "Round", "Result", "Source"} <= set(tags)
        assert tags["Result"] == "*" and '[Players "Ana, Bo"]' in text
        assert re.search(r"^3\. Ana: 5M2 \{\+\d+\} \{\[%time \d\d:\d\d:\d\d\]\}$", text, re.M)
        assert sorted(p.name for p in (journal.folder / "photos").iterdir()) == [
            "turn-001.jpg",
            "turn-003.jpg",
        ]
        assert journal.last_frame() == 44

        undone = game.undo()
        journal.rewrite(game, "undone")
        text = journal.transcript_path.read_text()
        assert re.search(
            r"^\{\[%time \d\d:\d\d:\d\d\] undone: 3\. Ana: 5M2 \+\d+ \[%time [\d:]+\]\}$", text, re.M
        )
        assert len(parse_transcript(text)[0].turns) == 2 and journal.last_frame() == 30
        assert not (journal.folder / "photos" / "turn-003.jpg").exists()
        assert latest_unfinished(tmp_path) == journal.folder
        game.play(undone.placements)
        journal.record(game.history[-1], frame=50, photo=PHOTO)
        journal.finish(game)
    record = read_game(journal.folder)
    assert record.is_finished and record.result == f"Ana {game.scores['Ana']}, Bo 0"
    assert record.game.scores == game.scores and len(record.index) == 3
    assert latest_unfinished(tmp_path) is None
    assert main(["score", str(journal.transcript_path)]) == 0  # the score command reads the record


def test_a_correction_keeps_the_old_line_as_a_comment(tmp_path: Path) -> None:
    with Journal.create(tmp_path, _settings()) as journal:
        game = Game(journal.settings.game)
        game.play(parse_placements("4B2 6B1 1A0 3M1"))
        journal.record(game.history[-1])
        game.pass_turn()
        journal.record(game.history[-1])
        amended = Game(journal.settings.game)
        amended.play(parse_placements("5B2 6B1 0A0 1M1"))
        amended.pass_turn()
        journal.rewrite(amended, "corrected")
        lines = journal.transcript_path.read_text().splitlines()
        at = next(i for i, line in enumerate(lines) if "corrected" in line)
        assert "4B2" in lines[at] and lines[at + 1].startswith("1. Ana: 5B2, 6B1, 0A0, 1M1 {+")
        assert lines[at + 2].startswith("2. Bo: pass")
        assert journal.restore().position == amended.position


def test_a_second_session_on_a_game_is_refused_naming_the_holder(tmp_path: Path) -> None:
    with Journal.create(tmp_path, _settings()) as journal:
        with pytest.raises(GameInUseError, match=rf"game {journal.folder.name} .* in use by process \d+"):
            Journal.open(journal.folder)
        assert recover(tmp_path) == []  # a held game is left alone
    with Journal.open(journal.folder):
        pass
    other = Journal.create(tmp_path, _settings())
    other.close()
    assert other.folder != journal.folder


def test_opening_a_game_waits_for_a_recovery_holding_it(tmp_path: Path) -> None:
    with Journal.create(tmp_path, _settings()) as journal:
        pass
    recovering = [Lock(tmp_path / ".lock"), Lock(journal.folder / "lock")]  # as recover() holds them
    timer = threading.Timer(0.3, lambda: [lock.release() for lock in reversed(recovering)])
    timer.start()
    start = time.monotonic()
    with Journal.open(journal.folder) as opened:
        assert time.monotonic() - start >= 0.25 and opened.folder == journal.folder
    timer.join()


def test_recovery_repairs_what_a_kill_leaves(tmp_path: Path) -> None:
    with Journal.create(tmp_path, _settings()) as journal:
        _three_turns(journal)
    folder = journal.folder
    (folder / "transcript.txt.tmp").write_text("half a")
    (folder / "photos" / "turn-004.jpg").write_bytes(b"jpeg")  # the photo of a turn never committed
    with (folder / "turns.jsonl").open("a") as f:
        f.write('{"turn": 4, "kind": "play", "frame": 60, "photo": "photos/turn-004.jpg"}\n')
    lines = (folder / "turns.jsonl").read_text().splitlines()
    (folder / "turns.jsonl").write_text("\n".join(lines[:1]) + "\n")  # and the index behind it
    with (folder / "transcript.txt").open("a") as f:
        f.write("4. Bo: 2B")  # torn
    unstarted = tmp_path / "20000101-000000"
    (unstarted / "photos").mkdir(parents=True)
    (unstarted / "settings.json").write_text("{}")
    said = recover(tmp_path)
    assert len(said) == 5 and all(line.startswith(str(tmp_path)) for line in said)
    assert not unstarted.exists()
    record = read_game(folder)
    assert record.text.endswith("}\n") and len(record.game.history) == 3
    assert [e["turn"] for e in record.index] == [1, 2, 3] and record.index[2][
        "photo"
    ] == "photos/turn-003.jpg"
    assert sorted(p.name for p in folder.rglob("*") if p.is_file()) == [
        "lock",
        "settings.json",
        "transcript.txt",
        "turn-001.jpg",
        "turn-003.jpg",
        "turns.jsonl",
    ]
    assert recover(tmp_path) == []


def test_recovery_leaves_folders_that_are_not_games_alone(tmp_path: Path) -> None:
    (tmp_path / "Documents").mkdir()
    (tmp_path / "Documents" / "thesis.txt").write_text("years of work")
    (tmp_path / "holiday" / "photos").mkdir(parents=True)
    (tmp_path / "holiday" / "photos" / "beach.jpg").write_bytes(b"jpeg")
    before = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*"))
    assert recover(tmp_path) == []
    after = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.name != ".lock")
    assert after == before


def test_an_unreadable_game_is_moved_aside_named_and_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Journal.create(tmp_path, _settings()) as good:
        _three_turns(good)
    with Journal.create(tmp_path, _settings()) as bad:
        pass
    raw = bad.transcript_path.read_bytes()
    bad.transcript_path.write_bytes(raw + "1. Ana: 4B2 {caf\xe9}\n".encode("latin-1"))
    assert main(["games", "--games", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"  1  {good.folder.name}  ") and "Ana, Bo  result *  3 turns" in out[0]
    assert f"  2  {bad.folder.name}  UNREADABLE: " in out[1] and "not UTF-8 text (byte 0xe9" in out[1]
    assert latest_unfinished(tmp_path) == good.folder
    said = recover(tmp_path)
    assert len(said) == 1 and "not UTF-8" in said[0] and "damaged" in said[0]
    assert (tmp_path / "damaged" / bad.folder.name / "transcript.txt").is_file()
    assert main(["games", "--games", str(tmp_path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [d["readable"] for d in doc] == [True, False] and doc[1]["folder"].endswith(
        f"damaged/{bad.folder.name}"
    )
    (good.folder / "settings.json").write_text('{"modulus": "x"}')
    with pytest.raises(JournalError, match="settings.json"):
        read_game(good.folder)


def test_export_writes_the_transcript_and_the_photos(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Journal.create(tmp_path / "games", _settings()) as journal:
        _three_turns(journal)
    out = tmp_path / "game.zip"
    assert main(["export", "1", "--out", str(out), "--games", str(tmp_path / "games")]) == 0
    name = journal.folder.name
    with zipfile.ZipFile(out) as archive:
        assert sorted(archive.namelist()) == [
            f"{name}/photos/turn-001.jpg",
            f"{name}/photos/turn-003.jpg",
            f"{name}/transcript.txt",
        ]
        assert archive.read(f"{name}/transcript.txt") == journal.transcript_path.read_bytes()
    assert main(["export", name, "--out", str(out), "--games", str(tmp_path / "games")]) == 0
    capsys.readouterr()
    assert main(["export", "nope", "--out", str(out), "--games", str(tmp_path / "games")]) == 2
    assert "no game 'nope'" in capsys.readouterr().err


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_games_never_fails_on_any_file_contents(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    games = tmp_path_factory.mktemp("games")
    with Journal.create(games, _settings()) as journal:
        _three_turns(journal)
    name = data.draw(st.sampled_from(["transcript.txt", "settings.json", "turns.jsonl"]))
    text = (journal.folder / name).read_bytes()
    cut = data.draw(st.integers(0, len(text)))
    noise = data.draw(st.binary(max_size=40) | st.text(max_size=40).map(str.encode))
    (journal.folder / name).write_bytes(text[:cut] + noise + text[cut + len(noise) :])
    try:
        record = read_game(journal.folder)
    except JournalError as exc:
        assert str(exc).startswith(str(journal.folder))
    else:
        assert len(record.game.history) <= 3
    assert main(["games", "--games", str(games)]) == 0
    for line in recover(games):
        assert line.startswith(str(journal.folder))
    assert main(["games", "--games", str(games)]) == 0


def test_an_index_naming_a_file_outside_the_photos_is_not_followed(tmp_path: Path) -> None:
    with Journal.create(tmp_path / "games", _settings()) as journal:
        _three_turns(journal)
    index = journal.folder / "turns.jsonl"
    lines = index.read_text().splitlines()
    lines[1] = json.dumps({"turn": 2, "kind": "pass", "frame": 30, "photo": "../settings.json"})
    index.write_text("\n".join(lines) + "\n")
    assert [e["turn"] for e in read_game(journal.folder).index] == [1]
    said = recover(tmp_path / "games")
    assert said == [f"{journal.folder}: turns.jsonl brought in line with the transcript's 3 turns"]
    assert [e["photo"] for e in read_game(journal.folder).index] == [
        "photos/turn-001.jpg",
        None,
        "photos/turn-003.jpg",
    ]


def test_a_write_that_fails_leaves_no_temporary_file(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()  # a folder where the file should go
    with pytest.raises(IsADirectoryError):
        write_atomic(tmp_path / "taken", "text")
    assert [p.name for p in tmp_path.iterdir()] == ["taken"]
