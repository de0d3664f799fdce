"""RULES.table_turn and RULES.layout of the games read as a layout (engine.games.TableRules)."""

from __future__ import annotations

import pytest

from display.replay import transcript_prefix, turn_count
from engine.games import TableRules, rules_for


def _rules(game: str) -> TableRules:
    rules: TableRules = rules_for(game)  # type: ignore[assignment]
    return rules


@pytest.mark.parametrize("game", ["Yushino", "Super Wild", "Holominoes"])
@pytest.mark.parametrize("seed", [1, 5, 12])
def test_the_layout_after_each_turn_gives_back_that_turn(game: str, seed: int) -> None:
    rules = _rules(game)
    text = rules.random_transcript(seed, 2, 14)
    truth = rules.replay_text(text).turns
    for k in range(turn_count(text)):
        moves = rules.table_turn(transcript_prefix(text, k), rules.layout(transcript_prefix(text, k + 1)))
        true = [m for m in truth[k].moves if not m.startswith("draw")]  # a drawn tile is not on the table
        if truth[k].kind in ("pass", "exchange") or not true:
            assert moves in ("", "draw"), (k, moves)
        else:
            assert sorted(moves.split(", ")) == sorted(true), (k, moves, true)


def test_yushino_blank_takes_the_number_that_makes_the_play_legal() -> None:
    rules = _rules("Yushino")
    text = '[Game "Yushino"]\n[Players "Ana, Bo"]\n\n1. Ana: 1H8, #=2I8, 3J8 {+6}\n'
    before = transcript_prefix(text, 0)
    assert rules.table_turn(before, {"1H8", "#I8", "3J8"}) == "1H8, #=2I8, 3J8"
    assert rules.layout(text) == {"1H8", "#I8", "3J8"}


def test_a_super_wild_tile_taken_away_is_named() -> None:
    rules = _rules("Super Wild")
    text = rules.random_transcript(3, 2, 4)
    layout = sorted(rules.layout(text))
    taken = next(t for t in layout if not t.startswith("W@"))  # the Super Wild is never laid
    with pytest.raises(ValueError, match="no longer on the table") as caught:
        rules.table_turn(text, set(layout) - {taken})
    assert taken.split("@")[1] in str(caught.value)  # its position


@pytest.mark.parametrize("game", ["Yushino", "Holominoes"])
def test_a_placed_tile_missed_or_misread_leaves_the_new_tile_the_turn(game: str) -> None:
    """Yushino's and Holominoes' tiles never move once laid: the new tile is the turn, whatever the
    camera reads on the cells the position already holds."""
    rules = _rules(game)
    text = rules.random_transcript(3, 2, 6)
    before, after = transcript_prefix(text, 5), sorted(rules.layout(text))
    placed = sorted(rules.layout(before))
    turn = rules.table_turn(before, after)
    assert turn == ", ".join(rules.replay_text(text).turns[5].moves)
    missed = set(after) - {placed[0]}
    assert rules.table_turn(before, missed) == turn
    if game == "Yushino":  # a digit misread on a square that holds a tile
        face, square = placed[1][0], placed[1][1:]
        misread = (missed - {placed[1]}) | {f"{(int(face) + 1) % 10 if face != '#' else 0}{square}"}
    else:  # a tile misread where a tile lies
        tile, where = placed[1].split("@")
        misread = (missed - {placed[1]}) | {f"{tile[0]}{tile[2]}{tile[1]}@{where}"}
    assert rules.table_turn(before, misread) == turn


@pytest.mark.parametrize(("game", "word"), [("Yushino", "H8x"), ("Super Wild", "R7@x"),
                                            ("Holominoes", "132@1,0/Q")])
def test_an_unreadable_seen_tile_is_named(game: str, word: str) -> None:
    rules = _rules(game)
    with pytest.raises(ValueError, match="seen tile"):
        rules.table_turn(rules.random_transcript(1, 2, 1), {word})


def test_yushino_blank_given_its_number_keeps_it() -> None:
    rules = _rules("Yushino")
    text = '[Game "Yushino"]\n[Players "Ana, Bo"]\n\n1. Ana: 1H8, #=2I8, 3J8 {+6}\n'
    before = transcript_prefix(text, 0)
    assert rules.table_turn(before, {"1H8", "#=5I8", "3J8"}) == "1H8, #=5I8, 3J8"  # as the players say
    assert rules.table_turn(text, {"1H8", "#=2I8", "3J8"}) == ""  # the committed blank, named
