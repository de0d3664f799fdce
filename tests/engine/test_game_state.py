"""Game bookkeeping: diff against an observed board, tile counts, rulesets, bad input."""

from __future__ import annotations

import pytest

from engine.game import Game
from engine.hexgrid import parse_address
from engine.position import Position
from engine.ruleset import ruleset_for
from engine.settings import Settings
from engine.tiles import Tile, parse_placement, parse_placements


def _observed(text: str) -> dict:
    return {p.cell: p.tile for p in parse_placements(text)}


def test_diff_finds_added_vanished_and_changed_tiles():
    game = Game(Settings(modulus=11, wild_policy="E", hash_swap=True, players=("Ana", "Bo")))
    game.play(parse_placements("4B2 7B1 #A0 2M1"))
    assert game.diff(_observed("4B2 7B1 #A0 2M1")).is_empty
    diff = game.diff(_observed("4B2 7B1 #A0 2M1 5M2"))
    assert diff.placements == (parse_placement("5M2"),) and diff.is_clean
    diff = game.diff(_observed("4B2 #A0 3M1 5M2 10A0"))
    assert diff.vanished == (parse_address("B1"),)
    assert diff.changed == (parse_address("M1"),)
    # a natural where a wild tile was is a hash swap under that option
    diff = game.diff(_observed("4B2 7B1 10A0 2M1"))
    assert diff.placements == (parse_placement("10A0"),) and diff.is_clean
    assert game.evaluate(diff.placements).legal


def test_diff_matches_the_marker_as_a_zero_and_declared_wilds_as_wild():
    game = Game(Settings(modulus=13, marker=True, wild_policy="D"))
    game.play(parse_placements("7B2 10B1 #=3M1"))
    observed = {parse_address("A0"): Tile.natural(0)} | _observed("7B2 10B1 #M1")
    assert game.diff(observed).is_empty


def test_eleventh_tile_of_a_value_is_flagged():
    settings = Settings(modulus=13, tiles_per_value=2, players=("Ana", "Bo"))
    game = Game(settings)
    assert game.play(parse_placements("1B1 1A0 1M1")).warnings == (
        "§1-3 set composition: 3 tiles of value 1 on the board, the set has 2",
    )
    assert game.play(parse_placements("2E1")).warnings == ()


def test_starting_position_is_checked():
    with pytest.raises(ValueError, match="not modular-linear"):
        Game(Settings(modulus=7), Position(parse_placements("1B1 2A0 4M1")))
    with pytest.raises(ValueError, match="off the board"):
        Game(Settings(modulus=7), Position(parse_placements("1B99")))


def test_turn_order_and_frozen_players():
    game = Game(Settings(modulus=7, players=("Ana", "Bo", "Cy")))
    game.freeze("Ana")
    game.play(parse_placements("1A0"), player="Bo")
    with pytest.raises(ValueError, match="Cy's turn"):
        game.pass_turn("Bo")
    game.pass_turn("Cy")
    assert game.current_player == "Bo"  # Ana is frozen and skipped
    game.freeze()
    game.freeze()
    assert game.is_over and game.winners() == ["Ana", "Bo", "Cy"]


def test_rulesets_by_name():
    assert ruleset_for("modlinseq").name == "MODLINSEQ"
    with pytest.raises(ValueError, match="unknown game 'Yushino'"):
        ruleset_for("Yushino")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"modulus": 0}, "modulus"),
        ({"wild_policy": "F"}, "wild policy"),
        ({"hash_swap": True}, "hash swap"),
        ({"bonus": "9C"}, "bonus pattern"),
        ({"players": ()}, "at least one player"),
        ({"players": ("Ana", "Ana")}, "distinct"),
        ({"players": ("Ana: x",)}, "player name"),
    ],
)
def test_bad_settings_name_the_field(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Settings(**kwargs)


@pytest.mark.parametrize("bad", ["4", "4Q2", "#=B2", "x4B2", "4B0"])
def test_bad_placements_quote_the_text(bad):
    with pytest.raises(ValueError, match="not a placement"):
        parse_placement(bad)
