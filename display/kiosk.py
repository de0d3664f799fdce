"""The pygame kiosk: a full-screen window (800x480 touch screen up to 1920x1080) beside the board.

Left: the board map (display.board_map), or the game's own map (display.maps) when the view
carries one. Right, during play: the state banner in words, whose
turn, the score cards, the turn in progress, alerts and touch buttons (display.scoreboard). A tap
on a cell opens the keypad to correct it (display.keypad); a tap on a tile of a game's map opens it
with that game's faces (display.tile_keypad); once the game has ended the final
standings take the screen until a tap or key (display.game_over). Input (keys, USB keypad, touch,
mouse) comes back from :meth:`Kiosk.poll` as :class:`KioskAction` values; the kiosk itself keeps
only the cell or tile picked for a correction and the face picked so far.

Runs headless with ``SDL_VIDEODRIVER=dummy``; with a screenshot folder it saves a PNG of every
change (``00000.png``, ``00001.png``, ...).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import numpy as np
import pygame

from calibration.layout import Layout
from display.board_map import draw_board, fit_layout
from display.game_over import StandingsButtons, draw_standings
from display.keypad import MIN_KEY_PX, Key, KeyCommand, KeypadText, draw_keypad, keypad_keys
from display.scoreboard import draw_panel
from display.theme import Theme
from display.tile_keypad import HolominoesKeypad, ReturnPick, TilePick
from display.view import AlertLevel, KioskView
from engine.hexgrid import Hex, format_address

log = logging.getLogger(__name__)


class ActionKind(Enum):
    """What a key press or touch asks of the session."""

    END_TURN = "end turn"
    UNDO = "undo"
    PASS = "pass"
    FREEZE = "freeze"
    END_GAME = "end game"
    CORRECT = "correct"
    CORRECT_TILE = "correct tile"
    ADD_TILE = "add tile"
    REMATCH = "rematch"
    NEW_GAME = "new game"
    QUIT = "quit"


@dataclass(frozen=True, slots=True)
class KioskAction:
    """One request from the players.

    Attributes:
        kind: what is asked.
        cell: for CORRECT, the cell whose reading is corrected.
        face: for CORRECT, the true face (``"7"``, ``"#"``) or ``""`` for an empty cell; for
            CORRECT_TILE, the true placement where the game's map shows ``tile`` (``"R7@3,0"``) or
            ``""`` for no tile; for ADD_TILE, a tile the camera does not see, laid where the map
            shows none (``"R7@3,1"``); for PASS, the pool tile a Holominoes pass returns (``"456"``).
        tile: for CORRECT_TILE, the tile tapped on a game's map, a placement in the transcript's
            frame (``"R1@3,0"``).
    """

    kind: ActionKind
    cell: Hex | None = None
    face: str | None = None
    tile: str | None = None

    def __post_init__(self) -> None:
        if (self.kind is ActionKind.CORRECT) != (self.cell is not None and self.face is not None):
            raise ValueError(f"{self.kind.value}: a correction needs a cell and a face, others neither")
        if (self.kind is ActionKind.CORRECT_TILE) != (self.tile is not None and self.face is not None):
            raise ValueError(f"{self.kind.value}: a tile's correction needs the tile and the true one")
        if self.kind is ActionKind.ADD_TILE and not self.face:
            raise ValueError(f"{self.kind.value}: needs the tile added")


#: Touch buttons during play, in two rows.
_BUTTONS: tuple[tuple[tuple[str, ActionKind], ...], ...] = (
    (("End turn", ActionKind.END_TURN), ("Undo", ActionKind.UNDO)),
    (("Pass", ActionKind.PASS), ("Freeze", ActionKind.FREEZE), ("End game", ActionKind.END_GAME)),
)

_KEYS: dict[str, ActionKind] = {
    "u": ActionKind.UNDO,
    "p": ActionKind.PASS,
    "f": ActionKind.FREEZE,
    "e": ActionKind.END_GAME,
    "q": ActionKind.QUIT,
}

_KEYPAD_ACTIONS = {KeyCommand.UNDO: ActionKind.UNDO}


class Kiosk:
    """The kiosk window.

    Args:
        size: window size in pixels (width, height), from 800x480 to 1920x1080.
        fullscreen: open a full-screen window (the Pi kiosk) instead of a normal one.
        screenshots: folder for a PNG of every change, or None.
        sound: beep when an ERROR alert appears.

    Raises:
        ValueError: ``size`` is outside 800x480 .. 1920x1080 (checked on construction).
    """

    def __init__(self, size: tuple[int, int] = (800, 480), fullscreen: bool = False,
                 screenshots: Path | None = None, sound: bool = True) -> None:
        if not (800 <= size[0] <= 1920 and 480 <= size[1] <= 1080):
            raise ValueError(f"kiosk size {size[0]}x{size[1]} outside 800x480 .. 1920x1080")
        self.size = size
        self.fullscreen = fullscreen
        self.screenshots = screenshots
        self.theme = Theme()
        self.scale = size[1] / 480
        self.saved: list[Path] = []
        self._want_sound = sound
        self._beep: pygame.mixer.Sound | None = None
        self._screen: pygame.Surface | None = None
        #: where the board map is drawn (pixels <-> cells), once shown
        self.layout: Layout | None = None
        #: where another game's map (display.maps) is drawn, once shown
        self.map_rect: pygame.Rect | None = None
        #: what a touch can hit now: the play buttons, the keypad, the standings' buttons
        self.buttons: list[tuple[pygame.Rect, ActionKind]] = []
        self.keys: list[Key] = []
        self.standings: StandingsButtons | None = None
        #: what the screen shows: the view, the picks and the flash phase
        self._last: tuple[KioskView, Hex | None, str | None, TilePick | None, ReturnPick | None, bool] | None
        self._last = None
        self._view: KioskView | None = None
        #: the cell picked for a correction, and its face picked so far ("" empty; None not yet)
        self.selected: Hex | None = None
        self.typed: str | None = None
        #: the tile picked on a game's map for a correction, with its faces picked so far
        self.tile: TilePick | None = None
        #: the tile a pass returns (Holominoes), picked so far
        self.returning: ReturnPick | None = None

    # -- window -----------------------------------------------------------------------------
    def open(self) -> None:
        """Open the window (and the mixer for the alert sound). Idempotent."""
        if self._screen is not None:
            return
        pygame.display.init()
        pygame.font.init()
        flags = pygame.FULLSCREEN if self.fullscreen else 0
        self._screen = pygame.display.set_mode(self.size, flags)
        pygame.display.set_caption("tilescribe")
        if self.screenshots is not None:
            self.screenshots.mkdir(parents=True, exist_ok=True)
        if self._want_sound:
            self._beep = _make_beep()

    def close(self) -> None:
        """Close the window."""
        if self._screen is not None:
            pygame.display.quit()
            self._screen = None

    def __enter__(self) -> Kiosk:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- drawing ----------------------------------------------------------------------------
    def show(self, view: KioskView) -> bool:
        """Draw ``view`` if anything changed (or its illegal cells flash: 400 ms on, 400 ms dim); save a
        screenshot then.

        Returns:
            True when the screen was redrawn.
        """
        self.open()
        flashing = bool(view.illegal) and not view.is_over and self.screenshots is None
        # the clock of the process: pygame's ticks stay 0 without pygame.init(), which the kiosk leaves out
        flash_on = not flashing or int(time.monotonic() / 0.4) % 2 == 0
        if view.is_over:
            self._drop_pick()
        key = (view, self.selected, self.typed, self.tile, self.returning, flash_on)
        if key == self._last:
            return False
        if (self._beep is not None and view.alert_level is AlertLevel.ERROR and view.alert
                and (self._view is None or self._view.alert != view.alert)):
            self._beep.play()
        self._last, self._view = key, view
        screen = self._surface()
        self.buttons, self.keys, self.standings = [], [], None
        if view.is_over:
            self.standings = draw_standings(screen, self.theme, view, self.scale)
        else:
            self._draw_play(screen, view, flash_on)
        pygame.display.flip()
        if self.screenshots is not None:
            self.save(self.screenshots / f"{len(self.saved):05d}.png")
        return True

    def save(self, path: Path) -> Path:
        """Save what the screen shows now as a PNG."""
        pygame.image.save(self._surface(), str(path))
        self.saved.append(path)
        return path

    def _surface(self) -> pygame.Surface:
        if self._screen is None:
            raise RuntimeError("kiosk window is not open")
        return self._screen

    def _draw_play(self, screen: pygame.Surface, view: KioskView, flash_on: bool) -> None:
        t, s = self.theme, self.scale
        screen.fill(t.background)
        w, h = self.size
        board_side = min(h, int(w * 0.6))
        board_rect = pygame.Rect(0, 0, board_side, h).inflate(-board_side // 30, -h // 30)
        corner = t.font(int(15 * s))
        if view.game_map is not None:
            self.layout = None  # no hex cells: a tile is picked on the game's map
            self.map_rect = board_rect.inflate(0, -2 * corner.get_linesize())
            view.game_map.draw(screen, self.map_rect, t)
            if self.tile is not None:  # the tile (or empty place) picked for a correction
                outline = view.game_map.outline(self.map_rect, self.tile.place)
                pygame.draw.polygon(screen, t.selected, outline, max(3, int(4 * s)))
        else:
            self.layout = fit_layout(view.cells, board_rect)
            draw_board(screen, dataclasses.replace(view, selected=self.selected), self.layout, t, flash_on)
        screen.blit(corner.render(view.title, True, t.muted), (int(4 * s), int(2 * s)))
        camera = corner.render(f"camera: {view.camera.value}", True, t.muted)
        screen.blit(camera, camera.get_rect(bottomleft=(int(4 * s), h - int(2 * s))))
        panel = pygame.Rect(board_side, 0, w - board_side, h)
        pick = self.returning or self.tile
        if pick is not None:
            keys = keypad_keys(pick.keypad.groups, panel, s)
            removes = isinstance(pick, TilePick) and bool(pick.shown)  # not a pass's tile, nor one added
            self.keys = [k for k in keys if removes or k.command is not KeyCommand.REMOVE]
            draw_keypad(screen, t, self.keys, panel, pick.text(), s)
            return
        if self.selected is not None:
            self.keys = keypad_keys((view.faces,), panel, s)
            now = view.restore.get(self.selected) or view.tiles.get(self.selected) \
                or view.provisional.get(self.selected, "")
            typed = self.typed
            lit = frozenset({(0, typed)}) if typed else frozenset()
            chosen = "?" if typed is None else typed or "empty"
            words = KeypadText(f"Correct {format_address(self.selected)}", now or "empty", chosen, lit,
                               typed == "", typed is not None)
            draw_keypad(screen, t, self.keys, panel, words, s)
            return
        layout = self._button_layout(panel, view)
        draw_panel(screen, t, view, panel, min(r.top for r, _, _ in layout) - int(4 * s), s)
        for button, label, kind in layout:
            pygame.draw.rect(screen, t.button, button, border_radius=int(6 * s))
            font = t.fitting(label, button.width - 8, int(22 * s), bold=True)
            text = font.render(label, True, t.button_text)
            screen.blit(text, text.get_rect(center=button.center))
            self.buttons.append((button, kind))

    def _button_layout(self, rect: pygame.Rect,
                       view: KioskView) -> list[tuple[pygame.Rect, str, ActionKind]]:
        """The play buttons at the bottom of ``rect`` (at least 9 mm on the 7-inch panel): the game's
        name for a turn with nothing laid, Freeze only where the game has it."""
        gap = max(4, int(6 * self.scale))
        height = max(MIN_KEY_PX, int(50 * self.scale))
        top = rect.bottom - len(_BUTTONS) * (height + gap)
        out = []
        for i, full_row in enumerate(_BUTTONS):
            row = [(view.pass_label if kind is ActionKind.PASS else label, kind) for label, kind in full_row
                   if view.can_freeze or kind is not ActionKind.FREEZE]
            width = (rect.width - gap * (len(row) + 1)) // len(row)
            for j, (label, kind) in enumerate(row):
                left = rect.x + gap + j * (width + gap)
                out.append((pygame.Rect(left, top + i * (height + gap), width, height), label, kind))
        return out

    # -- input ------------------------------------------------------------------------------
    def poll(self) -> list[KioskAction]:
        """Drain pygame's events; the players' requests, in order."""
        self.open()
        return [a for event in pygame.event.get() if (a := self.handle(event)) is not None]

    def handle(self, event: pygame.event.Event) -> KioskAction | None:
        """Turn one pygame event into a request (None when it asks nothing of the session).

        Keys: Enter / keypad Enter / space end the turn (or confirm a correction); u or Backspace
        undo; p pass (where the pass returns a tile, it opens the keypad to pick it: OK or Enter
        then passes); f freeze; e end the game; Tab picks the next occupied cell to correct and
        digits or # type its face; Escape drops the pick (or quits when nothing is picked); q quits.
        A touch or left click on a cell, or on a tile of a game's map (GameMap.tile_at), picks it and
        opens the keypad (Enter then sends a tile's correction once its picks make a tile); on an
        empty place of a game's map (GameMap.place_at), the keypad picks a tile the camera does not
        see there (sent as ADD_TILE); on a button presses it. On the
        final standings: r or Rematch, n or New game; any other key or tap closes.
        """
        if event.type == pygame.QUIT:
            return KioskAction(ActionKind.QUIT)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and not getattr(event, "touch", False):
            return self._touch(*event.pos)  # a finger's own mouse twin is left out: one tap, one action
        if event.type == pygame.FINGERDOWN:
            return self._touch(event.x * self.size[0], event.y * self.size[1])
        if event.type != pygame.KEYDOWN:
            return None
        if self.standings is not None:
            return KioskAction({"r": ActionKind.REMATCH, "n": ActionKind.NEW_GAME}.get(
                (event.unicode or "").lower(), ActionKind.QUIT))
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            if self._picking:
                return self._correction(self.typed or "")
            return KioskAction(ActionKind.END_TURN)
        if event.key == pygame.K_TAB:
            self._pick_next()
            return None
        if event.key == pygame.K_ESCAPE:
            if not self._picking:
                return KioskAction(ActionKind.QUIT)
            self._drop_pick()
            return None
        if self.tile is not None or self.returning is not None:
            return None
        if self.selected is not None:
            if event.key == pygame.K_BACKSPACE:
                self.typed = (self.typed or "")[:-1]
            elif event.unicode and (event.unicode.isdigit() or event.unicode == "#"):
                self.typed = (self.typed or "") + event.unicode
            return None
        if event.key == pygame.K_BACKSPACE:
            return KioskAction(ActionKind.UNDO)
        kind = _KEYS.get(event.unicode.lower()) if event.unicode else None
        return self._button(kind) if kind else None

    def _button(self, kind: ActionKind) -> KioskAction | None:
        """A play button (or its key): Pass, where the pass returns a tile, opens the keypad to pick it."""
        view = self._view
        if kind is ActionKind.PASS and view is not None and view.pass_returns_tile and view.game_map:
            keypad = view.game_map.keypad()
            if isinstance(keypad, HolominoesKeypad):
                self.returning = ReturnPick.of(keypad)
                return None
        return KioskAction(kind)

    def _correction(self, face: str) -> KioskAction | None:
        """The correction picked (a tile's once its picks make a tile), or the pass once its tile
        is picked; the pick is dropped."""
        if self.returning is not None:
            if self.returning.tile is None:
                return None
            action = KioskAction(ActionKind.PASS, face=self.returning.tile)
        elif self.tile is not None:
            true = self.tile.true
            if true is None:
                return None
            action = (KioskAction(ActionKind.CORRECT_TILE, face=true, tile=self.tile.shown) if self.tile.shown
                      else KioskAction(ActionKind.ADD_TILE, face=true))
        else:
            action = KioskAction(ActionKind.CORRECT, self.selected, face)
        self._drop_pick()
        return action

    @property
    def _picking(self) -> bool:
        """A cell, a tile or a pass's tile is being picked on the keypad."""
        return self.selected is not None or self.tile is not None or self.returning is not None

    def _drop_pick(self) -> None:
        self.selected, self.typed, self.tile, self.returning = None, None, None, None

    def _touch(self, x: float, y: float) -> KioskAction | None:
        if self.standings is not None:
            if self.standings.rematch.collidepoint(x, y):
                return KioskAction(ActionKind.REMATCH)
            if self.standings.new_game.collidepoint(x, y):
                return KioskAction(ActionKind.NEW_GAME)
            return KioskAction(ActionKind.QUIT)
        # the keypad answers while a cell or tile is picked, the play buttons while none is: a pick
        # made or dropped since the last drawing leaves the other's rectangles behind until the next one
        if self._picking:
            for key in self.keys:
                if key.rect.collidepoint(x, y):
                    return self._press(key)
            if self.returning is not None:
                return None
        else:
            for rect, kind in self.buttons:
                if rect.collidepoint(x, y):
                    return self._button(kind)
        view = self._view
        if self.layout is not None and view is not None:
            cell = self.layout.pixel_to_hex(x, y)
            if cell in view.cells:
                self.selected, self.typed = (None if cell == self.selected else cell), None
        elif view is not None and view.game_map is not None and self.map_rect is not None \
                and self.map_rect.collidepoint(x, y):
            game_map, at = view.game_map, (x, y)
            shown = game_map.tile_at(self.map_rect, at)
            place = game_map.place_at(self.map_rect, at) if shown is None else None
            pick = (TilePick.of(shown, game_map.keypad()) if shown is not None
                    else TilePick.on(place, game_map.keypad()) if place is not None else None)
            if pick is not None:
                again = self.tile is not None and self.tile.place == pick.place
                self.tile = None if again else pick
        return None

    def _press(self, key: Key) -> KioskAction | None:
        """A keypad key: pick a face (a tile's faces group by group) or Remove, then OK sends the
        correction; Cancel drops it."""
        tile, returning = self.tile, self.returning
        if key.command is KeyCommand.FACE:
            if returning is not None:
                self.returning = returning.pressed(key.group, key.face)
            elif tile is not None:
                self.tile = tile.pressed(key.group, key.face)
            else:
                self.typed = key.face
        elif key.command is KeyCommand.REMOVE:
            self.typed, self.tile = "", None if tile is None else tile.removed()
        elif key.command is KeyCommand.CONFIRM:
            if self.typed is None and tile is None and returning is None:
                return None
            return self._correction(self.typed or "")
        else:
            self._drop_pick()
            return KioskAction(_KEYPAD_ACTIONS[key.command]) if key.command in _KEYPAD_ACTIONS else None
        return None

    def _pick_next(self) -> None:
        if self._view is None:
            return
        occupied = sorted({*self._view.tiles, *self._view.provisional, *self._view.restore})
        if not occupied:
            return
        after = [c for c in occupied if self.selected is not None and c > self.selected]
        self.selected, self.typed = (after[0] if after else occupied[0]), None


def _make_beep() -> pygame.mixer.Sound | None:
    """A short 880 Hz tone, or None when there is no audio device."""
    try:
        pygame.mixer.init(frequency=22050, size=-16, channels=1)
        mixer = pygame.mixer.get_init()
        if mixer is None:
            return None
        rate, _, channels = mixer
        t = np.arange(int(rate * 0.25)) / rate
        wave = (0.4 * 32767 * np.sin(2 * np.pi * 880 * t)).astype(np.int16)
        samples = wave if channels == 1 else np.repeat(wave[:, None], channels, axis=1)
        return pygame.sndarray.make_sound(np.ascontiguousarray(samples))
    except pygame.error as exc:
        log.warning("no alert sound: %s", exc)
        return None
