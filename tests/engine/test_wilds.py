"""Wild tiles (§7-1 to §7-3): values, scoring, the policies A to E, figures 7B to 7E."""

from __future__ import annotations

import pytest

from engine.errors import RULE_MODULAR_LINEAR, RULE_NO_WILDS, RULE_WILD_POLICY
from engine.game import Game
from engine.hexgrid import parse_address
from engine.position import Position
from engine.settings import Settings
from engine.tiles import parse_placements


def _game(modulus: int, policy: str | None, tiles: str = "") -> Game:
    settings = Settings(modulus=modulus, wild_policy=policy, players=("Ana", "Bo"))
    return Game(settings, Position(parse_placements(tiles)) if tiles else None)


def _values(game: Game) -> dict[str, set[int]]:
    return {f"{c.q},{c.r}": set(v) for c, v in game.wild_values().items()}


def test_wild_takes_the_only_value_the_sequence_allows():
    game = _game(13, "C")
    result = game.play(parse_placements("2B2 5B1 #A0 11M1"))  # 2 ~ 5 ~ # ~ 11
    assert result.wild_values == {parse_address("A0"): {8}}
    assert result.primary.values == (2, 5, 8, 11)
    # any sequence that intersects this one must respect that value
    assert not game.evaluate(parse_placements("3E2 5E1")).legal  # 3 ~ 5 ~ 8 is not linear
    assert game.evaluate(parse_placements("2E2 5E1")).legal  # 2 ~ 5 ~ 8


@pytest.mark.parametrize("line", ["1B2 #B1 #A0 7M1 9M2", "#B2 5B1 6A0 #M1"])
def test_several_wild_tiles_in_one_sequence(line):
    assert _game(13, "E").evaluate(parse_placements(line)).legal


def test_wild_tiles_are_ignored_when_scoring():
    assert _game(11, "E").evaluate(parse_placements("2B2 4B1 6A0 8M1 10M2")).score == 6
    assert _game(11, "E").evaluate(parse_placements("2B2 4B1 #A0 8M1 10M2")).score == 3
    game = _game(11, "E")
    game.play(parse_placements("4B1 8A0 1M1"))
    assert game.play(parse_placements("#M2")).score == 1  # 4 ~ 8 ~ 1 ~ #


def test_wild_tiles_need_a_wild_policy():
    assert _game(11, None).evaluate(parse_placements("4B1 #A0")).error.rule == RULE_NO_WILDS


# §7-2: modulus 12, 7 ~ # ~ 9: the wild tile might be 8 or 2.
@pytest.mark.parametrize(
    ("policy", "turn", "legal", "values"),
    [
        ("A", "7B1 #A0 9M1", False, None),  # the naturals are not adjacent
        ("A", "7B2 8B1 #A0", True, {9}),
        ("C", "7B1 #A0 9M1", False, None),  # 8 or 2: not unique
        ("D", "7B1 #A0 9M1", False, None),  # no declared value
        ("D", "7B1 #=8A0 9M1", True, {8}),
        ("D", "7B1 #=2A0 9M1", True, {2}),
        ("D", "7B1 #=5A0 9M1", False, None),
        ("E", "7B1 #A0 9M1", True, {2, 8}),
    ],
)
def test_policies_a_c_d_e(policy, turn, legal, values):
    result = _game(12, policy).evaluate(parse_placements(turn))
    assert result.legal == legal
    if legal:
        assert result.wild_values == {parse_address("A0"): values}
    else:
        assert result.error.rule in (RULE_WILD_POLICY, RULE_MODULAR_LINEAR)


def test_policy_b_needs_a_prime_modulus_and_two_naturals():
    with pytest.raises(ValueError, match="prime"):
        Settings(modulus=12, wild_policy="B")
    result = _game(11, "B").evaluate(parse_placements("7B1 #A0 9M1"))
    assert result.legal and result.wild_values == {parse_address("A0"): {8}}
    result = _game(11, "B").evaluate(parse_placements("7B1 #A0 #M1"))
    assert result.error.rule == RULE_WILD_POLICY


def test_figure_7b_value_settled_later():
    """Modulus 12, rule E: #B1 is 3 or 9 until M1 is filled (§7-3)."""
    for m1, b1, msa in [(3, 3, "M12-S6-A3"), (9, 9, "M12-S0-A9")]:
        game = _game(12, "E")
        game.play(parse_placements("9E1 9A0"))
        game.play(parse_placements("9T3 #B1"))  # 9 ~ # ~ 9 on the positive slope: # is 3 or 9
        assert game.wild_values() == {parse_address("B1"): {3, 9}}
        assert game.legal_values()[parse_address("M1")] == {3, 9}
        result = game.play(parse_placements(f"{m1}M1"))
        assert game.wild_values() == {parse_address("B1"): {b1}}
        row = next(s for s in result.sequences if s.addresses == ["B1", "A0", "M1"])
        assert row.values == (b1, 9, m1) and row.msa == msa
    assert not _game(12, "E", "9E1 9A0 9T3").evaluate(parse_placements("#B1 5M1")).legal


def test_figures_7c_7d_7e_values_settled_by_intersecting_sequences():
    """Modulus 12: 7C alone gives A0 in {1, 7}; 7D alone three (A0, P1) pairs; together A0 = 1, P1 = 9."""
    c = _game(12, "E")
    c.play(parse_placements("7B1 #A0 7M1"))  # figure 7C
    assert _values(c) == {"0,0": {1, 7}}
    d = _game(12, "E")
    d.play(parse_placements("5E1 #A0 #P1 5P2"))  # figure 7D
    assert _values(d) == {"0,0": {9, 5, 1}, "0,1": {1, 5, 9}}
    e = _game(12, "E")
    e.play(parse_placements("7B1 #A0 7M1"))
    e.play(parse_placements("5E1"))
    result = e.play(parse_placements("#P1 5P2"))  # figure 7E
    assert result.wild_values == {parse_address("A0"): {1}, parse_address("P1"): {9}}
    assert result.primary.values == (5, 1, 9, 5)


def test_wild_policy_c_accepts_a_value_fixed_by_another_line():
    game = _game(12, "C")
    game.play(parse_placements("7B1 8A0 9M1"))
    result = game.evaluate(parse_placements("#E1 10E2"))  # E2 ~ E1 ~ A0 going south: 10 ~ # ~ 8 -> 9 or 3
    assert not result.legal
    game.play(parse_placements("8P1"))
    assert game.evaluate(parse_placements("#E1")).wild_values[parse_address("E1")] == {8}
