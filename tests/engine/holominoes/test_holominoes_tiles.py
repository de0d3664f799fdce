"""Holominoes tiles and notation: the set (seed "Tiles"), clockwise writing, placements, moves."""

from __future__ import annotations

import itertools
import math

import pytest

from engine.holominoes.geometry import Cell
from engine.holominoes.tiles import (
    Pass,
    Placement,
    Play,
    Tile,
    corner_placement,
    format_move,
    format_placement,
    format_tile,
    parse_move,
    parse_placement,
    parse_tile,
    tile_set,
)


def test_the_set_holds_forty_tiles_two_per_triplet() -> None:
    tiles = tile_set(6)
    assert len(tiles) == len(set(tiles)) == 40
    # the seed's list of the 20 triplets, each read clockwise and anticlockwise
    seed_list = (
        "123, 124, 125, 126, 134, 135, 136, 145, 146, 156, 234, 235, 236, 245, 246, 256, 345, 346, 356, 456"
    )
    triplets = seed_list.split(", ")
    assert {frozenset(t.numbers) for t in tiles} == {frozenset(map(int, t)) for t in triplets}
    assert Tile((1, 2, 3)) in tiles and Tile((1, 3, 2)) in tiles


@pytest.mark.parametrize("digits", range(3, 10))
def test_other_digit_counts_give_twice_the_triplets(digits: int) -> None:
    assert len(tile_set(digits)) == 2 * math.comb(digits, 3)


def test_tiles_are_written_clockwise_from_the_smallest() -> None:
    for tile in tile_set(6):
        assert parse_tile(format_tile(tile)) == tile
    with pytest.raises(ValueError, match="'213' is written from its smallest number: '132'"):
        parse_tile("213")
    for bad in ["12", "1234", "112", "103", "abc", ""]:
        with pytest.raises(ValueError, match="tile"):
            parse_tile(bad)


def test_first_corner_places_the_numbers_clockwise_e_sw_nw() -> None:
    p = parse_placement("132@1,0/E")
    assert p == Placement(Tile((1, 3, 2)), Cell(1, 0), "E")
    assert p.corners == (1, 3, 2)  # E, SW, NW
    assert parse_placement("123@0,0/SW").corners == (3, 1, 2)
    assert parse_placement("123@0,0/NW").corners == (2, 3, 1)
    # the three rotations of a tile show the same clockwise cycle
    for tile in tile_set(6):
        cycles = set()
        for first in ("E", "SW", "NW"):
            e, sw, nw = tile.oriented(first)
            cycles.add(min(((e, sw, nw), (sw, nw, e), (nw, e, sw))))
        assert cycles == {tile.numbers}


def test_a_placement_is_made_from_its_corner_numbers() -> None:
    for tile in tile_set(6):
        for first in ("E", "SW", "NW"):
            placed = Placement(tile, Cell(2, -1), first)
            assert corner_placement(Cell(2, -1), placed.corners) == placed
    with pytest.raises(ValueError, match="three different numbers"):
        corner_placement(Cell(0, 0), (1, 1, 2))


def test_placements_and_moves_round_trip() -> None:
    for tile, q, r, first in itertools.product(tile_set(4), (-3, 0, 1000), (-1000, 2), ("E", "SW", "NW")):
        p = Placement(tile, Cell(q, r), first)
        assert parse_placement(format_placement(p)) == p
        assert parse_move(format_move(Play(p))) == Play(p)
    assert parse_move("pass 456") == Pass(Tile((4, 5, 6)))
    assert format_move(Pass(Tile((4, 6, 5)))) == "pass 465"
    assert parse_move("PASS") == Pass(None)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("132@1,0/SE", "corner 'SE' is not a numbered corner"),
        ("132@1001,0/E", "beyond 1000"),
        ("132@1,0", "not TILE@q,r/CORNER"),
        ("132@1;0/E", "not q,r"),
        ("231@1,0/E", "written from its smallest"),
        ("pass 456 123", "returns one tile"),
    ],
)
def test_bad_moves_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_move(text)
