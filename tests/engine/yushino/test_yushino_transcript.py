"""Yushino notation and transcripts: round trips, errors with line and column, layout files."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import TranscriptError
from engine.yushino import (
    RULES,
    LayoutError,
    format_placement,
    format_rack,
    format_square,
    format_transcript,
    format_turn,
    parse_layout,
    parse_placement,
    parse_rack,
    parse_square,
    parse_transcript,
    parse_turn,
    replay_game,
)
from engine.yushino.board import ALL_SQUARES

TEXT = """[Game "Yushino"]
[Players "Ana, Bo"]
[Layout "classic"]
[Event "club night"]
1. Ana: 8G8, 7H8, 5I8 {+40}
2. Bo: #=9G9, 8H9 {+49}
3. Ana: exchange 3
4. Bo: pass
"""


def test_squares_round_trip() -> None:
    for square in ALL_SQUARES:
        assert parse_square(format_square(square)) == square
    assert format_square(parse_square("h8")) == "H8"


@pytest.mark.parametrize("text", ["7H8", "#=7H9", "0A1", "9O15"])
def test_placements_round_trip(text: str) -> None:
    assert format_placement(parse_placement(text)) == text


@pytest.mark.parametrize("text", ["3G8, 4H8", "exchange 3", "pass", "#=0A15"])
def test_turns_round_trip(text: str) -> None:
    assert format_turn(parse_turn(text)) == text


@pytest.mark.parametrize("text", ["3 4 7 # 1 2 9", "-", "#"])
def test_racks_round_trip(text: str) -> None:
    assert format_rack(parse_rack(text)) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("#H8", "needs its number: #=NH8"),
        ("12H8", "not a placement: '12H8'"),
        ("7H1001", "out of range 1..1000"),
        ("7H99999999999", "not a square"),
        ("7", "expected e.g. 7H8"),
        ("exchange 8", "exchange 1..7"),
        ("exchange 123456789012", "exchange 1..7"),
    ],
)
def test_bad_moves_are_named(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_turn(text)


def test_transcript_round_trip() -> None:
    transcript, errors = parse_transcript(TEXT)
    assert not errors
    assert format_transcript(transcript) == TEXT
    assert parse_transcript(format_transcript(transcript))[0] == transcript


def test_racks_tag_round_trip() -> None:
    text = RULES.random_transcript(1)
    transcript, errors = parse_transcript(text)
    assert not errors and transcript.racks is not None
    assert format_transcript(transcript) == text


def test_score_json_shape() -> None:
    result = RULES.replay_text(TEXT).to_json()
    assert result["settings"]["game"] == "Yushino"
    second = result["turns"][1]
    assert second["placements"] == ["#=9G9", "8H9"] and second["kind"] == "play"
    # row 9: blank 9 on G9 (2*, but 0 points) + 8 = 8; column G: 8 + 0 = 8; column H: 7 + 8 = 15
    assert [s["points"] for s in second["sequences"]] == [8, 8, 15] and second["score"] == 31
    assert result["scores"] == {"Ana": 40, "Bo": 31}


def test_errors_carry_line_and_column() -> None:
    text = '[Game "Yushino"]\n[Players "Ana, Bo"]\n1. Ana: 8G8, 7Q, 5I8\n2. Bo: exchange 9\n3. Cy: pass\n'
    result = RULES.replay_text(text)
    lines = [(e.line, e.column) for e in result.errors]
    assert lines == [(3, 14), (4, 17), (5, 1)]
    assert "'7Q'" in result.errors[0].message and "'Cy' is not one of Ana, Bo" in result.errors[2].message


@pytest.mark.parametrize(
    ("header", "line", "message"),
    [
        ('[Players "Ana"]', 2, "2 to 4 different players"),
        ('[Players "A, B, C, D, E"]', 2, "2 to 4 different players"),
        ('[Players "Ana, Bo"]\n[Direction "sideways"]', 3, "not forward or either"),
    ],
)
def test_bad_header_raises_at_its_line(header: str, line: int, message: str) -> None:
    with pytest.raises(TranscriptError, match=message) as info:
        RULES.replay_text(f'[Game "Yushino"]\n{header}\n1. Ana: pass\n')
    assert info.value.line == line


def test_players_from_the_turn_lines() -> None:
    result = RULES.replay_text('[Game "Yushino"]\n1. Ana: 8G8, 7H8, 5I8\n2. Bo: pass\n')
    assert result.scores == {"Ana": 40, "Bo": 0}


# -- layout files --------------------------------------------------------------------------------
LAYOUT = """name = "tiny"
"3X" = ["H9"]
"2*" = ["I8", "G8"]
"""


def test_layout_file_beside_the_transcript(tmp_path: Path) -> None:
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "tiny.toml").write_text(LAYOUT)
    text = '[Game "Yushino"]\n[Players "Ana, Bo"]\n[Layout "boards/tiny.toml"]\n1. Ana: 8G8, 7H8, 5I8\n'
    game, result = replay_game(text, tmp_path)
    assert game.settings.layout.name == "tiny"
    assert result.scores["Ana"] == 8 * 2 + 7 + 5 * 2  # no 2X on H8 here; G8 and I8 are 2*


def test_layout_outside_the_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "tiny.toml").write_text(LAYOUT)
    inner = tmp_path / "games"
    inner.mkdir()
    text = '[Game "Yushino"]\n[Players "Ana, Bo"]\n[Layout "../tiny.toml"]\n1. Ana: pass\n'
    with pytest.raises(LayoutError, match="outside the transcript's folder"):
        replay_game(text, inner)
    with pytest.raises(LayoutError, match="cannot read"):
        replay_game(text.replace("../tiny.toml", "missing.toml"), inner)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ('name = "x"\n"3X" = ["A1",\n', 2, "not TOML"),
        ('name = "x"\n"3X" = A1\n"2X" = []\n', 2, "not TOML"),
        ('name = "x"\n"4X" = ["A1"]\n', 2, "unknown key '4X'"),
        ('"3X" = [\n  "A1",\n  "Z9",\n]\n', 3, "'Z9' is off the 15 x 15 board"),
        ('"3X" = ["A1"]\n"2*" = ["B1", "A1"]\n', 2, "'A1' is both 3X and 2*"),
        ('"2X" = "H8"\n', 1, "must be a list of squares"),
        ('"2X" = ["H0"]\n', 1, "out of range"),
    ],
)
def test_layout_errors_name_file_and_line(text: str, line: int, message: str) -> None:
    with pytest.raises(LayoutError, match=message) as info:
        parse_layout(text, "board.toml")
    assert info.value.line == line and str(info.value).startswith(f"board.toml, line {line}:")


def test_the_readme_example_replays_as_it_says() -> None:
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text()
    section = readme.split("## Yushino", 1)[1].split("\n## ", 1)[0]
    text = "\n".join(line[4:] for line in section.splitlines() if line.startswith("    "))
    result = RULES.replay_text(text)
    assert result.is_legal and not result.errors
    assert result.scores == {"Ana": 33, "Bo": 55} and result.final["winner"] == "Bo"


@pytest.mark.parametrize("text", ["²H8", "3H٨", "exchange ²", "#=²H8"])
def test_digits_other_than_0_to_9_are_named(text: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_turn(text)
    assert str(caught.value).startswith("not a") and repr(text) in str(caught.value), caught.value
