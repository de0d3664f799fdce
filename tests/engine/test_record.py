"""The transcript frame shared by every game (engine.record): players, their names, score comments."""

from __future__ import annotations

import pytest

from engine.errors import TranscriptError
from engine.games import GAME_MODULES, Replay, rules_for
from engine.record import (
    check_player_names,
    parse_yes_no,
    players_of,
    read_record,
    score_comment,
    unknown_players,
)

#: A turn each game reads, for a player the header does not name.
STRAY_TURN = {"MODLINSEQ": "pass", "Yushino": "pass", "Super Wild": "draw", "Holominoes": "pass 123"}


def test_players_come_from_the_tag_else_from_the_turn_lines_in_order() -> None:
    tags, lines, _ = read_record('[Players " Ana , Bo,, "]\n1. Cy: pass\n')
    assert players_of(tags, lines) == ("Ana", "Bo")
    tags, lines, _ = read_record("1. Cy: pass\n2. Ana: pass\n3. Cy: pass\n4. pass\n")
    assert players_of(tags, lines) == ("Cy", "Ana")
    assert players_of(*read_record("1. pass\n")[:2]) == ()


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (("Ana", "Ana"), "must be distinct"),
        (("Ana: x",), "player name 'Ana: x' must be non-empty without"),
        (("{Bo}",), "without , : { } [ ] or quotes"),
        ((" ",), "must be non-empty"),
        (("A" * 41,), "at most 40 printable characters"),
        (("Ana\tBo",), "printable"),
    ],
)
def test_names_a_turn_line_cannot_carry_are_refused(players: tuple[str, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("{", r"\{")):
        check_player_names(players)
    check_player_names(("Ana", "Bo Li", "Émile"))


def test_unknown_players_are_named_at_their_line() -> None:
    tags, lines, _ = read_record('[Players "Ana, Bo"]\n\n1. Ana: pass\n2. Cy: pass\n')
    errors = unknown_players(lines, players_of(tags, lines))
    assert [(e.line, e.column, e.message) for e in errors] == [(4, 1, "player 'Cy' is not one of Ana, Bo")]


@pytest.mark.parametrize("game", list(GAME_MODULES))
def test_every_game_names_a_player_the_header_does_not_know(game: str) -> None:
    rules = rules_for(game)
    text = rules.random_transcript(3, players=2, turns=2)
    text += f"3. Cy: {STRAY_TURN[game]}\n"
    replay = rules.replay_text(text)
    line, named = len(text.splitlines()), ", ".join(replay.settings["players"])
    assert any(e.line == line and f"'Cy' is not one of {named}" in e.message for e in replay.errors), (
        replay.errors
    )
    assert replay.turns[-1].player == "Cy" and not replay.turns[-1].legal


@pytest.mark.parametrize("game", list(GAME_MODULES))
def test_every_game_refuses_a_name_with_a_colon(game: str) -> None:
    text = f'[Game "{game}"]\n[Players "Ana, B:o"]\n'
    try:
        replay = rules_for(game).replay_text(text)
    except ValueError as exc:  # the header cannot make a game
        assert "player name 'B:o'" in str(exc)
    else:  # MODLINSEQ reports a header problem among the errors and plays on default settings
        assert any("player name 'B:o'" in e.message for e in replay.errors), replay.errors


def test_the_score_comment_is_a_signed_number() -> None:
    assert score_comment(7) == "+7" and score_comment(0) == "+0"


@pytest.mark.parametrize(
    ("value", "on"), [("yes", True), (" TRUE ", True), ("1", True), ("No", False), ("0", False)]
)
def test_switch_tags_read_yes_or_no(value: str, on: bool) -> None:
    assert parse_yes_no(value) is on


def test_a_switch_tag_of_another_word_is_named() -> None:
    with pytest.raises(ValueError, match="expected yes or no, got 'maybe'"):
        parse_yes_no("maybe")


@pytest.mark.parametrize(
    ("game", "turn"),
    [("MODLINSEQ", "٣A0"), ("Yushino", "3H٨"), ("Super Wild", "R3@٣,0"), ("Holominoes", "1٢3@0,0/E")],
)
def test_only_the_digits_0_to_9_are_read_as_numbers(game: str, turn: str) -> None:
    # an Arabic-Indic digit is a decimal digit to Python's int() and re's \d, not to a transcript
    # MODLINSEQ needs its Modulus tag; the other games keep or ignore a tag they do not know
    text = f'[Game "{game}"]\n[Modulus "13"]\n[Players "Ana, Bo"]\n1. Ana: {turn}\n'
    replay = rules_for(game).replay_text(text)
    assert [(e.line, e.column) for e in replay.errors] == [(4, 9)], replay.errors


def test_a_replay_keeps_its_errors_in_line_and_column_order() -> None:
    errors = (TranscriptError(5, 1, "late"), TranscriptError(2, 9, "right"), TranscriptError(2, 3, "left"))
    assert [e.message for e in Replay({}, (), {}, errors).errors] == ["left", "right", "late"]


@pytest.mark.parametrize("game", list(GAME_MODULES))
def test_every_game_reads_the_first_of_two_tags_and_names_the_second(game: str) -> None:
    text = f'[Game "{game}"]\n[Modulus "13"]\n[Players "Ana, Bo"]\n[players "Cy, Di"]\n'
    replay = rules_for(game).replay_text(text)
    assert replay.settings["players"] == ["Ana", "Bo"]
    assert [(e.line, e.message) for e in replay.errors] == [(4, "tag players again (line 3's counts)")]
