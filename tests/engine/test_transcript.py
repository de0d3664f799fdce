"""Transcripts: reader, writer, round trip, forgiving errors, replay, and the score command."""

from __future__ import annotations

import json

from engine.game import Game
from engine.hexgrid import Board
from engine.settings import Settings
from engine.tiles import parse_placements
from engine.transcript import (
    Transcript,
    TranscriptTurn,
    format_transcript,
    parse_transcript,
    replay,
    transcript_of,
)
from tilescribe.cli import main

ISSUE_SAMPLE = """\
[Game "MODLINSEQ"]
[Modulus "11"]
[Order "9"]
[Players "Ana, Bo"]
1. Ana: 4B2, 7B1, 10A0, 2M1, 5M2 {+6}
2. Bo: 1B4, 8M4 {+15}
3. Ana: pass
4. Bo: freeze
"""


def test_issue_sample_reads_and_replays():
    transcript, errors = parse_transcript(ISSUE_SAMPLE)
    assert errors == []
    assert transcript.settings.modulus == 11
    assert transcript.settings.players == ("Ana", "Bo")
    assert [t.kind for t in transcript.turns] == ["play", "play", "pass", "freeze"]
    assert transcript.turns[0].comment == "+6"
    game, turns = replay(transcript)
    assert [t.result.score for t in turns[:2]] == [6, 15]
    assert game.scores == {"Ana": 6, "Bo": 15}
    assert game.frozen == {"Bo"}


def test_round_trip_with_variation_tags_and_truncated_board():
    settings = Settings(
        modulus=12,
        board=Board.truncated(4, ["B10", "E7"]),
        wild_policy="E",
        hash_swap=True,
        marker=True,
        bonus="9B",
        tiles_per_value=None,
        players=("Ana Maria", "Bo", "Cy"),
    )
    turns = (
        TranscriptTurn(1, "Ana Maria", "play", tuple(parse_placements("7B1 #M1 #=3E1")), "+0"),
        TranscriptTurn(2, None, "pass"),
        TranscriptTurn(3, "Cy", "freeze", comment="tired"),
    )
    original = Transcript(settings, turns, (("Event", 'Club "night"'),))
    text = format_transcript(original)
    again, errors = parse_transcript(text)
    assert errors == []
    assert again == original
    assert format_transcript(again) == text


def test_transcript_of_a_game_round_trips():
    game = Game(Settings(modulus=11, players=("Ana", "Bo")))
    game.play(parse_placements("4B2, 7B1, 10A0, 2M1, 5M2"))
    game.pass_turn()
    text = format_transcript(transcript_of(game))
    assert "1. Ana: 4B2, 7B1, 10A0, 2M1, 5M2 {+6}" in text
    assert "2. Bo: pass" in text
    assert parse_transcript(text)[0] == transcript_of(game)


def test_reader_is_forgiving_and_reports_line_and_column():
    text = """[Modulus "7"]
[Players "Ana, Bo"]
[Broken tag
1. Ana: 4B2 6B1 1A0 3Q1 3M1
2. Bo 4B3
3. Zed: 2M2 {unclosed
7. Ana: pass
"""
    transcript, errors = parse_transcript(text)
    where = [(e.line, e.column) for e in errors]
    assert (3, 1) in where  # not a tag pair
    assert (4, 21) in where  # 3Q1: no sextant Q
    assert (5, 1) in where or any(e.line == 5 for e in errors)  # "Bo 4B3" is not a placement
    assert any(e.line == 6 and "Zed" in e.message for e in errors)
    assert any(e.line == 6 and "not closed" in e.message for e in errors)
    assert any(e.line == 7 and "turn number 7" in e.message for e in errors)
    first = transcript.turns[0]
    assert [str(p) for p in first.placements] == ["4B2", "6B1", "1A0", "3M1"]


def test_score_command_text_json_and_exit_status(tmp_path, capsys):
    path = tmp_path / "game.txt"
    path.write_text(ISSUE_SAMPLE + "5. Ana: 3B1\n")
    assert main(["score", str(path)]) == 1
    out = capsys.readouterr().out
    assert "M11-S3-A0" in out and "+15" in out and "ILLEGAL" in out and "§3-2 empty cell" in out
    assert main(["score", str(path), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    first = data["turns"][0]
    assert first["placements"] == ["4B2", "7B1", "10A0", "2M1", "5M2"]
    assert first["sequences"] == [
        {
            "cells": ["B2", "B1", "A0", "M1", "M2"],
            "values": [4, 7, 10, 2, 5],
            "msa": "M11-S3-A0",
            "length": 5,
            "points": 6,
            "primary": True,
            "wild": [False] * 5,
        }
    ]
    assert first["legal"] is True and first["error"] is None and first["blocked"] == []
    assert data["turns"][4]["legal"] is False
    assert data["turns"][4]["error"]["cells"] == ["B1"]
    assert data["scores"] == {"Ana": 6, "Bo": 15}
    path.write_text(ISSUE_SAMPLE)
    assert main(["score", str(path), "--board"]) == 0
    picture = capsys.readouterr().out.split("Standings:")[1]
    assert "  1   4   7  10   2   5   8" in picture
    assert main(["score", str(tmp_path / "missing.txt")]) == 2
    assert "missing.txt" in capsys.readouterr().err


def test_score_command_on_wild_tiles_and_syntax_errors(tmp_path, capsys):
    path = tmp_path / "wild.txt"
    path.write_text(
        '[Modulus "12"]\n[Players "Ana, Bo"]\n[Wild "E"]\n[HashSwap "yes"]\n'
        "1. Ana: 7B1 #A0 7M1\n2. Bo: 5E1\n3. Ana: #P1 5P2\n4. Bo: 1A0\n"
    )
    assert main(["score", str(path)]) == 0
    out = capsys.readouterr().out
    assert "5E1 ~ #A0 ~ #P1 ~ 5P2  (5 ~ 1 ~ 9 ~ 5)  M12-S4-A1" in out  # figure 7E settles the wilds
    assert "Bo 2" in out  # the hash swap of figure 7E scores 2
    path.write_text('[Modulus "12"]\n1. 7B1 3Q1\n')
    assert main(["score", str(path)]) == 2
    assert f"{path}:2:8: not a placement: '3Q1'" in capsys.readouterr().err
