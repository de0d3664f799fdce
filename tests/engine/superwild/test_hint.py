"""Super Wild hints: lay-only turns, a turn found by the integer programme that rearranges the table,
and every hint a legal turn of the transcript it was asked for."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.superwild import RULES, Game, Turn, hints, parse_move, parse_rack, random_round
from engine.superwild.hint import rearranged_turn
from engine.superwild.picture import parse_picture
from engine.superwild.programme import candidate_groups, choose_groups
from engine.superwild.transcript import format_transcript, format_turn


def legal_on(table, moves: str) -> bool:
    turn = Turn(tuple(parse_move(m) for m in moves.split(", ")))
    after = table.apply(turn.moves)
    return not hasattr(after, "rule") and after.problem() is None


def test_lay_only_hint_extends_a_run() -> None:
    table = parse_picture("R3 R4 W\n")
    best = hints(table, list(parse_rack("R2 R6 K9")), top=3)
    # all three: R2 before R3 R4, and R6 K9 below the Wild (W R6 K9 reads as a set of sixes)
    assert best[0].score == 3 and best[0].details["moved"] == 0
    assert best[0].moves == "R2@-3,0, R6@0,1, K9@0,2"
    assert all(legal_on(table, h.moves) for h in best)


def test_rearranging_hint_from_the_programme() -> None:
    # K1 fits nowhere as the table lies (W K2 K3 reads K1 K2 K3); rearranged, K1 K2 K3 is a run
    table = parse_picture("W  K2 K3\n")
    (best,) = hints(table, list(parse_rack("K1")), top=1)
    assert best.score == 1 and best.details["moved"] >= 1
    assert legal_on(table, best.moves)
    assert "K1@" in best.moves


def test_no_lay_means_draw() -> None:
    table = parse_picture("W  K2 K3\n")
    assert [h.moves for h in hints(table, list(parse_rack("R9")), top=2)] == ["draw"]
    with pytest.raises(ValueError, match="top"):
        hints(table, [], top=0)


def test_programme_covers_table_tiles_and_counts_laid() -> None:
    assert choose_groups(Counter(), Counter({("K", 1): 1}), share=False) == []  # K1 alone makes no group
    table = Counter({("K", 2): 1, ("K", 3): 1, ("B", 5): 1, ("O", 5): 1, ("R", 5): 1})
    chosen = choose_groups(table, Counter({("K", 1): 1, ("K", 5): 1, ("R", 12): 1}), share=False)
    used = sum((g.uses for g in chosen), Counter())
    assert used == table + Counter({("K", 1): 1, ("K", 5): 1})  # R12 cannot be laid
    # every table tile must be used: B5 O5 stay only as a set with the Wild; B5 O4 cannot stay
    assert choose_groups(Counter({("B", 5): 1, ("O", 5): 1}), Counter(), share=False) is not None
    assert choose_groups(Counter({("B", 5): 1, ("O", 4): 1}), Counter(), share=False) is None
    assert all(len(g.values) >= 3 for g in candidate_groups())


def test_hints_are_legal_turns_of_the_transcript() -> None:
    settings, lines, game = random_round(4, players=2, turns=24)
    text = format_transcript(settings, lines)
    rack = " ".join(str(t) for t in game.rack(game.current_player).known)
    found = RULES.hint(text, rack, 3)
    assert found
    for hint in found:
        if hint.moves == "draw":
            continue
        again = Game(game.players, game.state)
        turn = Turn(tuple(parse_move(m) for m in hint.moves.split(", ")))
        result = again.evaluate(turn)
        assert result.is_legal, (hint.moves, result.violation)
        assert result.score == hint.score
        assert format_turn(turn) == hint.moves


def test_hint_needs_a_rack_when_the_transcript_lacks_one() -> None:
    text = '[Game "Super Wild"]\n[Players "Ana, Bo"]\n1. Ana: draw\n'
    with pytest.raises(ValueError, match="give --rack"):
        RULES.hint(text, None, 1)
    with pytest.raises(ValueError, match="not a tile"):
        RULES.hint(text, "R7 Q1", 1)


def test_rearranged_turn_on_a_mid_game_table_is_legal_or_none() -> None:
    for seed in range(3):
        _, _, game = random_round(seed, players=2, turns=30)
        rack = list(game.rack(game.current_player).known)
        turn = rearranged_turn(game.table, rack)
        if turn is not None:
            assert legal_on(game.table, ", ".join(str(m) for m in turn.moves))


def test_rearranging_keeps_whole_lines_in_place() -> None:
    table = parse_picture(
        """
        W  K2 K3
        .  .  .
        R7 R8 R9
        """
    )
    (best,) = hints(table, list(parse_rack("K1")), top=1)
    assert best.score == 1 and legal_on(table, best.moves)
    assert not any(m.startswith(("R7", "R8", "R9")) for m in best.moves.split(", "))
    assert best.details["moved"] <= 2
