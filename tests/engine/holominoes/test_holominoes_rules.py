"""Holominoes rules on hand-worked positions from the seed: the 6- and 15-point holes, the
3,375-point triple, the blocked point, passes, the end of the game, and every broken turn."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from engine.games import rules_for
from engine.holominoes import RULES, Game, IllegalTurnError, Settings, parse_move, parse_placement, replay
from engine.holominoes.game import (
    RULE_GAME_OVER,
    RULE_MUST_MOVE,
    RULE_ONCE,
    RULE_PASS_TILE,
    RULE_TILE_SET,
    RULE_TURN_ORDER,
)
from engine.holominoes.position import RULE_ADJACENT, RULE_EMPTY, RULE_MATCH
from engine.holominoes.transcript import RULE_NOTATION, RULE_ONE_TILE

HEADER = '[Game "Holominoes"]\n[Players "Ana, Bo"]\n[Pool "3"]\n[Digits "6"]\n'


def transcript(start: str, *moves: str, header: str = HEADER) -> str:
    names = ["Ana", "Bo"]
    lines = [f"{i}. {names[(i - 1) % 2]}: {m}" for i, m in enumerate(moves, start=1)]
    return header + f'[Start "{start}"]\n' + "\n".join(lines) + "\n"


# 6 points (seed "Notes"): tiles on 0,0, 1,0 and 0,1 close the bite point SE of 0,0. Numbers
# (E, SW, NW): 0,0 = (2, 1, 4); 1,0 = (5, 3, 2); 0,1 = (3, 6, 1). The hole's three numbers are
# E of 0,0 = NW of 1,0 = 2, SW of 0,0 = NW of 0,1 = 1, E of 0,1 = SW of 1,0 = 3: 2 + 1 + 3 = 6.
SIX = ("142@0,0/SW", "253@1,0/NW", "136@0,1/NW")
# 15 points: 0,0 = (5, 4, 1); 1,0 = (2, 6, 5); 0,1 = (6, 3, 4): 5 + 4 + 6 = 15.
FIFTEEN = ("154@0,0/NW", "265@1,0/E", "346@0,1/SW")
# The seed's 3,375: 456 on 0,0 (E 4, SW 5, NW 6) with all six neighbours; each neighbour shares
# two of the centre's numbers and the third number of each hole is the one the hole lacks:
# SE 1,0 = (1, 6, 4), S 0,1 = (6, 1, 5), SW -1,1 = (5, 1, 4), NW -1,0 = (6, 4, 2),
# N 0,-1 = (5, 6, 2), NE 1,-1 = (2, 4, 5). Holes SE, W, NE of 0,0 each 4 + 5 + 6 = 15.
RING = ("164@1,0/E", "156@0,1/SW", "145@-1,1/SW", "264@-1,0/NW", "256@0,-1/NW", "245@1,-1/E")
CENTRE = "456@0,0/E"


def test_the_seeds_smallest_hole_scores_6() -> None:
    rep = RULES.replay_text(transcript(SIX[0], *SIX[1:]))
    assert rep.is_legal and not rep.errors
    assert [t.score for t in rep.turns] == [0, 6]
    assert rep.turns[1].details["holes"] == [{"point": "0,0/SE", "numbers": [2, 1, 3], "points": 6}]
    assert rep.scores == {"Ana": 0, "Bo": 6}


def test_the_seeds_largest_hole_scores_15() -> None:
    rep = RULES.replay_text(transcript(FIFTEEN[0], *FIFTEEN[1:]))
    assert rep.is_legal
    assert rep.turns[1].details["holes"] == [{"point": "0,0/SE", "numbers": [5, 4, 6], "points": 15}]
    assert rep.turns[1].score == 15


def test_three_maximal_holes_score_3375() -> None:
    rep = RULES.replay_text(transcript(RING[0], *RING[1:], CENTRE))
    assert rep.is_legal
    assert [t.score for t in rep.turns] == [0, 0, 0, 0, 0, 3375]
    holes = rep.turns[-1].details["holes"]
    assert sorted(h["point"] for h in holes) == ["-1,0/SE", "0,-1/SE", "0,0/SE"]
    assert all(sorted(h["numbers"]) == [4, 5, 6] and h["points"] == 15 for h in holes)
    assert rep.scores["Bo"] == 3375


def test_two_holes_multiply_and_sum_scoring_adds_times_count() -> None:
    five = RING[:5]  # no tile north-east: the NE bite stays open
    rep = RULES.replay_text(transcript(five[0], *five[1:], CENTRE))
    assert rep.turns[-1].score == 15 * 15 and len(rep.turns[-1].details["holes"]) == 2
    summed = HEADER + '[Scoring "sum"]\n'
    assert RULES.replay_text(transcript(five[0], *five[1:], CENTRE, header=summed)).turns[-1].score == 30 * 2
    rep = RULES.replay_text(transcript(RING[0], *RING[1:], CENTRE, header=summed))
    assert rep.turns[-1].score == 45 * 3
    assert rep.settings["scoring"] == "sum"


def test_blocked_point_needing_two_threes() -> None:
    # 123 on 0,0 shows 3 on E; 132 on 1,-1 and 143 on 2,-1 put 3 on E of 1,0 too: cell 1,0 would
    # need a tile with two 3s (seed "Blocking").
    rep = RULES.replay_text(transcript("123@0,0/SW", "132@1,-1/E", "143@2,-1/NW"))
    assert rep.is_legal
    assert "1,0" not in rep.turns[0].details["blocked"]
    assert "1,0" in rep.turns[1].details["blocked"]
    game = replay(transcript("123@0,0/SW", "132@1,-1/E", "143@2,-1/NW"))[0]
    assert all((p.cell.q, p.cell.r) != (1, 0) for p in game.legal_placements())
    assert game.position.pattern((1, 0)) == (3, 0, 3)


def test_hint_finds_the_triple() -> None:
    text = transcript(RING[0], *RING[1:])
    hints = RULES.hint(text, "123 456", 3)
    assert hints[0].moves == CENTRE and hints[0].score == 3375
    assert RULES.hint(text, None, 1)[0].moves == CENTRE
    # 123 on 2,-1 closes the bite W of it between 245 (NE) and 164 (SE): 2 + 4 + 1
    best = rules_for("holominoes").hint(text, "123", 5)[0]
    assert (best.moves, best.score) == ("123@2,-1/SW", 7)
    assert best.details["holes"] == [{"point": "1,-1/SE", "numbers": [2, 4, 1], "points": 7}]
    with pytest.raises(ValueError, match="'164' is already on the table"):
        RULES.hint(text, "164", 1)
    with pytest.raises(ValueError, match="written from its smallest"):
        RULES.hint(text, "321", 1)


def test_hint_passes_when_nothing_fits() -> None:
    text = transcript("123@0,0/SW")
    assert [h.moves for h in RULES.hint(text, "456 465", 5)] == ["pass 456", "pass 465"]


def test_hint_takes_under_a_second_mid_game() -> None:
    text = RULES.random_transcript(7, 2, 20)
    t0 = time.perf_counter()
    hints = RULES.hint(text, None, 5)
    assert time.perf_counter() - t0 < 1.0
    assert hints and hints == sorted(hints, key=lambda h: -h.score)


def test_pools_and_sack_are_counted_and_an_empty_pool_ends_the_game() -> None:
    header = '[Game "Holominoes"]\n[Players "Ana"]\n[Pool "1"]\n[Digits "3"]\n'
    game, rep = replay(header + '[Start "123@0,0/E"]\n1. Ana: 132@1,0/NW\n2. Ana: pass 132\n')
    assert rep.turns[0].legal and rep.final["over"] and rep.final["reason"] == "out of tiles"
    assert rep.final["winner"] == "Ana" and rep.final["pools"] == {"Ana": 0} and rep.final["sack"] == 0
    assert rep.turns[1].error is not None and rep.turns[1].error.rule == RULE_GAME_OVER


def test_every_player_passing_ends_the_game() -> None:
    game, rep = replay(transcript("123@0,0/SW", "pass 456", "pass 465"))
    assert rep.is_legal and rep.final["over"] and rep.final["reason"] == "every player passed"
    assert rep.final["winners"] == ["Ana", "Bo"] and rep.final["winner"] is None
    assert game.sack == 40 - 1 - 6 and game.pools == {"Ana": 3, "Bo": 3}


@pytest.mark.parametrize(
    ("move", "rule", "places", "message"),
    [
        ("142@0,0/SW", RULE_EMPTY, ["142@0,0/SW"], "cell 0,0 already holds 123@0,0/SW"),
        ("456@3,0/E", RULE_ADJACENT, ["456@3,0/E"], "shares no edge"),
        ("145@1,0/E", RULE_MATCH, ["145@1,0/E"], "NW shows 5 where the table has 3"),
        ("132@1,0/NW", RULE_ONCE, [], "132 is already on the table"),
        ("178@1,0/E", RULE_TILE_SET, ["178"], "not a tile of the 1..6 set"),
        ("pass", RULE_PASS_TILE, [], "names the pool tile"),
        ("pass 123", RULE_PASS_TILE, ["123"], "on the table"),
        ("pass 145", RULE_MUST_MOVE, [], "fits at"),
        ("pass 478", RULE_TILE_SET, ["478"], "not a tile"),
        ("145@1,0/E 146@0,1/E", RULE_ONE_TILE, ["145@1,0/E", "146@0,1/E"], "lays one tile, not 2"),
        ("145@1,0/SE", RULE_NOTATION, ["145@1,0/SE"], "not a numbered corner"),
    ],
)
def test_every_broken_turn_names_its_rule(move: str, rule: str, places: list[str], message: str) -> None:
    # 123 on 0,0 shows E 3, SW 1, NW 2; 132 on 1,-1 shows E 1, SW 3, NW 2
    text = transcript("123@0,0/SW", "132@1,-1/E", move)
    rep = RULES.replay_text(text)
    assert rep.turns[0].legal
    bad = rep.turns[1]
    assert not bad.legal and bad.score == 0 and bad.error is not None
    assert bad.error.rule == rule
    if places:
        assert list(bad.error.places) == places
    assert message in bad.error.message
    assert rep.scores == {"Ana": 0, "Bo": 0}


def test_turn_order_and_unknown_players() -> None:
    text = HEADER + '[Start "123@0,0/SW"]\n1. Bo: 132@1,-1/E\n2. Bo: 145@-1,1/E\n'
    rep = RULES.replay_text(text)
    assert rep.turns[0].error is not None and rep.turns[0].error.rule == RULE_TURN_ORDER
    assert rep.turns[1].legal  # the first turn was spent: it is Bo's turn
    rep = RULES.replay_text(HEADER + '[Start "123@0,0/SW"]\n1. Cy: 132@1,-1/E\n')
    assert rep.errors[0].line == 6 and "'Cy' is not one of Ana, Bo" in rep.errors[0].message


def test_game_play_raises_and_undo_restores() -> None:
    game = Game(Settings(("Ana", "Bo"), start=parse_placement(RING[0])))
    for move in RING[1:]:
        game.play(parse_move(move))
    with pytest.raises(IllegalTurnError, match="Play: numbers match") as err:
        game.play(parse_move("456@0,0/SW"))
    assert err.value.violation.rule == RULE_MATCH
    with pytest.raises(IllegalTurnError, match="turn order"):
        game.play(parse_move(CENTRE), player="Ana")
    before = (game.scores, game.pools, game.sack, game.current_player, len(game.history))
    assert game.evaluate(parse_move(CENTRE)).score == 3375 and game.scores["Bo"] == 0
    game.play(parse_move(CENTRE), player="Bo")
    assert game.scores["Bo"] == 3375 and len(game.position) == 7
    game.undo()
    assert (game.scores, game.pools, game.sack, game.current_player, len(game.history)) == before
    assert len(game.position) == 6


@pytest.mark.parametrize(
    ("tags", "line", "message"),
    [
        ('[Pool "99999"]', 5, "tag Pool '99999' is out of range: 1 to 12"),
        ('[Pool "x"]', 5, "tag Pool 'x' is not a whole number"),
        ('[Pool "20"]', 5, "tag Pool '20' is out of range: 1 to 12"),
        ('[Digits "12"]', 5, "tag Digits '12' is out of range: 3 to 9"),
        ('[Scoring "max"]', 5, "scoring must be one of product, sum"),
        ('[Start "123@2000,0/E"]', 5, "beyond 1000"),
    ],
)
def test_bad_tags_are_reported_with_their_line(tags: str, line: int, message: str) -> None:
    rep = RULES.replay_text('[Game "Holominoes"]\n[Players "Ana, Bo"]\n\n\n' + tags + "\n1. Ana: 123@0,0/E\n")
    assert any(e.line == line and message in e.message for e in rep.errors), rep.errors


def test_out_of_range_coordinates_are_transcript_errors_with_line_and_column() -> None:
    rep = RULES.replay_text(transcript("123@0,0/SW", "132@1,-1/E", "145@99999999,0/E"))
    assert [(e.line, e.column) for e in rep.errors] == [(7, 8)]
    assert "beyond 1000" in rep.errors[0].message
    error = rep.turns[1].error
    assert error is not None and error.rule == RULE_NOTATION


def test_a_header_that_cannot_make_a_game_is_a_value_error() -> None:
    players = ", ".join(f"P{i}" for i in range(12))
    with pytest.raises(ValueError, match="12 pools of 4 need more than the set's 40 tiles"):
        RULES.replay_text(f'[Game "Holominoes"]\n[Players "{players}"]\n[Pool "4"]\n')


def test_the_readme_example_replays_as_written() -> None:
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Holominoes", 1)[1].split("\n## ", 1)[0]
    text = "\n".join(line[4:] for line in section.splitlines() if line.startswith("    "))
    rep = RULES.replay_text(text)
    assert rep.is_legal and not rep.errors and len(rep.turns) == 6
    written = [int(c) for c in re.findall(r"\{\+(\d+)\}", text)]
    assert [t.score for t in rep.turns] == written == [0, 0, 0, 0, 0, 3375]
