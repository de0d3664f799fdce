"""Super Wild notation and transcripts: round trips, errors with line and column, input limits,
and a match of rounds counted in trophies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.games import rules_for
from engine.superwild import (
    RULES,
    Move,
    Pos,
    Tile,
    format_move,
    format_pos,
    format_tile,
    format_transcript,
    match_trophies,
    parse_move,
    parse_pos,
    parse_rack,
    parse_tile,
    read_transcript,
)
from engine.superwild.transcript import format_turn


@pytest.mark.parametrize("text", ["R7", "K13", "B1", "O9", "W"])
def test_tile_round_trip(text: str) -> None:
    assert format_tile(parse_tile(text)) == text


def test_six_and_nine_name_one_shape() -> None:
    assert parse_tile("R6").shape == parse_tile("R9").shape == ("R", 6)
    assert parse_tile("R6") != parse_tile("R9")  # written as read, compared by shape


@pytest.mark.parametrize("bad", ["R0", "R14", "G5", "r5", "W1", "", "R 5"])
def test_bad_tiles(bad: str) -> None:
    with pytest.raises(ValueError, match="not a tile"):
        parse_tile(bad)


@pytest.mark.parametrize("text", ["R7@3,0", "R7@3,0>3,1", "W@0,0>-1,-2", "K13@-1000,1000"])
def test_move_round_trip(text: str) -> None:
    assert format_move(parse_move(text)) == text


def test_positions_are_bounded_and_flat() -> None:
    assert parse_pos("-3,12") == Pos(-3, 12) and format_pos(Pos(-3, 12)) == "-3,12"
    with pytest.raises(ValueError, match="off the table"):
        parse_pos("1001,0")
    with pytest.raises(ValueError, match="not a position"):
        parse_pos("99999999999,0")
    with pytest.raises(ValueError, match="3-D stacking is not supported"):
        parse_pos("1,2,3")
    with pytest.raises(ValueError, match="goes nowhere"):
        Move(Tile("R", 7), Pos(1, 0), Pos(1, 0))


def test_transcript_round_trip() -> None:
    text = RULES.random_transcript(11, players=3, turns=25)
    settings, lines, errors = read_transcript(text)
    assert not errors
    again = format_transcript(settings, [(ln.player, t, ln.comment) for ln, t in lines])
    assert again == text
    assert settings.players == ("Ana", "Bo", "Cy") and len(settings.racks["Cy"]) == 6


def test_turn_with_draw_round_trip() -> None:
    text = '[Game "Super Wild"]\n[Players "Ana, Bo"]\n1. Ana: draw O6, O6@1,0>2,0, R4@1,0\n'
    _, lines, errors = read_transcript(text)
    assert not errors
    assert format_turn(lines[0][1]) == "draw O6, O6@1,0>2,0, R4@1,0"


@pytest.mark.parametrize(
    ("line", "column", "message"),
    [
        ("1. Ana: R7@3,0, X9@4,0", 17, "not a tile"),
        ("1. Ana: R7@3,0 R8@4,5000", 16, "off the table"),
        ("1. Ana: R7@3,0, draw", 17, "draw comes first"),
        ("1. Ana: draw W", 14, "never drawn"),
        ("1. Ana: R7@1,2,3", 9, "3-D stacking"),
        ("1. Ana: R7", 9, "not a move"),
    ],
)
def test_bad_turn_lines_name_line_and_column(line: str, column: int, message: str) -> None:
    replay = RULES.replay_text(f'[Game "Super Wild"]\n[Players "Ana, Bo"]\n{line}\n')
    (error,) = replay.errors
    assert (error.line, error.column) == (3, column)
    assert message in error.message
    assert replay.turns == ()


@pytest.mark.parametrize(
    ("tag", "message"),
    [
        ('[Players ""]', "tag Players (line 2)"),
        ('[Deal "99999"]', "tag Deal (line 3)"),
        ('[Diagonals "maybe"]', "tag Diagonals (line 3)"),
        ('[Racks "Ana: R7 Q2"]', "tag Racks (line 3)"),
        ('[Trophies "Zed 1"]', "tag Trophies (line 3)"),
        ('[Round "-1"]', "tag Round (line 3)"),
    ],
)
def test_bad_tags(tag: str, message: str) -> None:
    players = "" if tag.startswith("[Players") else '[Players "Ana, Bo"]\n'
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        RULES.replay_text(f'[Game "Super Wild"]\n{players}{tag}\n1. Ana: draw\n')


def test_rules_found_by_name_and_json_shape() -> None:
    assert rules_for("super-wild") is RULES and rules_for("Super Wild").name == "Super Wild"
    replay = RULES.replay_text(RULES.random_transcript(2, turns=6))
    data = json.loads(json.dumps(replay.to_json()))
    assert data["settings"]["game"] == "Super Wild"
    turn = data["turns"][0]
    assert {"number", "player", "kind", "placements", "legal", "score", "table", "groups"} <= set(turn)
    assert {"tile": "W", "x": 0, "y": 0} in turn["table"]
    assert data["final"]["trophies"] == {"Ana": 0, "Bo": 0}


ROUND = """[Game "Super Wild"]
[Players "{players}"]
[Round "{number}"]
[Trophies "{trophies}"]
[Racks "{first}: R4 R5; {second}: K7 K8"]
1. {first}: R4@1,0, R5@2,0 {{+2}}
"""


def round_text(number: int, players: tuple[str, str], trophies: str) -> str:
    return ROUND.format(
        number=number, players=", ".join(players), trophies=trophies, first=players[0], second=players[1]
    )


def test_match_counts_trophies_and_rotates_the_start() -> None:
    rounds = [
        round_text(1, ("Ana", "Bo"), "Ana 0, Bo 0"),
        round_text(2, ("Bo", "Ana"), "Bo 0, Ana 1"),
        round_text(3, ("Ana", "Bo"), "Ana 1, Bo 1"),
    ]
    assert match_trophies(rounds) == {"Ana": 2, "Bo": 1}


def test_match_with_wrong_tags() -> None:
    first = round_text(1, ("Ana", "Bo"), "Ana 0, Bo 0")
    with pytest.raises(ValueError, match="round 2: Rounds: the next player clockwise"):
        match_trophies([first, round_text(2, ("Ana", "Bo"), "Ana 1, Bo 0")])
    with pytest.raises(ValueError, match="round 2: Winning"):
        match_trophies([first, round_text(2, ("Bo", "Ana"), "Bo 0, Ana 0")])


def test_readme_example_replays() -> None:
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Super Wild", 1)[1].split("\n## ", 1)[0]
    text = "\n".join(line[4:] for line in section.splitlines() if line.startswith("    "))
    replay = RULES.replay_text(text)
    assert replay.is_legal and not replay.errors and len(replay.turns) == 7
    assert replay.final["winner"] == "Ana" and replay.final["trophies"] == {"Ana": 1, "Bo": 0}
    groups = {tuple(g["positions"]): g["groups"] for g in replay.turns[-1].details["groups"]}
    assert groups[("-1,0", "0,0", "1,0", "2,0", "3,0")][0]["values"] == ["K7", "K6", "K5", "K4", "K3"]
    assert groups[("-2,2", "-1,2", "0,2")][0]["values"] == ["B9", "O9", "R9"]


def test_racks_the_bag_cannot_give() -> None:
    head = '[Game "Super Wild"]\n[Players "Ana, Bo, Cy"]\n'
    with pytest.raises(ValueError, match="tags Players, Deal, Racks: cannot deal 60"):
        RULES.replay_text(head + '[Deal "20"]\n1. Ana: draw\n')
    with pytest.raises(ValueError, match="more K7 tiles"):
        RULES.replay_text(head + '[Racks "Ana: K7; Bo: K7"]\n1. Ana: draw\n')


def test_a_rack_holds_at_most_the_52_number_tiles() -> None:
    every = " ".join(f"{c}{n}" for c in "KBOR" for n in range(1, 14))
    assert len(parse_rack(every)) == 52
    with pytest.raises(ValueError, match="a rack of 53 tiles"):
        parse_rack(every + " R1")


def test_the_first_of_two_tags_of_a_name_counts() -> None:
    text = '[Game "Super Wild"]\n[Players "Ana, Bo"]\n[Players "Cy, Di"]\n[Round "2"]\n[Round "3"]\n1. draw\n'
    settings, _, errors = read_transcript(text)
    assert settings.players == ("Ana", "Bo") and settings.round == 2
    assert [(e.line, e.message) for e in errors] == [
        (3, "tag Players again (line 2's counts)"),
        (5, "tag Round again (line 4's counts)"),
    ]
