"""The kiosk on the real pygame display (dummy driver): screenshots, board map, input."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import cv2
import numpy as np
import pygame
import pytest

from display.board_map import draw_board, fit_layout
from display.kiosk import ActionKind, Kiosk
from display.theme import Theme
from display.view import AlertLevel, CameraState, HistoryLine, KioskView, PlayerLine
from engine.hexgrid import Board, parse_address

A = parse_address


def _view() -> KioskView:
    tiles = {A(a): v for a, v in {"B2": "4", "B1": "6", "A0": "1", "M1": "3", "E1": "8"}.items()}
    return KioskView(
        cells=Board.hexagon(9).cells,
        tiles=tiles,
        provisional={A("M2"): "5", A("M3"): "9"},
        last_turn=frozenset({A("E1")}),
        blocked=frozenset({A("H1")}),
        illegal=frozenset({A("M3")}),
        players=(PlayerLine("Alice", 12, is_current=True), PlayerLine("Bob", 7)),
        history=(HistoryLine(1, "Alice", "4B2 ~ 6B1 ~ 1A0 ~ 3M1", 3), HistoryLine(2, "Bob", "8E1", 0)),
        camera=CameraState.LOCKED,
        alert="M3: 3 ~ 5 ~ 9 is not modular-linear (§2-2)",
        alert_level=AlertLevel.ERROR,
        title="MODLINSEQ M13, turn 3",
    )


def _pixel(path: Path, xy: tuple[float, float]) -> tuple[int, int, int]:
    image = pygame.image.load(str(path))
    return tuple(image.get_at((int(xy[0]), int(xy[1]))))[:3]  # type: ignore[return-value]


def _count(pixels: np.ndarray, colour: tuple[int, int, int]) -> int:
    """How many pixels of ``pixels`` (W x H x 3) are exactly ``colour``."""
    return int(np.all(pixels == np.array(colour, np.uint8), axis=2).sum())


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_screenshot_shows_board_scores_and_illegal_flag(tmp_path: Path, size: tuple[int, int]) -> None:
    kiosk = Kiosk(size, screenshots=tmp_path, sound=False)
    view = _view()
    try:
        assert kiosk.show(view)
        assert not kiosk.show(view)  # nothing changed: no redraw, no new screenshot
        assert kiosk.show(dataclasses.replace(view, camera=CameraState.HAND))
    finally:
        kiosk.close()
    assert [p.name for p in kiosk.saved] == ["00000.png", "00001.png"]
    shot = kiosk.saved[0]
    assert pygame.image.load(str(shot)).get_size() == size
    theme = kiosk.theme
    board_side = min(size[1], int(size[0] * 0.6))
    layout = fit_layout(view.cells, pygame.Rect(0, 0, board_side, size[1]).inflate(-board_side // 30,
                                                                                          -size[1] // 30))

    def fill(address: str) -> tuple[int, int, int]:  # left of the label, inside the hexagon
        x, y = layout.hex_to_pixel(A(address))
        return _pixel(shot, (x - layout.size * 0.6, y))

    assert fill("M3") == theme.illegal
    assert fill("M2") == theme.provisional
    assert fill("B1") == theme.tile
    assert fill("T5") == theme.cell
    assert fill("H1") == theme.blocked
    # the panel carries text in the scoreboard rows (bright pixels on the panel colour)
    image = pygame.image.load(str(shot))
    panel = pygame.surfarray.array3d(image)[board_side:]
    assert _count(panel, theme.error) > 20  # the alert in red
    assert _count(panel, theme.text) > 20


def test_keys_touch_and_correction(tmp_path: Path) -> None:
    kiosk = Kiosk((800, 480), sound=False)
    try:
        kiosk.show(_view())

        def key(k: int, u: str = "") -> pygame.event.Event:
            return pygame.event.Event(pygame.KEYDOWN, key=k, unicode=u, mod=0)

        assert kiosk.handle(key(pygame.K_RETURN)).kind is ActionKind.END_TURN  # type: ignore[union-attr]
        assert kiosk.handle(key(pygame.K_KP_ENTER)).kind is ActionKind.END_TURN  # type: ignore[union-attr]
        assert kiosk.handle(key(pygame.K_u, "u")).kind is ActionKind.UNDO  # type: ignore[union-attr]
        assert kiosk.handle(key(pygame.K_p, "p")).kind is ActionKind.PASS  # type: ignore[union-attr]
        # touch a cell, type 1 2, Enter: a correction of that cell
        layout = fit_layout(_view().cells, pygame.Rect(0, 0, 480, 480).inflate(-16, -16))
        x, y = layout.hex_to_pixel(A("E1"))
        touch = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(int(x), int(y)), button=1)
        assert kiosk.handle(touch) is None
        assert kiosk.selected == A("E1")
        kiosk.show(_view())  # the keypad: keys typed on a keyboard still go to the picked cell
        kiosk.handle(key(pygame.K_1, "1"))
        kiosk.handle(key(pygame.K_2, "2"))
        action = kiosk.handle(key(pygame.K_RETURN))
        assert action is not None and action.kind is ActionKind.CORRECT
        assert (action.cell, action.face) == (A("E1"), "12") and kiosk.selected is None
        # Tab picks occupied cells in order for keypad-only corrections
        kiosk.handle(key(pygame.K_TAB))
        first = kiosk.selected
        kiosk.handle(key(pygame.K_TAB))
        assert first is not None and kiosk.selected is not None and kiosk.selected > first
        assert kiosk.handle(key(pygame.K_ESCAPE)) is None and kiosk.selected is None
        # the touch buttons
        kiosk.show(dataclasses.replace(_view(), alert=""))
        undo = next(rect for rect, kind in kiosk.buttons if kind is ActionKind.UNDO)
        action = kiosk.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=undo.center, button=1))
        assert action is not None and action.kind is ActionKind.UNDO
    finally:
        kiosk.close()


def test_bad_size_and_bad_view() -> None:
    with pytest.raises(ValueError, match="640x480"):
        Kiosk((640, 480))
    with pytest.raises(ValueError, match="tiles"):
        KioskView(cells=Board.hexagon(1).cells, tiles={A("B9"): "3"})


def test_fit_layout_round_trip() -> None:
    cells = Board.hexagon(9).cells
    layout = fit_layout(cells, pygame.Rect(0, 0, 480, 480))
    for cell in cells:
        assert layout.pixel_to_hex(*layout.hex_to_pixel(cell)) == cell
        xs = [x for x, _ in layout.hex_corners(cell)]
        assert min(xs) >= -0.5 and max(xs) <= 480.5


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_an_uncertain_cell_shows_a_question_mark_apart_from_its_outline(size: tuple[int, int]) -> None:
    pygame.font.init()
    theme = Theme()
    surface = pygame.Surface(size)
    unsure = frozenset({A("B2"), A("P4")})
    view = KioskView(cells=Board.hexagon(6).cells, tiles={A("B2"): "4"}, uncertain=unsure)
    layout = fit_layout(view.cells, surface.get_rect())
    draw_board(surface, view, layout, theme, flash_on=True)
    mark = np.all(pygame.surfarray.array3d(surface) == np.array(theme.uncertain, np.uint8), axis=2)
    for cell in view.uncertain:
        x, y = (int(v) for v in layout.hex_to_pixel(cell))
        r = int(layout.size * 1.3)
        window = np.ascontiguousarray(mark[x - r : x + r, y - r : y + r]).astype(np.uint8)
        parts, _ = cv2.connectedComponents(window, connectivity=8)
        assert parts - 1 >= 3, f"{cell}: outline, hook and dot of the '?' should stand apart, got {parts - 1}"


def test_a_still_view_is_drawn_once_and_illegal_cells_flash() -> None:
    kiosk = Kiosk((800, 480), sound=False)
    still = dataclasses.replace(_view(), illegal=frozenset())
    try:
        assert kiosk.show(still)
        time.sleep(0.41)  # past a flash's half period
        assert not kiosk.show(still)  # nothing flashes: no redraw
        assert kiosk.show(_view())
        redrawn = []
        for _ in range(3):
            time.sleep(0.41)
            redrawn.append(kiosk.show(_view()))
        assert any(redrawn)  # the illegal cells flash
    finally:
        kiosk.close()
