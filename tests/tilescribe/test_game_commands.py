"""``tilescribe score`` and ``tilescribe hint`` on every game: random legal games replay with the
scores their generator wrote, and every hint, appended as the next turn, replays legal with the
score the hint claimed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.games import GAME_MODULES, rules_for
from tilescribe.cli import main

SEEDS = (1, 2)


def _claimed(text: str) -> list[int]:
    """The scores written in the plays' comments (``{+7}``)."""
    return [int(m) for m in re.findall(r"\{\+(\d+)\}", text)]


def _score_json(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    code = main(["score", str(path), "--json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("game", list(GAME_MODULES))
@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_score_as_their_generator_says(tmp_path: Path, game: str, seed: int,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    text = rules_for(game).random_transcript(seed, players=2, turns=12)
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    code, doc = _score_json(path, capsys)
    assert code == 0, doc["errors"]
    assert doc["settings"]["game"].lower() == game.lower()
    turns = doc["turns"]
    assert turns and all(t["legal"] for t in turns)
    plays = [t["score"] for t in turns if t["kind"] == "play"]
    assert plays == _claimed(text)
    assert len(doc["scores"]) == 2
    assert main(["score", str(path)]) == 0
    assert "Standings:" in capsys.readouterr().out


@pytest.mark.parametrize("game", list(GAME_MODULES))
def test_every_hint_replays_legal_with_its_score(tmp_path: Path, game: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    text = rules_for(game).random_transcript(3, players=2, turns=6)
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    code = main(["hint", str(path), "--top", "3", "--json"])
    hints = json.loads(capsys.readouterr().out)
    assert code == (0 if hints else 1)
    assert hints, f"{game}: no hint after six turns"
    _, before = _score_json(path, capsys)
    number = len(before["turns"]) + 1
    for hint in hints:
        extended = tmp_path / "extended.txt"
        extended.write_text(text.rstrip("\n") + f"\n{number}. {hint['moves']}\n", encoding="utf-8")
        code, doc = _score_json(extended, capsys)
        last = doc["turns"][-1]
        assert code == 0 and last["legal"], (hint, last["error"])
        assert last["score"] == hint["score"]
    assert [h["score"] for h in hints] == sorted((h["score"] for h in hints), reverse=True)


def test_an_unknown_game_and_an_unreadable_file_are_named(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "chess.txt"
    path.write_text('[Game "Chess"]\n1. e4\n', encoding="utf-8")
    assert main(["score", str(path)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "unknown game 'Chess'" in err
    path.write_bytes(b'[Game "Yushino"]\n\xff\xfe\n')
    assert main(["hint", str(path)]) == 2
    assert str(path) in capsys.readouterr().err
