"""Super Wild turns: every kind of broken turn reported with its rule and places, draws, the round's
winner and trophies, the cooperative finish, undo, and legal placements."""

from __future__ import annotations

import pytest

from engine.superwild import (
    RULES,
    Game,
    IllegalTurnError,
    Pos,
    Turn,
    legal_placements,
    parse_move,
    parse_rack,
)
from engine.superwild.game import RULE_BAG, RULE_PLAY_OR_DRAW, RULE_RACK, RULE_ROUND_OVER, RULE_TURN_ORDER
from engine.superwild.lines import RULE_ADJOINED, RULE_GROUP_SIZE, RULE_SIX_NINE
from engine.superwild.picture import parse_picture
from engine.superwild.table import (
    RULE_LONE_TILE,
    RULE_MOVE_SOURCE,
    RULE_OCCUPIED,
    RULE_SUPPLY,
    RULE_WILD_STAYS,
)

HEADER = """[Game "Super Wild"]
[Players "Ana, Bo"]
[Racks "Ana: R4 R5 K6 K7 K8 B1; Bo: O3 O4 O5 B12 K2 R10"]
"""


def turn(text: str, draw: bool = False) -> Turn:
    return Turn(tuple(parse_move(m) for m in text.split()), draw)


def game() -> Game:
    racks = {"Ana": parse_rack("R4 R5 K6 K7 K8 B1"), "Bo": parse_rack("O3 O4 O5 B12 K2 R10")}
    return Game.new(("Ana", "Bo"), racks)


def last_error(text: str):
    replay = RULES.replay_text(HEADER + text)
    bad = replay.turns[-1]
    assert not bad.legal
    return bad.error


@pytest.mark.parametrize(
    ("turns", "rule", "places"),
    [
        ("1. Ana: R4@1,0", RULE_GROUP_SIZE, ["0,0", "1,0"]),
        ("1. Ana: R4@1,0, K6@2,0", RULE_ADJOINED, ["0,0", "1,0", "2,0"]),
        ("1. Ana: R4@5,5, R5@6,5", RULE_GROUP_SIZE, ["5,5", "6,5"]),
        ("1. Ana: K6@0,5", RULE_LONE_TILE, ["0,5"]),
        ("1. Ana: R4@0,0", RULE_OCCUPIED, ["0,0"]),
        ("1. Ana: W@1,0", RULE_WILD_STAYS, ["1,0"]),
        ("1. Ana: O3@1,0, O4@2,0", RULE_RACK, ["1,0"]),
        ("1. Ana: R4@1,0, K7@3,0>4,0", RULE_MOVE_SOURCE, ["3,0"]),
        ("1. Ana: W@0,0>1,0", RULE_PLAY_OR_DRAW, ["1,0"]),
        ("1. Bo: O3@1,0, O4@2,0", RULE_TURN_ORDER, []),
        ("1. Ana: draw R4", RULE_SUPPLY, []),
    ],
)
def test_broken_turns(turns: str, rule: str, places: list[str]) -> None:
    error = last_error(turns)
    assert error.rule == rule
    assert list(error.places) == places


def test_broken_turn_keeps_the_table_and_passes_the_turn() -> None:
    replay = RULES.replay_text(HEADER + "1. Ana: R4@1,0\n2. Bo: O3@1,0, O4@2,0 {+2}\n")
    first, second = replay.turns
    assert not first.legal and first.score == 0
    assert second.legal and second.score == 2
    assert {"tile": "O3", "x": 1, "y": 0} in second.details["table"]


def test_taking_back_is_not_allowed() -> None:
    # a table tile can only move on the table; a move to a new place that breaks its old line fails
    text = "1. Ana: R4@1,0, R5@2,0\n2. Bo: O3@-1,0, O4@-2,0, O5@-3,0\n3. Ana: R5@2,0>5,5, K6@3,0\n"
    error = last_error(text)
    assert error.rule in (RULE_GROUP_SIZE, RULE_LONE_TILE)


def test_six_nine_in_one_group_is_reported() -> None:
    g = Game.new(("Ana",), {"Ana": parse_rack("K6 K7 K8 K9 B1")})
    g.play(turn("K6@0,2 K7@1,2 K8@2,2"))
    result = g.evaluate(turn("K9@3,2"))
    assert result.violation.rule == RULE_SIX_NINE


def test_play_draw_and_play_the_drawn_tile() -> None:
    g = game()
    g.play(turn("R4@1,0 R5@2,0"))
    assert g.current_player == "Bo" and g.scores == {"Ana": 2, "Bo": 0}
    g.play(Turn(draw=True, drawn=parse_rack("O6")[0]))
    assert len(g.rack("Bo")) == 7 and g.state.bag == 52 - 12 - 1
    # "If you can play it, proceed with your turn": draw, then lay
    result = g.play(Turn(tuple(parse_move(m) for m in ("K6@0,1", "K7@0,2")), draw=True))
    assert result.drew and result.score == 2
    assert g.rack("Ana").unknown == 1 and len(g.rack("Ana")) == 3  # K8 B1 and the unnamed draw


def test_draw_from_an_empty_bag() -> None:
    g = Game.new(("Ana", "Bo"), deal=26)
    assert g.state.bag == 0
    assert g.play(Turn(draw=True)).drew is False  # ends the turn, nothing drawn
    result = g.evaluate(Turn(draw=True, drawn=parse_rack("R4")[0]))
    assert result.violation.rule == RULE_BAG


def test_play_is_illegal_raises_and_undo_restores() -> None:
    g = game()
    with pytest.raises(IllegalTurnError) as err:
        g.play(turn("R4@1,0"))
    assert err.value.violation.rule == RULE_GROUP_SIZE
    g.play(turn("R4@1,0 R5@2,0"))
    g.undo()
    assert len(g.table) == 1 and g.current_player == "Ana" and len(g.rack("Ana")) == 6
    with pytest.raises(IndexError):
        g.undo()


def test_winner_trophies_and_cooperative_finish() -> None:
    text = """[Game "Super Wild"]
[Players "Ana, Bo, Cy"]
[Round "3"]
[Trophies "Ana 1, Bo 1, Cy 0"]
[Deal "3"]
1. Ana: R4@1,0, R5@2,0 {+2}
2. Bo: K7@0,1, K8@0,2, K9@0,3 {+3}
3. Cy: draw
4. Ana: R6@3,0 {+1}
5. Cy: B7@-1,1, O7@-2,1 {+2}
"""
    replay = RULES.replay_text(text)
    assert replay.is_legal, [t.error for t in replay.turns]
    # Bo went out first: the round is his, the others play on, Bo skipped
    assert replay.final["winner"] == "Bo" and replay.final["over"] is True
    assert replay.final["out"] == ["Bo", "Ana"]
    assert replay.final["trophies"] == {"Ana": 1, "Bo": 2, "Cy": 0}
    assert replay.scores == {"Ana": 3, "Bo": 3, "Cy": 2}
    assert replay.turns[-1].details["rack_sizes"] == {"Ana": 0, "Bo": 0, "Cy": 2}


def test_round_over_when_everyone_is_out() -> None:
    g = Game.new(("Ana",), {"Ana": parse_rack("R4 R5")})
    g.play(turn("R4@1,0 R5@2,0"))
    assert g.is_over and g.winner == "Ana"
    assert g.evaluate(Turn(draw=True)).violation.rule == RULE_ROUND_OVER


def test_rearranging_and_swapping_tiles() -> None:
    g = game()
    g.play(turn("R4@1,0 R5@2,0"))
    g.play(turn("O3@0,1 O4@0,2"))
    # swap R4 and R5 (lifted together, then put down) and lay K6 K7 K8 crossing nothing
    result = g.evaluate(turn("R4@1,0>2,0 R5@2,0>1,0 K6@5,5 K7@6,5 K8@7,5"))
    assert result.is_legal and result.score == 3
    assert result.state.table.tiles[Pos(1, 0)].number == 5


def test_legal_placements_and_blocked_positions() -> None:
    table = parse_picture("R3 R4 W\n")
    found = legal_placements(table, parse_rack("R2 R6 K5 B4"))
    lays = {str(m) for m in found.placements}
    assert "R2@-3,0" in lays and "R6@1,0" in lays  # R2 R3 R4 W; R3 R4 W(R5) R6
    assert "K5@1,0" not in lays
    assert not any(m.pos.y != 0 for m in found.placements)  # a tile alone beside one is a line of two
    # above and below the tiles any lay makes a line of two: blocked for every tile
    assert Pos(0, 1) in found.blocked and Pos(-1, -1) in found.blocked
    assert Pos(1, 0) not in found.blocked


def test_diagonals_follow_the_wild_when_it_moves() -> None:
    g = Game.new(("Ana",), {"Ana": parse_rack("R4 R5 K8 B8 O1")}, diagonals=True)
    g.play(turn("R4@-2,-2 R5@-1,-1"))  # "4 5 (W = 6)" on the diagonal
    assert g.table.groups()[0]["direction"] == "diagonal"
    # the Wild moved to a new diagonal B8 K8 W: R4 R5 lie on no line any more
    error = g.evaluate(turn("W@0,0>5,5 K8@4,4 B8@3,3")).violation
    assert error.rule == RULE_LONE_TILE and error.places == ("-2,-2",)
    # and with R4 R5 moved along: B8 K8 W and R4 R5 W on its two diagonals (W as 8 and 6)
    assert g.evaluate(turn("W@0,0>5,5 K8@4,4 B8@3,3 R4@-2,-2>7,3 R5@-1,-1>6,4")).is_legal
    found = legal_placements(g.table, parse_rack("R6 R3 K8"))
    assert {str(m) for m in found.placements} == {"R3@-3,-3"}  # R3 R4 R5 W; R4 R5 W R6 is no run
    assert Pos(0, 1) in found.blocked  # below the Wild any tile makes a line of two


def test_diagonal_anti_direction() -> None:
    table = parse_picture(
        """
        .  .  K10
        .  W  .
        O10 . .
        """,
        diagonals=True,
    )
    assert table.problem() is None
    assert table.groups()[0]["direction"] == "antidiagonal"
