"""MODLINSEQ through the games' common interface: replay (score --json's turn shape), random
transcripts and hints, the hints checked against an exhaustive search."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from engine.games import rules_for
from engine.hexgrid import Board
from engine.modlinseq_rules import RULES, random_game_text
from engine.settings import Settings
from engine.squaregrid import RectBoard
from engine.tiles import Placement, Tile, parse_placements
from engine.transcript import parse_transcript, replay

TRANSCRIPT = """[Game "MODLINSEQ"]
[Modulus "11"]
[Order "4"]
[Players "Ana, Bo"]
[Wild "E"]
1. Ana: 4B2, 7B1, 10A0, 2M1, 5M2 {+6}
2. Bo: 1B4, 8M4 {+15}
3. Ana: 3E1, 9E2
4. Bo: #P1
5. Ana: pass
6. Bo: freeze
"""


def test_replay_turns_have_the_score_commands_json_shape():
    replayed = rules_for("modlinseq").replay_text(TRANSCRIPT)
    first = replayed.turns[0].to_json()
    assert list(first) == ["number", "player", "kind", "placements", "legal", "error", "score", "sequences",
                           "blocked", "warnings"]
    assert first["placements"] == ["4B2", "7B1", "10A0", "2M1", "5M2"] and first["score"] == 6
    assert first["sequences"] == [{"cells": ["B2", "B1", "A0", "M1", "M2"], "values": [4, 7, 10, 2, 5],
                                   "msa": "M11-S3-A0", "length": 5, "points": 6, "primary": True,
                                   "wild": [False] * 5}]
    assert replayed.turns[2].to_json()["error"]["cells"]
    assert not replayed.is_legal and replayed.turns[2].error.rule == "§2-2 modular-linear"
    assert replayed.scores == {"Ana": 6, "Bo": 15}
    assert replayed.settings["game"] == "MODLINSEQ" and replayed.final == {"over": False, "winner": None}


def test_random_transcripts_are_seeded_and_legal_to_the_end():
    text = RULES.random_transcript(5, players=3)
    assert text == RULES.random_transcript(5, players=3)
    replayed = RULES.replay_text(text)
    assert replayed.is_legal and replayed.final["over"]
    best = max(replayed.scores.values())
    winners = [p for p, s in replayed.scores.items() if s == best]
    assert replayed.final["winner"] == (winners[0] if len(winners) == 1 else None)
    assert len(RULES.replay_text(RULES.random_transcript(6, turns=9)).turns) == 9


def _brute_best(text: str, rack: list[int]) -> int | None:
    """The best score of any turn of one or two rack tiles, every cell and value tried (None: no
    legal turn)."""
    transcript, _ = parse_transcript(text)
    game, _ = replay(transcript)
    grid = game.state.grid
    values = game.state.values
    empty = [i for i, v in enumerate(values) if v < 0]
    best = None
    for i in empty:
        for a in set(rack):
            result = game.evaluate([Placement(grid.cells[i], Tile.natural(a))])
            if result.legal:
                best = max(best or 0, result.score)
            for k in grid.directions:
                j = grid.forward[k][i]
                while j >= 0 and values[j] >= 0:
                    j = grid.forward[k][j]
                if j < 0 or j == i:
                    continue
                for b in set(rack):
                    if a == b and rack.count(a) < 2:
                        continue
                    pair = [
                        Placement(grid.cells[i], Tile.natural(a)),
                        Placement(grid.cells[j], Tile.natural(b)),
                    ]
                    result = game.evaluate(pair)
                    if result.legal:
                        best = max(best or 0, result.score)
    return best


@pytest.mark.parametrize(
    "settings",
    [
        Settings(modulus=7, board=Board.hexagon(3), players=("A", "B")),
        Settings(modulus=8, sequence="fibonacci", board=Board.hexagon(3), players=("A", "B")),
        Settings(modulus=7, sequence="multiplicative", board=Board.hexagon(3), players=("A", "B")),
        Settings(modulus=6, board=RectBoard(5, 4, wrap=True), players=("A", "B")),
        # a diagonal of a 7 x 4 torus meets each row seven times: lines shared beside the primary
        Settings(modulus=11, board=RectBoard(7, 4, wrap=True, diagonals=True), players=("A", "B")),
    ],
    ids=["linear", "fibonacci", "multiplicative", "wrap", "torus-diagonals"],
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_best_hint_equals_an_exhaustive_search(settings, seed):
    text = random_game_text(settings, seed, turns=6)
    law = settings.law
    rack = [law.lowest + (seed * 3 + i) % (law.modulus - law.lowest) for i in range(2)]
    hints = RULES.hint(text, " ".join(map(str, rack)), 5)
    best = _brute_best(text, rack)
    assert (hints[0].score if hints else None) == best
    scores = [h.score for h in hints]
    assert scores == sorted(scores, reverse=True)
    transcript, _ = parse_transcript(text)
    game, _ = replay(transcript)
    board = settings.board
    for hint in hints:
        placements = parse_placements(hint.moves, board)
        assert Counter(p.tile.value for p in placements) <= Counter(rack)
        result = game.evaluate(placements)
        assert result.legal and result.score == hint.score
        assert hint.to_json()["sequences"][0]["primary"]


def test_hint_without_a_rack_and_with_wild_tiles():
    text = TRANSCRIPT.split("3. Ana")[0]
    free = RULES.hint(text, None, 3)
    assert len(free) == 3 and free[0].score >= free[-1].score > 0
    wild = RULES.hint(text, "# 6", 3)
    assert wild and any("#" in h.moves for h in wild)


@pytest.mark.parametrize(
    ("rack", "message"),
    [("3 x", "rack tile 2 'x'"), ("11", "expected a value 0..10"), ("3 ²", "rack tile 2 '²': expected"),
     (" ".join(["1"] * 65), "at most 64")],
)
def test_bad_racks(rack, message):
    with pytest.raises(ValueError, match=message):
        RULES.hint(TRANSCRIPT, rack, 3)


def test_hint_errors_and_game_over():
    with pytest.raises(ValueError, match="no wild tiles"):
        RULES.hint(TRANSCRIPT.replace('[Wild "E"]\n', "").split("4. Bo")[0], "#", 3)
    with pytest.raises(ValueError, match="line 7, column 8"):
        RULES.hint(TRANSCRIPT.replace("1B4", "1Z4"), "1", 3)
    over = TRANSCRIPT.replace("5. Ana: pass", "5. Ana: freeze")
    assert RULES.hint(over, "1 2 3", 3) == []


def test_the_readme_wrap_around_example_replays_with_its_scores():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## MODLINSEQ §10-12", 1)[1].split("\n## ", 1)[0]
    text = "\n".join(line[4:] for line in section.splitlines() if line.startswith("    "))
    replayed = RULES.replay_text(text)
    assert replayed.errors == () and replayed.is_legal
    assert [t.score for t in replayed.turns] == [3, 10, 3]
