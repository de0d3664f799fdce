"""Touch on the game maps: which tile or empty place a tap hits (each map's geometry, pixels <->
tiles), and the placement the keypad's picks make for each game (display.tile_keypad)."""

from __future__ import annotations

import pygame
import pytest

from display.maps import GameMap, read_game
from display.maps.holominoes import HolominoesMap
from display.maps.superwild import SuperWildMap
from display.maps.yushino import YushinoMap
from display.replay import transcript_prefix
from display.tile_keypad import HolominoesKeypad, SuperWildKeypad, TilePick, YushinoKeypad
from engine.games import rules_for
from engine.holominoes.geometry import CORNERS, centre_xy, corner_xy, parse_cell
from engine.holominoes.tiles import parse_placement
from engine.placement import place_of
from engine.superwild.tiles import parse_move, parse_pos
from engine.yushino.board import ALL_SQUARES, format_square, parse_square

#: Map rectangles of the kiosk at 800x480 and 1920x1080 (left of the side panel).
RECTS = [pygame.Rect(8, 20, 464, 440), pygame.Rect(18, 40, 1116, 1000)]


def _pending(game: str, seed: int, turn: int) -> tuple[str, tuple[str, ...]]:
    """The transcript before ``turn`` of a seeded game and that turn's moves (the turn in progress)."""
    text = rules_for(game).random_transcript(seed, 2, turn + 1)
    line = next(line for line in text.splitlines() if line.startswith(f"{turn}. "))
    return transcript_prefix(text, turn - 1), tuple(line.split(": ", 1)[1].split(" {")[0].split(", "))


@pytest.mark.parametrize("rect", RECTS)
def test_a_tap_on_a_yushino_tile_of_the_turn_picks_it_and_nothing_else(rect: pygame.Rect) -> None:
    text, moves = _pending("Yushino", 3, 3)
    game_map, _ = read_game(text, (*moves, "#H9", "#=7H10"))
    assert isinstance(game_map, YushinoMap)
    for move in (*moves, "#H9", "#=7H10"):
        box = game_map.square_rect(rect, parse_square(move.lstrip("#=0123456789")))
        for x, y in (box.center, (box.left + 1, box.top + 1), (box.right - 1, box.bottom - 1)):
            assert game_map.tile_at(rect, (x, y)) == move
    placed = next(square for square, _ in game_map.tiles)  # a tile already played never moves
    assert game_map.tile_at(rect, game_map.square_rect(rect, placed).center) is None
    assert game_map.tile_at(rect, (rect.left + 1, rect.top + 1)) is None  # the column letters


@pytest.mark.parametrize("rect", RECTS)
def test_a_tap_on_any_super_wild_tile_picks_it(rect: pygame.Rect) -> None:
    text, moves = _pending("Super Wild", 5, 5)
    game_map, _ = read_game(text, moves)
    assert isinstance(game_map, SuperWildMap)
    for pos, tile in game_map.tiles:
        box = game_map.cell_rect(rect, pos)
        for x, y in (box.center, (box.left, box.top), (box.right - 1, box.bottom - 1)):
            shown = game_map.tile_at(rect, (x, y))
            assert shown is not None and parse_move(shown).pos == pos and parse_move(shown).tile == tile
    taken = {pos for pos, _ in game_map.tiles}
    free = next(p for p, _ in game_map.tiles if p.step(0, -1) not in taken).step(0, -1)
    assert game_map.tile_at(rect, game_map.cell_rect(rect, free).center) is None


@pytest.mark.parametrize("rect", RECTS)
def test_a_tap_anywhere_on_the_holominoes_tile_of_the_turn_picks_it(rect: pygame.Rect) -> None:
    text, moves = _pending("Holominoes", 4, 3)
    game_map, _ = read_game(text, moves)
    assert isinstance(game_map, HolominoesMap)
    (shown,) = moves
    cell = parse_placement(shown).cell.key
    cx, cy = centre_xy(cell)
    for corner in CORNERS:  # the centre and just inside every corner
        kx, ky = corner_xy(cell, corner)
        for f in (0.0, 0.9):
            at = game_map.pixel(rect, (cx + f * (kx - cx), cy + f * (ky - cy)))
            assert game_map.tile_at(rect, at) == shown
    for neighbour, _ in game_map.tiles:  # the tiles already played
        assert game_map.tile_at(rect, game_map.pixel(rect, centre_xy(neighbour.key))) is None


def test_yushino_picks_a_digit_the_blank_or_a_blank_standing_for_a_number() -> None:
    pad = YushinoKeypad()
    assert pad.face("#=7H9") == "#7" and pad.face("#H9") == "#" and pad.face("2F11") == "2"
    assert pad.placement("F11", pad.press(pad.start(), 0, "1")) == "1F11"
    assert pad.placement("F11", pad.press(pad.start(), 0, "#")) == "#F11"
    picks = pad.press(pad.start(), 1, "#7")
    assert pad.placement("H9", picks) == "#=7H9" and pad.lit(picks) == {(1, "#7")}
    assert pad.placement("F11", pad.start()) is None and pad.words(pad.start()) == "?"


def test_super_wild_picks_a_number_and_a_colour_or_the_super_wild() -> None:
    pad = SuperWildKeypad()
    assert len(pad.groups[0]) == 13 and "6/9" in pad.groups[0] and "9" not in pad.groups[0]
    picks = pad.press(pad.start(), 0, "4")
    assert pad.placement("0,1", picks) is None and pad.words(picks) == "?4"
    picks = pad.press(picks, 1, "B")
    assert pad.placement("0,1", picks) == "B4@0,1" and pad.words(picks) == "B4"
    assert pad.placement("0,1", pad.press(picks, 0, "6/9")) == "B6@0,1"
    wild = pad.press(picks, 0, "W")
    assert pad.placement("0,1", wild) == "W@0,1" and pad.lit(wild) == {(0, "W")}
    assert pad.placement("0,1", pad.press(wild, 1, "R")) is None  # a colour asks for its number again
    moved = pad.place("R5@0,1>2,1")  # where the tile lies now
    assert pad.placement(moved, pad.press(picks, 1, "R")) == "R4@2,1"


def test_holominoes_picks_the_corners_clockwise_from_the_right_then_starts_again() -> None:
    pad = HolominoesKeypad(6)
    picks = pad.start()
    for digit in "152":
        picks = pad.press(picks, 0, digit)
    assert pad.words(picks) == "E1 SW5 NW2"
    assert pad.placement("2,-2", picks) == "152@2,-2/E"
    turned = pad.start()
    for digit in "521":
        turned = pad.press(turned, 0, digit)
    assert parse_placement(pad.placement("2,-2", turned) or "").corners == (5, 2, 1)
    assert pad.press(picks, 0, "4") == ("4", "", "")
    assert pad.placement("2,-2", ("1", "1", "2")) is None  # not three different numbers
    assert pad.face("135@2,-2/E") == "E1 SW3 NW5"
    assert pad.groups == (("1", "2", "3", "4", "5", "6"),)


def test_a_pick_of_remove_corrects_to_no_tile_and_a_fresh_pick_to_nothing_yet() -> None:
    pick = TilePick.of("B5@0,1", SuperWildKeypad())
    assert pick.true is None and not pick.text().ready and pick.text().title == "Correct 0,1"
    removed = pick.removed()
    assert removed.true == "" and removed.text().removing and removed.text().ready
    assert removed.pressed(0, "W").true == "W@0,1"


def _centre(game_map: GameMap, rect: pygame.Rect, place: str) -> tuple[float, float]:
    """Where a map draws ``place`` (pixels)."""
    if isinstance(game_map, YushinoMap):
        return game_map.square_rect(rect, parse_square(place)).center
    if isinstance(game_map, SuperWildMap):
        return game_map.cell_rect(rect, parse_pos(place)).center
    assert isinstance(game_map, HolominoesMap)
    return game_map.pixel(rect, centre_xy(parse_cell(place).key))


@pytest.mark.parametrize("rect", RECTS)
@pytest.mark.parametrize(("game", "seed"), [("Yushino", 3), ("Super Wild", 5), ("Holominoes", 4)])
def test_a_tap_on_an_empty_place_picks_the_place_and_a_tap_on_a_tile_none(
        game: str, seed: int, rect: pygame.Rect) -> None:
    text, moves = _pending(game, seed, 3)
    game_map, _ = read_game(text, moves)
    tiles = [*rules_for(game).layout(text), *moves]
    taken = sorted({place_of(game, t) for t in tiles})
    if isinstance(game_map, YushinoMap):
        empty = next(format_square(s) for s in ALL_SQUARES if format_square(s) not in taken)
    else:  # the place beside the first tile, one step up or one cell to the north-west
        steps = [(0, -1), (0, 1), (1, 0), (-1, 0)]
        first = [int(v) for v in taken[0].split(",")]
        empty = next(p for dx, dy in steps if (p := f"{first[0] + dx},{first[1] + dy}") not in taken)
    assert game_map.place_at(rect, _centre(game_map, rect, empty)) == empty
    assert all(game_map.place_at(rect, _centre(game_map, rect, place)) is None for place in taken)
    assert len(game_map.outline(rect, empty)) >= 4  # the kiosk marks the place picked


def test_an_empty_place_picked_takes_the_tile_the_picks_make_there() -> None:
    pick = TilePick.on("3,1", SuperWildKeypad())
    text = pick.text()
    assert pick.true is None and text.title == "Add a tile on 3,1" and text.now == "no tile read"
    assert pick.pressed(0, "7").pressed(1, "R").true == "R7@3,1"
