"""The pygame kiosk: a full-screen window (800x480 touch screen up to 1920x1080) beside the board.

Left: the board map (display.board_map). Right: whose turn, the camera state, the scoreboard, the
provisional score of the turn in progress, alerts in words, the turn history, and touch buttons.
Input (keys, USB keypad, touch, mouse) comes back from :meth:`Kiosk.poll` as :class:`KioskAction`
values; the kiosk itself keeps only the cell picked for a correction and the digits typed so far.

Runs headless with ``SDL_VIDEODRIVER=dummy``; with a screenshot folder it saves a PNG of every
change (``00000.png``, ``00001.png``, ...).
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import numpy as np
import pygame

from calibration.layout import Layout
from display.board_map import draw_board, fit_layout
from display.theme import Colour, Theme
from display.view import AlertLevel, CameraState, KioskView
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
    QUIT = "quit"


@dataclass(frozen=True, slots=True)
class KioskAction:
    """One request from the players.

    Attributes:
        kind: what is asked.
        cell: for CORRECT, the cell whose reading is corrected.
        face: for CORRECT, the true face (``"7"``, ``"#"``) or ``""`` for an empty cell.
    """

    kind: ActionKind
    cell: Hex | None = None
    face: str | None = None

    def __post_init__(self) -> None:
        if (self.kind is ActionKind.CORRECT) != (self.cell is not None and self.face is not None):
            raise ValueError(f"{self.kind.value}: a correction needs a cell and a face, others neither")


#: Touch buttons, in the order they are laid out (two rows).
_BUTTONS: tuple[tuple[str, ActionKind], ...] = (
    ("End turn", ActionKind.END_TURN),
    ("Undo", ActionKind.UNDO),
    ("Pass", ActionKind.PASS),
    ("Freeze", ActionKind.FREEZE),
    ("End game", ActionKind.END_GAME),
)

_KEYS: dict[str, ActionKind] = {
    "u": ActionKind.UNDO,
    "p": ActionKind.PASS,
    "f": ActionKind.FREEZE,
    "e": ActionKind.END_GAME,
    "q": ActionKind.QUIT,
}

_CAMERA_COLOURS = {
    CameraState.LOCKED: "ok",
    CameraState.HAND: "warn",
    CameraState.MOVING: "warn",
    CameraState.STARTING: "muted",
    CameraState.LOST: "error",
    CameraState.NO_CAMERA: "error",
}


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
        self.saved: list[Path] = []
        self._want_sound = sound
        self._beep: pygame.mixer.Sound | None = None
        self._screen: pygame.Surface | None = None
        self._layout: Layout | None = None
        self._buttons: list[tuple[pygame.Rect, ActionKind]] = []
        self._last: tuple[KioskView, Hex | None, str, bool] | None = None
        self._view: KioskView | None = None
        self.selected: Hex | None = None
        self.typed = ""

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
        """Draw ``view`` if anything changed (or illegal cells flash); save a screenshot then.

        Returns:
            True when the screen was redrawn.
        """
        self.open()
        flash_on = self.screenshots is not None or (pygame.time.get_ticks() // 400) % 2 == 0
        key = (view, self.selected, self.typed, flash_on)
        if key == self._last:
            return False
        if (self._beep is not None and view.alert_level is AlertLevel.ERROR and view.alert
                and (self._view is None or self._view.alert != view.alert)):
            self._beep.play()
        self._last, self._view = key, view
        screen = self._surface()
        screen.fill(self.theme.background)
        w, h = self.size
        board_side = min(h, int(w * 0.6))
        board_rect = pygame.Rect(0, 0, board_side, h).inflate(-board_side // 30, -h // 30)
        self._layout = fit_layout(view.cells, board_rect)
        shown = dataclasses.replace(view, selected=self.selected)
        draw_board(screen, shown, self._layout, self.theme, flash_on)
        self._draw_panel(screen, view, pygame.Rect(board_side, 0, w - board_side, h))
        pygame.display.flip()
        if self.screenshots is not None:
            path = self.screenshots / f"{len(self.saved):05d}.png"
            pygame.image.save(screen, str(path))
            self.saved.append(path)
        return True

    def _surface(self) -> pygame.Surface:
        if self._screen is None:
            raise RuntimeError("kiosk window is not open")
        return self._screen

    def _draw_panel(self, screen: pygame.Surface, view: KioskView, rect: pygame.Rect) -> None:
        t = self.theme
        pygame.draw.rect(screen, t.panel, rect)
        unit = max(12, rect.height // 26)
        pad = unit // 2
        x, y, width = rect.x + pad, rect.y + pad, rect.width - 2 * pad
        y = self._text(screen, view.title, (x, y), unit * 8 // 10, t.muted)
        current = next((p for p in view.players if p.is_current), None)
        heading = "Game over" if view.is_over else f"{current.name}'s turn" if current else ""
        y = self._text(screen, heading, (x, y), unit * 14 // 10, t.text, bold=True)
        camera_colour: Colour = getattr(t, _CAMERA_COLOURS[view.camera])
        pygame.draw.circle(screen, camera_colour, (x + unit // 3, y + unit // 2), unit // 3)
        y = self._text(screen, view.camera.value, (x + unit, y), unit, camera_colour) + pad // 2
        for player in view.players:
            colour = t.text if player.is_current else t.muted
            name = player.name + (" (frozen)" if player.is_frozen else "")
            if player.is_current:
                pygame.draw.rect(screen, t.button, (x - pad // 2, y, width + pad, unit * 13 // 10))
            self._text(screen, name, (x, y), unit * 11 // 10, colour, bold=player.is_current)
            score = t.font(unit * 11 // 10, bold=True).render(str(player.score), True, colour)
            screen.blit(score, score.get_rect(topright=(x + width, y)))
            y += unit * 13 // 10
        y += pad // 2
        if view.provisional_points is not None:
            y = self._text(screen, f"This turn: +{view.provisional_points}", (x, y), unit, t.ok, bold=True)
        if self.selected is not None:
            prompt = f"Correct {format_address(self.selected)}: {self.typed}_  (Enter; empty = no tile)"
            y = self._wrapped(screen, prompt, x, y, width, unit, t.selected)
        if view.alert:
            levels = {AlertLevel.INFO: t.text, AlertLevel.WARN: t.warn, AlertLevel.ERROR: t.error}
            colour = levels[view.alert_level]
            y = self._wrapped(screen, view.alert, x, y, width, unit, colour)
        buttons_top = self._draw_buttons(screen, rect, unit)
        line_h = unit * 11 // 10
        room = max(0, (buttons_top - pad - y) // line_h)
        for line in view.history[-room:] if room else ():
            text = f"{line.number}. {line.player}: {line.text}"
            self._text(screen, text, (x, y), unit * 9 // 10, t.muted, clip=width - 3 * unit)
            pts = t.font(unit * 9 // 10).render(f"+{line.points}", True, t.text)
            screen.blit(pts, pts.get_rect(topright=(x + width, y)))
            y += line_h

    def _draw_buttons(self, screen: pygame.Surface, rect: pygame.Rect, unit: int) -> int:
        t = self.theme
        pad = unit // 2
        height = unit * 2
        rows = ((_BUTTONS[0], _BUTTONS[1]), _BUTTONS[2:])
        top = rect.bottom - pad - 2 * height - pad // 2
        self._buttons = []
        for i, row in enumerate(rows):
            width = (rect.width - pad * (len(row) + 1)) // len(row)
            for j, (label, kind) in enumerate(row):
                left = rect.x + pad + j * (width + pad)
                button = pygame.Rect(left, top + i * (height + pad // 2), width, height)
                pygame.draw.rect(screen, t.button, button, border_radius=unit // 3)
                text = t.font(unit, bold=True).render(label, True, t.text)
                screen.blit(text, text.get_rect(center=button.center))
                self._buttons.append((button, kind))
        return top

    def _text(self, screen: pygame.Surface, text: str, pos: tuple[int, int], px: int, colour: Colour,
              bold: bool = False, clip: int | None = None) -> int:
        surface = self.theme.font(px, bold).render(text, True, colour)
        area = None if clip is None else pygame.Rect(0, 0, clip, surface.get_height())
        screen.blit(surface, pos, area)
        return pos[1] + surface.get_height()

    def _wrapped(self, screen: pygame.Surface, text: str, x: int, y: int, width: int, px: int,
                 colour: Colour) -> int:
        font = self.theme.font(px)
        line = ""
        for word in text.split():
            candidate = f"{line} {word}".strip()
            if line and font.size(candidate)[0] > width:
                y = self._text(screen, line, (x, y), px, colour)
                line = word
            else:
                line = candidate
        return self._text(screen, line, (x, y), px, colour) if line else y

    # -- input ------------------------------------------------------------------------------
    def poll(self) -> list[KioskAction]:
        """Handle pending key, touch and window events; the players' requests, in order."""
        self.open()
        return [a for event in pygame.event.get() if (a := self.handle(event)) is not None]

    def handle(self, event: pygame.event.Event) -> KioskAction | None:
        """Turn one pygame event into a request (None when it asks nothing of the session).

        Keys: Enter / keypad Enter / space end the turn (or confirm a correction); u or Backspace
        undo; p pass; f freeze; e end the game; Tab picks the next occupied cell to correct and
        digits or # type its face; Escape drops the pick (or quits when nothing is picked); q quits.
        A touch or click on a cell picks it; on a button presses it.
        """
        if event.type == pygame.QUIT:
            return KioskAction(ActionKind.QUIT)
        if event.type == pygame.MOUSEBUTTONDOWN:
            return self._touch(*event.pos)
        if event.type == pygame.FINGERDOWN:
            return self._touch(event.x * self.size[0], event.y * self.size[1])
        if event.type != pygame.KEYDOWN:
            return None
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            if self.selected is not None:
                action = KioskAction(ActionKind.CORRECT, self.selected, self.typed)
                self.selected, self.typed = None, ""
                return action
            return KioskAction(ActionKind.END_TURN)
        if event.key == pygame.K_TAB:
            self._pick_next()
            return None
        if event.key == pygame.K_ESCAPE:
            if self.selected is None:
                return KioskAction(ActionKind.QUIT)
            self.selected, self.typed = None, ""
            return None
        if self.selected is not None:
            if event.key == pygame.K_BACKSPACE:
                self.typed = self.typed[:-1]
            elif event.unicode and (event.unicode.isdigit() or event.unicode == "#"):
                self.typed += event.unicode
            return None
        if event.key == pygame.K_BACKSPACE:
            return KioskAction(ActionKind.UNDO)
        kind = _KEYS.get(event.unicode.lower()) if event.unicode else None
        return KioskAction(kind) if kind else None

    def _touch(self, x: float, y: float) -> KioskAction | None:
        for rect, kind in self._buttons:
            if rect.collidepoint(x, y):
                if kind is ActionKind.END_TURN and self.selected is not None:
                    action = KioskAction(ActionKind.CORRECT, self.selected, self.typed)
                    self.selected, self.typed = None, ""
                    return action
                return KioskAction(kind)
        if self._layout is not None and self._view is not None:
            cell = self._layout.pixel_to_hex(x, y)
            if cell in self._view.cells:
                self.selected, self.typed = (None if cell == self.selected else cell), ""
        return None

    def _pick_next(self) -> None:
        if self._view is None:
            return
        occupied = sorted({*self._view.tiles, *self._view.provisional, *self._view.restore})
        if not occupied:
            return
        after = [c for c in occupied if self.selected is not None and c > self.selected]
        self.selected, self.typed = (after[0] if after else occupied[0]), ""


def _make_beep() -> pygame.mixer.Sound | None:
    """A short 880 Hz tone, or None when there is no audio device."""
    try:
        pygame.mixer.init(frequency=22050, size=-16, channels=1)
        rate = pygame.mixer.get_init()[0]
        t = np.arange(int(rate * 0.25)) / rate
        wave = (0.4 * 32767 * np.sin(2 * np.pi * 880 * t)).astype(np.int16)
        channels = pygame.mixer.get_init()[2]
        samples = wave if channels == 1 else np.repeat(wave[:, None], channels, axis=1)
        return pygame.sndarray.make_sound(np.ascontiguousarray(samples))
    except pygame.error as exc:
        log.warning("no alert sound: %s", exc)
        return None
