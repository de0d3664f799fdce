"""Each game's map on the real kiosk (pygame, dummy driver) at 800x480 and 1920x1080: screenshots
saved under the test's folder and checked pixel by pixel against the engine's replay."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pygame
import pytest

from calibration.palette import PREMIUM_RGB
from display.kiosk import Kiosk
from display.maps import read_game
from display.maps.holominoes import BITE, HolominoesMap
from display.maps.superwild import SuperWildMap
from display.maps.yushino import YushinoMap
from display.replay import main as replay_main
from display.replay import replay_views, view_of
from display.theme import Theme
from engine.games import rules_for
from engine.holominoes.geometry import centre_xy
from engine.superwild import RUN, SET, Pos, Tile
from engine.yushino.board import ALL_SQUARES

SIZES = [(800, 480), (1920, 1080)]
THEME = Theme()

#: A Yushino game that ends level at 6 each after three scoreless turns (§4: the later seat wins).
TIED_YUSHINO = """[Game "Yushino"]
[Players "Ana, Bo"]
1. Ana: 1H8, 2I8
2. Bo: 3J8
3. Ana: pass
4. Bo: pass
5. Ana: pass
"""


def _shot(tmp_path: Path, name: str, size: tuple[int, int], text: str) -> tuple[np.ndarray, Kiosk]:
    """Show the position after ``text`` on a kiosk of ``size``; the saved screenshot as RGB H x W x 3."""
    folder = tmp_path / f"{name}_{size[0]}x{size[1]}"
    with Kiosk(size, screenshots=folder, sound=False) as kiosk:
        assert kiosk.show(view_of(text))
        path = kiosk.saved[-1]
    assert path.is_file() and path.parent == folder
    image = pygame.surfarray.array3d(pygame.image.load(str(path))).transpose(1, 0, 2)
    assert image.shape == (size[1], size[0], 3)
    return image, kiosk


def _share(image: np.ndarray, rect: pygame.Rect, colour: tuple[int, int, int]) -> float:
    """The fraction of ``rect``'s pixels that are exactly ``colour``."""
    patch = image[rect.top : rect.bottom, rect.left : rect.right]
    return float(np.all(patch == np.array(colour, np.uint8), axis=2).mean())


def _transcript(game: str, seed: int, turns: int | None) -> str:
    return rules_for(game).random_transcript(seed, 2, turns)


@pytest.mark.parametrize("size", SIZES)
def test_yushino_map_shows_premiums_tiles_and_the_last_play(tmp_path: Path, size: tuple[int, int]) -> None:
    text = _transcript("Yushino", 5, 12)
    game_map, _ = read_game(text)
    assert isinstance(game_map, YushinoMap)
    image, kiosk = _shot(tmp_path, "yushino", size, text)
    assert kiosk.map_rect is not None
    tiles = dict(game_map.tiles)
    assert 10 <= len(tiles) < 225 and game_map.last_turn <= set(tiles)
    for square, kind in game_map.premiums:
        box = game_map.square_rect(kiosk.map_rect, square).inflate(-4, -4)
        if square in tiles:  # a tile covers the premium: white with its dark digit
            assert _share(image, box, THEME.square_tile) > 0.3, square
            assert _share(image, box, PREMIUM_RGB[kind]) == 0.0, square
            assert (image[box.top : box.bottom, box.left : box.right].max(axis=2) < 90).any(), square
        else:  # its colour under its label
            assert _share(image, box, PREMIUM_RGB[kind]) > 0.4, (square, kind)
    covered = {s for s, _ in game_map.premiums} | set(tiles)
    plain = [s for s in ALL_SQUARES if s not in covered]
    for square in plain:
        assert _share(image, game_map.square_rect(kiosk.map_rect, square).inflate(-4, -4), THEME.square) > 0.9
    for square in game_map.last_turn:
        box = game_map.square_rect(kiosk.map_rect, square)
        assert _share(image, box, THEME.last_turn) > 0.1, square


@pytest.mark.parametrize("size", SIZES)
def test_super_wild_map_outlines_sets_and_runs_around_their_tiles(tmp_path: Path, size: tuple[int, int]
                                                                  ) -> None:
    text = _transcript("Super Wild", 5, None)
    game_map, _ = read_game(text)
    assert isinstance(game_map, SuperWildMap)
    assert {g.kind for g in game_map.groups} == {SET, RUN}
    image, kiosk = _shot(tmp_path, "superwild", size, text)
    assert kiosk.map_rect is not None
    wild = next(p for p, t in game_map.tiles if t.is_wild)
    box = game_map.cell_rect(kiosk.map_rect, wild)
    assert _share(image, box, THEME.wild_tile) > 0.3
    assert _share(image, box, (255, 255, 255)) > 0.0  # the white W
    plain = next(p for p, t in game_map.tiles if not t.is_wild)
    assert _share(image, game_map.cell_rect(kiosk.map_rect, plain), THEME.table_tile) > 0.3
    for group in game_map.groups:
        cells = [game_map.cell_rect(kiosk.map_rect, p) for p in group.positions]
        outline = cells[0].unionall(cells[1:]).inflate(cells[0].width // 3, cells[0].width // 3)
        colour = THEME.run_group if group.kind == RUN else THEME.set_group
        assert _share(image, outline, colour) > 0.01, group
    # a group's colour stays on its outline: none inside a tile's middle
    for pos, _ in game_map.tiles:
        middle = game_map.cell_rect(kiosk.map_rect, pos).inflate(-kiosk.map_rect.width // 60, 0)
        middle = middle.inflate(0, -middle.height // 2)
        assert _share(image, middle, THEME.set_group) < 0.05


@pytest.mark.parametrize("size", SIZES)
def test_holominoes_map_scores_holes_and_crosses_blocked_points(tmp_path: Path, size: tuple[int, int]
                                                                ) -> None:
    text = _transcript("Holominoes", 5, 30)  # before the end: the standings would cover the map
    game_map, replay = read_game(text)
    assert isinstance(game_map, HolominoesMap)
    closed = [h for t in replay.turns if t.legal for h in t.details.get("holes", ())]
    assert len(game_map.holes) == len(closed) > 0 and game_map.blocked
    image, kiosk = _shot(tmp_path, "holominoes", size, text)
    rect = kiosk.map_rect
    assert rect is not None
    radius, _ = game_map.fit(rect)
    for hole in game_map.holes:
        x, y = game_map.hole_centre(rect, hole)
        r = int(BITE * radius)
        disc = pygame.Rect(int(x) - r, int(y) - r, 2 * r, 2 * r)
        patch = image[disc.top : disc.bottom, disc.left : disc.right]
        assert _share(image, disc, THEME.hole) > 0.2, hole
        ink = patch.max(axis=2) < 80  # the score's dark digits on the white disc
        assert ink.sum() >= 4, hole
    for cell in game_map.blocked:
        cx, cy = game_map.pixel(rect, centre_xy(cell.key))
        d = radius * 0.4
        assert tuple(image[int(cy + radius * 0.5), int(cx)]) == THEME.blocked, cell
        near = pygame.Rect(int(cx - d / 2) - 2, int(cy - d / 2) - 2, 5, 5)  # on the cross's stroke
        assert _share(image, near, THEME.blocked_mark) > 0.0, cell
    for cell, _ in game_map.tiles:
        cx, cy = game_map.pixel(rect, centre_xy(cell.key))
        assert tuple(image[int(cy), int(cx)]) == THEME.tile, cell


def test_yushino_game_over_names_the_engines_winner_of_a_tie(tmp_path: Path) -> None:
    view = view_of(TIED_YUSHINO)
    assert view.is_over and [p.score for p in view.players] == [6, 6]
    assert (view.winner, view.tie_break) == ("Bo", "later in turn order")
    with Kiosk((800, 480), screenshots=tmp_path, sound=False) as kiosk:
        kiosk.show(view)
        image = pygame.surfarray.array3d(pygame.image.load(str(kiosk.saved[-1]))).transpose(1, 0, 2)
    # the standings' rows: Bo's first, the winner's light card, then Ana's dark one (a plain tie would
    # light both, Ana first)
    rows: list[tuple[int, tuple[int, ...]]] = []
    for y in range(image.shape[0]):
        colour = tuple(image[y, 30])
        if colour in (THEME.current, THEME.card) and (not rows or rows[-1][1] != colour):
            rows.append((y, colour))
    assert [c for _, c in rows[:2]] == [THEME.current, THEME.card]


def test_replay_saves_a_screenshot_per_position_and_refuses_modlinseq(tmp_path: Path, capsys) -> None:
    text = _transcript("Holominoes", 3, 6)
    path = tmp_path / "holo.txt"
    path.write_text(text, encoding="utf-8")
    shots = tmp_path / "shots"
    assert replay_main([str(path), "--pause", "0", "--screenshots", str(shots)]) == 0
    assert len(list(shots.glob("*.png"))) == len(replay_views(text)) == 7
    bad = tmp_path / "m.txt"
    bad.write_text('[Game "MODLINSEQ"]\n', encoding="utf-8")
    assert replay_main([str(bad), "--pause", "0"]) == 2
    assert "m.txt: MODLINSEQ: its map is the hex board" in capsys.readouterr().err


def test_replay_names_a_bad_size_in_one_line(tmp_path: Path, capsys) -> None:
    path = tmp_path / "y.txt"
    path.write_text(TIED_YUSHINO, encoding="utf-8")
    with pytest.raises(SystemExit):
        replay_main([str(path), "--size", "big"])
    assert "argument --size: 'big' is not WIDTHxHEIGHT" in capsys.readouterr().err
    assert replay_main([str(path), "--size", "640x480", "--pause", "0"]) == 2
    assert "kiosk size 640x480 outside 800x480 .. 1920x1080" in capsys.readouterr().err


def _drawn(tmp_path: Path, name: str, game_map, size: tuple[int, int]) -> tuple[np.ndarray, pygame.Rect]:
    """``game_map`` drawn on a kiosk-sized screen, saved as a PNG screenshot and read back (RGB H x W x 3)."""
    pygame.init()
    screen = pygame.Surface(size)
    screen.fill(THEME.background)
    rect = pygame.Rect(0, 0, size[0], size[1]).inflate(-size[0] // 20, -size[1] // 20)
    game_map.draw(screen, rect, THEME)
    path = tmp_path / f"{name}_{size[0]}x{size[1]}.png"
    pygame.image.save(screen, str(path))
    return pygame.surfarray.array3d(pygame.image.load(str(path))).transpose(1, 0, 2), rect


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("illegal", [False, True])
def test_yushino_map_draws_the_turn_in_progress(tmp_path: Path, size: tuple[int, int], illegal: bool) -> None:
    text = _transcript("Yushino", 5, 12)
    committed, _ = read_game(text)
    assert isinstance(committed, YushinoMap)
    empty = [s for s in ALL_SQUARES if s not in dict(committed.tiles)]
    pending = [f"7{empty[0]}", f"#{empty[1]}", f"#=3{empty[2]}"]
    game_map, _ = read_game(text, pending, illegal)
    assert isinstance(game_map, YushinoMap)
    assert game_map.tiles == committed.tiles and game_map.last_turn == committed.last_turn
    image, rect = _drawn(tmp_path, f"yushino_{illegal}", game_map, size)
    shown, other = (THEME.illegal, THEME.provisional) if illegal else (THEME.provisional, THEME.illegal)
    for square in empty[:3]:
        box = game_map.square_rect(rect, square)
        assert _share(image, box, shown) > 0.2, square  # the thick outline
        assert _share(image, box, other) == 0.0, square
        inner = box.inflate(-box.width // 2, -box.height // 2)
        assert (image[inner.top : inner.bottom, inner.left : inner.right].max(axis=2) < 90).any()  # its digit
    for square in committed.last_turn:  # the last committed play keeps its outline
        assert _share(image, game_map.square_rect(rect, square), THEME.last_turn) > 0.1, square
    assert _share(image, game_map.square_rect(rect, empty[3]), shown) == 0.0
    for bad in ("7H", "#Q"):
        with pytest.raises(ValueError, match=f"'{bad}'"):
            read_game(text, [bad])


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("illegal", [False, True])
def test_super_wild_map_draws_moved_tiles_at_their_new_place_with_the_old_one_marked(
        tmp_path: Path, size: tuple[int, int], illegal: bool) -> None:
    text = _transcript("Super Wild", 5, None)
    committed, _ = read_game(text)
    assert isinstance(committed, SuperWildMap) and committed.last_turn
    tiles = dict(committed.tiles)
    old, tile = next((p, t) for p, t in committed.tiles if not t.is_wild)
    xs, ys = [p.x for p in tiles], [p.y for p in tiles]
    new = Pos(max(xs) + 1, min(ys))
    laid = Pos(min(xs) - 1, max(ys))
    pending = [f"{tile}@{old.x},{old.y}>{new.x},{new.y}", f"K3@{laid.x},{laid.y}", "draw"]
    game_map, _ = read_game(text, pending, illegal)
    assert isinstance(game_map, SuperWildMap)
    moved = dict(game_map.tiles)
    assert old not in moved and moved[new] == tile and moved[laid] == Tile("K", 3)
    assert game_map.pending == {new, laid} and game_map.vacated == (old,)
    image, rect = _drawn(tmp_path, f"superwild_{illegal}", game_map, size)
    shown, other = (THEME.illegal, THEME.provisional) if illegal else (THEME.provisional, THEME.illegal)
    for pos in (new, laid):
        box = game_map.cell_rect(rect, pos)
        assert _share(image, box, shown) > 0.15, pos  # the thick outline
        assert _share(image, box, THEME.table_tile) > 0.05, pos  # the tile inside it
        assert _share(image, box, other) == 0.0, pos
    box = game_map.cell_rect(rect, old)
    assert 0.0 < _share(image, box, shown) < 0.3  # the old place's thin outline
    assert _share(image, box, THEME.table_tile) == 0.0  # and nothing in it
    for pos in committed.last_turn - {old}:
        assert _share(image, game_map.cell_rect(rect, pos), THEME.last_turn) > 0.05, pos


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("illegal", [False, True])
def test_holominoes_map_draws_the_turn_in_progress(tmp_path: Path, size: tuple[int, int], illegal: bool
                                                   ) -> None:
    text = _transcript("Holominoes", 5, 30)
    committed, _ = read_game(text)
    assert isinstance(committed, HolominoesMap)
    taken = {c for c, _ in committed.tiles} | set(committed.blocked)
    q = max(c.q for c in taken) + 1
    game_map, _ = read_game(text, [f"146@{q},0/SW"], illegal)
    assert isinstance(game_map, HolominoesMap) and game_map.tiles == committed.tiles
    image, rect = _drawn(tmp_path, f"holominoes_{illegal}", game_map, size)
    (cell, numbers), = game_map.pending
    assert numbers == (6, 1, 4)
    radius, _ = game_map.fit(rect)
    cx, cy = game_map.pixel(rect, centre_xy(cell.key))
    box = pygame.Rect(int(cx - radius), int(cy - radius), int(2 * radius), int(2 * radius))
    shown, other = (THEME.illegal, THEME.provisional) if illegal else (THEME.provisional, THEME.illegal)
    assert _share(image, box, shown) > 0.1 and _share(image, box, other) == 0.0
    assert tuple(image[int(cy), int(cx)]) == THEME.tile
    if committed.last is not None:  # the last committed tile keeps its outline
        lx, ly = game_map.pixel(rect, centre_xy(committed.last.key))
        near = pygame.Rect(int(lx - radius), int(ly - radius), int(2 * radius), int(2 * radius))
        assert _share(image, near, THEME.last_turn) > 0.02


def test_a_map_without_a_turn_in_progress_is_the_committed_map() -> None:
    for game in ("Yushino", "Super Wild", "Holominoes"):
        text = _transcript(game, 4, 8)
        assert read_game(text)[0] == read_game(text, (), False)[0]
