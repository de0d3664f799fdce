"""Yushino's game rules through transcripts: turn order, racks, the set of §6, exchanges, the end."""

from __future__ import annotations

import pytest

from engine.games import rules_for
from engine.yushino import (
    RULES,
    Game,
    GameSettings,
    IllegalTurnError,
    Turn,
    parse_turn,
    pick_winner,
    random_game,
)
from engine.yushino.game import (
    RULE_EXCHANGE_POOL,
    RULE_EXCHANGE_TWICE,
    RULE_GAME_OVER,
    RULE_RACK,
    RULE_SET,
    RULE_TURN_ORDER,
)
from engine.yushino.tiles import EXCHANGE

HEAD = '[Game "Yushino"]\n[Players "Ana, Bo"]\n'


def replay(body: str, head: str = HEAD):
    return RULES.replay_text(head + body)


def test_registered_under_its_game_name() -> None:
    assert rules_for("yushino") is RULES


def test_turns_score_and_pool_is_counted() -> None:
    result = replay("1. Ana: 8G8, 7H8, 5I8 {+40}\n2. Bo: 9G9, 8H9\n3. Ana: exchange 3\n4. Bo: pass\n")
    assert result.is_legal
    assert [t.score for t in result.turns] == [40, 67, 0, 0]
    assert result.scores == {"Ana": 40, "Bo": 67}
    # 96 - 14 dealt = 82; Ana draws 3, Bo draws 2; the exchange leaves the pool as it was
    assert [t.details["pool"] for t in result.turns] == [79, 77, 77, 77]
    first = result.turns[0].to_json()
    assert first["sequences"][0]["points"] == 40 and first["bonus"] == 0
    assert first["racks"] == {"Ana": 7, "Bo": 7}
    assert result.final["over"] is False and result.final["winner"] is None


def test_turn_order_and_game_over() -> None:
    result = replay("1. Ana: 8G8, 7H8, 5I8\n2. Ana: 6I9\n")
    assert result.turns[1].error.rule == RULE_TURN_ORDER
    ended = replay("1. Ana: pass\n2. Bo: pass\n3. Ana: pass\n4. Bo: 8G8, 7H8, 5I8\n")
    assert ended.final["over"] is True and ended.final["reason"] == "scoreless"
    assert ended.turns[3].error.rule == RULE_GAME_OVER


def test_three_scoreless_turns_end_and_each_loses_their_rack() -> None:
    head = HEAD + '[Racks "Ana: 1 1 1 1 1 1 1, Bo: 2 2 2 2 2 2 #"]\n'
    result = replay("1. Ana: 8G8, 7H8, 5I8\n2. Bo: pass\n3. Ana: pass\n4. Bo: exchange 2\n", head)
    assert result.final["over"] and result.final["reason"] == "scoreless"
    assert result.final["before"] == {"Ana": 40, "Bo": 0}
    assert result.final["adjustments"] == {"Ana": -7, "Bo": -12}
    assert result.scores == {"Ana": 33, "Bo": -12} and result.final["winner"] == "Ana"
    assert not result.errors


def test_a_scoring_turn_resets_the_scoreless_count() -> None:
    result = replay("1. Ana: pass\n2. Bo: pass\n3. Ana: 8G8, 7H8, 5I8\n4. Bo: pass\n5. Ana: pass\n")
    assert result.final["over"] is False


def test_racks_that_do_not_match_the_count_are_reported() -> None:
    head = HEAD + '[Racks "Ana: 1 1, Bo: 2 2 2 2 2 2 #"]\n'
    result = replay("1. Ana: pass\n2. Bo: pass\n3. Ana: pass\n", head)
    (error,) = result.errors
    assert error.line == 3 and "Ana's rack holds 2 tiles; the game counts 7" in error.message
    assert result.final["adjustments"] == {}


def test_no_two_exchanges_running() -> None:
    result = replay("1. Ana: 8G8, 7H8, 5I8\n2. Bo: exchange 3\n3. Ana: 6I9\n4. Bo: exchange 1\n")
    error = result.turns[3].error
    assert error.rule == RULE_EXCHANGE_TWICE and "Bo exchanged on their last turn" in error.message
    assert replay("1. Ana: exchange 2\n2. Bo: pass\n3. Ana: pass\n4. Bo: 8G8, 7H8, 5I8\n").is_legal is False


def test_no_exchange_with_seven_or_fewer_in_the_pool() -> None:
    game, transcript = random_game(3)
    replayed = Game(GameSettings(transcript.players))
    for line in transcript.turns:
        if replayed.pool <= 7:
            break
        replayed.play(line.turn)
    assert replayed.pool <= 7 and not replayed.is_over
    result = replayed.evaluate(Turn(EXCHANGE, count=1))
    assert result.violation.rule == RULE_EXCHANGE_POOL
    assert f"only {replayed.pool} tiles are left" in result.violation.message


def test_more_tiles_than_the_rack_holds() -> None:
    result = replay("1. Ana: 1H5, 1H6, 2H7, 3H8, 5H9, 8H10, 3H11, 1H12\n")
    assert result.turns[0].error.rule == RULE_RACK
    exchange = replay("1. Ana: exchange 7\n")
    assert exchange.turns[0].legal


def test_the_set_of_96_is_checked_naming_the_number() -> None:
    blanks = replay("1. Ana: #=8G8, #=7H8, #=5I8\n")
    error = blanks.turns[0].error
    assert (
        error.rule == RULE_SET and "the blank would be on the board 3 times; the set has 2" in error.message
    )
    zeros = replay("1. Ana: 0H8, 0I8, 0J8, 0K8, 0L8, 0M8, 0N8\n2. Bo: 0H9, 0H10, 0H11, 0H12\n")
    assert zeros.turns[0].legal and zeros.turns[0].score == 100  # seven zeros: only the bonus
    assert zeros.turns[1].error.rule == RULE_SET
    assert "the number 0 would be on the board 11 times; the set has 10" in zeros.turns[1].error.message


def test_illegal_turn_is_spent_as_a_pass() -> None:
    result = replay("1. Ana: 7H8\n2. Bo: 8G8, 7H8, 5I8\n")
    assert not result.turns[0].legal and result.turns[1].legal and result.turns[1].score == 40


def test_play_raises_and_undo_restores() -> None:
    game = Game()
    with pytest.raises(IllegalTurnError, match="§2 first sequence on the centre"):
        game.play(parse_turn("7H8"))
    game.play(parse_turn("8G8, 7H8, 5I8"))
    game.play(parse_turn("exchange 2"))
    assert game.scores == {"Player 1": 40, "Player 2": 0} and game.pool == 79
    game.undo()
    game.undo()
    assert game.scores == {"Player 1": 0, "Player 2": 0} and game.pool == 82 and not len(game.position)
    with pytest.raises(ValueError, match="no turn"):
        game.undo()


def test_going_out_moves_the_racks_to_the_last_player() -> None:
    game, transcript = random_game(1)
    assert game.end_reason == "out"
    result = RULES.replay_text(RULES.random_transcript(1))
    out = result.final["out"]
    left = {
        name: sum(int(f) for f in faces.split() if f.isdigit())
        for name, faces in result.final["racks"].items()
    }
    assert result.final["adjustments"][out] == sum(left.values())
    for name in result.scores:
        if name != out:
            assert result.final["adjustments"][name] == -left[name]
        assert result.scores[name] == result.final["before"][name] + result.final["adjustments"][name]


def test_tie_breaks() -> None:
    players = ("Ana", "Bo")
    assert pick_winner(players, {"Ana": 50, "Bo": 40}, {"Ana": 40, "Bo": 45}) == ("Ana", None)
    assert pick_winner(players, {"Ana": 50, "Bo": 50}, {"Ana": 45, "Bo": 52}) == (
        "Bo",
        "score before the rack transfer",
    )
    # still tied (the opponent held only zeros): Player 2 wins, the player who moved first loses
    assert pick_winner(players, {"Ana": 50, "Bo": 50}, {"Ana": 50, "Bo": 50}) == ("Bo", "later in turn order")


def test_four_players_take_turns() -> None:
    head = '[Game "Yushino"]\n[Players "Ana, Bo, Cy, Di"]\n'
    result = replay("1. Ana: pass\n2. Bo: pass\n3. Cy: 8G8, 7H8, 5I8\n4. Di: 6I9\n", head)
    assert result.is_legal and result.scores == {"Ana": 0, "Bo": 0, "Cy": 40, "Di": 17}
    assert result.turns[3].details["pool"] == 96 - 28 - 3 - 1
