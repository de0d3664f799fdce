"""The game journal on real files: append + fsync, photos, undo rewrite, restore, summaries."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from engine.game import Game
from engine.settings import Settings
from engine.tiles import parse_placements
from engine.transcript import parse_transcript
from tilescribe.journal import Journal, JournalError, latest_unfinished, summarise
from tilescribe.settings import TableSettings


def _settings() -> TableSettings:
    return TableSettings(game=Settings(modulus=7, players=("Ana", "Bo")), still_seconds=0.3)


def test_turns_are_appended_restored_and_rewritten(tmp_path: Path) -> None:
    settings = _settings()
    journal = Journal.create(tmp_path, settings, (("Source", "test"),))
    game = Game(settings.game)
    photo = np.full((60, 80, 3), 128, np.uint8)
    game.play(parse_placements("4B2 6B1 1A0 3M1"))
    journal.record(game.history[-1], frame=12, photo=photo)
    game.pass_turn()
    journal.record(game.history[-1], frame=30)
    game.play(parse_placements("5M2"))
    journal.record(game.history[-1], frame=44, photo=photo)

    text = journal.transcript_path.read_text()
    transcript, errors = parse_transcript(text)
    assert errors == [] and [t.kind for t in transcript.turns] == ["play", "pass", "play"]
    assert ("Source", "test") in transcript.tags
    assert (journal.folder / "photos" / "turn-001.jpg").is_file()
    assert (journal.folder / "photos" / "turn-003.jpg").is_file()
    assert journal.last_frame() == 44

    reopened = Journal.open(journal.folder)
    assert reopened.settings == settings
    restored = reopened.restore()
    assert restored.scores == game.scores == {"Ana": 9, "Bo": 0}
    assert len(restored.history) == 3 and restored.current_player == "Bo"

    game.undo()
    journal.rewrite(game)
    assert len(journal.restore().history) == 2 and journal.last_frame() == 30
    assert latest_unfinished(tmp_path) is not None and latest_unfinished(tmp_path).folder == journal.folder

    journal.finish(game)
    assert latest_unfinished(tmp_path) is None
    summary = summarise(journal.folder)
    assert summary.is_finished and summary.turns == 2 and summary.players == ("Ana", "Bo")
    assert json.loads((journal.folder / "finished.json").read_text())["turns"] == 2


def test_a_torn_metadata_line_is_ignored_and_bad_transcripts_are_named(tmp_path: Path) -> None:
    journal = Journal.create(tmp_path, _settings())
    with (journal.folder / "turns.jsonl").open("a") as f:
        f.write('{"turn": 1, "frame": 5}\n{"turn": 2, "fra')  # a power cut mid-write
    assert journal.last_frame() == 5
    with journal.transcript_path.open("a") as f:
        f.write("1. Ana: 4B2, 6B")  # torn too: never committed, so not part of the game
    assert journal.restore().history == ()
    journal.rewrite(journal.restore())
    with journal.transcript_path.open("a") as f:
        f.write("1. Ana: 4B2, 6B1, 1A0, 8M1\n")  # 4 ~ 6 ~ 1 ~ 8 is not modular-linear
    with pytest.raises(JournalError, match=r"transcript.txt:\d+: turn does not replay"):
        journal.restore()
    assert summarise(journal.folder).problems
    (journal.folder / "settings.json").write_text("{")
    with pytest.raises(JournalError, match="settings.json"):
        Journal.open(journal.folder)
