"""The on-screen keypad for correcting a misread cell or tile by touch.

The keypad takes the side panel while a cell is picked on the board map (or a tile on a game's map,
display.tile_keypad): one key per face of the game (``0`` .. ``m-1``, ``#`` where the game has wild
tiles, the modulus marker where it is used; for a tile, the game's groups of faces, each group
starting a row of its own), then Remove (the cell is empty), Undo turn, Cancel and OK. Every key is
at least
:data:`MIN_KEY_MM` wide and tall on the 800x480 seven-inch panel (0.1905 mm a pixel) and grows with
the screen height.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

import pygame

from display.scoreboard import draw_banner
from display.theme import Theme
from display.view import TableState

#: Smallest key side for a finger, in millimetres, and in pixels on the 800x480 seven-inch panel.
MIN_KEY_MM = 9.0
MIN_KEY_PX = math.ceil(MIN_KEY_MM / 0.1905)


class KeyCommand(Enum):
    """What a keypad key does."""

    FACE = "face"
    REMOVE = "remove"
    UNDO = "undo turn"
    CANCEL = "cancel"
    CONFIRM = "ok"


@dataclass(frozen=True, slots=True)
class Key:
    """One key on the screen.

    Attributes:
        rect: where it is, in screen pixels.
        command: what it does.
        face: for FACE keys, the face it sets (``"7"``, ``"#"``, ``"marker"``); else empty.
        group: for FACE keys, the group of faces it belongs to (0 for a cell's only group).
    """

    rect: pygame.Rect
    command: KeyCommand
    face: str = ""
    group: int = 0

    def __post_init__(self) -> None:
        if (self.command is KeyCommand.FACE) != bool(self.face):
            raise ValueError(f"keypad key {self.command.value}: a face key needs a face, others none")

    @property
    def label(self) -> str:
        """The words on the key."""
        if self.command is KeyCommand.FACE:
            return "Marker" if self.face == "marker" else self.face
        return {
            KeyCommand.REMOVE: "Remove",
            KeyCommand.UNDO: "Undo turn",
            KeyCommand.CANCEL: "Cancel",
            KeyCommand.CONFIRM: "OK",
        }[self.command]


@dataclass(frozen=True, slots=True)
class KeypadText:
    """The words of the keypad and which keys are lit.

    Attributes:
        title: the banner (``"Correct B3"``).
        now: what the reading says now, in words (``"7"``, ``"empty"``).
        chosen: what the picks say so far, in words (``"?"`` before a pick).
        picked: the face keys lit, as (group, face).
        removing: Remove is picked.
        ready: OK would send a correction (the picks make a whole face).
    """

    title: str
    now: str
    chosen: str
    picked: frozenset[tuple[int, str]] = frozenset()
    removing: bool = False
    ready: bool = False


def keypad_keys(groups: tuple[tuple[str, ...], ...], rect: pygame.Rect, scale: float) -> list[Key]:
    """Lay the keys out in ``rect``: the faces in a grid under a header, then two rows of commands.

    The face keys are at least :data:`MIN_KEY_PX` (a finger's 9 mm) where they fit; a large modulus
    whose faces do not fit so gets the largest smaller keys that do.

    Args:
        groups: the faces in keypad order, in groups (a cell's faces are one group), each group
            starting a row of its own; its keys carry the group's index.
        rect: the panel, in screen pixels.
        scale: screen height / 480.

    Raises:
        ValueError: the faces do not fit in ``rect`` even with keys of one pixel.
    """
    for min_px in range(MIN_KEY_PX, 0, -1):
        try:
            return _layout(groups, rect, scale, min_px)
        except ValueError:
            continue
    raise ValueError(f"keypad: {sum(map(len, groups))} faces do not fit in {rect.width}x{rect.height} px")


def _layout(groups: tuple[tuple[str, ...], ...], rect: pygame.Rect, scale: float, min_px: int) -> list[Key]:
    """:func:`keypad_keys` with face keys of at least ``min_px``; ValueError when they do not fit."""
    gap = max(4, int(6 * scale))
    side = max(min_px, int(min_px * scale))
    header = int(74 * scale)
    command_h = max(side, int(52 * scale))
    grid = pygame.Rect(
        rect.x + gap,
        rect.y + header,
        rect.width - 2 * gap,
        rect.height - header - 2 * (command_h + gap) - gap,
    )
    widest = max((len(g) for g in groups), default=0)
    columns = max(1, min(widest, (grid.width + gap) // (side + gap)))
    starts = [0]  # the first row of each group
    for g in groups:
        starts.append(starts[-1] + -(-len(g) // columns))
    rows = starts[-1]
    key_w = (grid.width - gap * (columns - 1)) // columns
    key_h = min(key_w, (grid.height - gap * (rows - 1)) // rows) if rows else 0
    if rows and min(key_w, key_h) < min_px:
        raise ValueError(f"keys of {min_px} px do not fit")
    keys = [
        Key(
            pygame.Rect(grid.x + (i % columns) * (key_w + gap),
                        grid.y + (starts[n] + i // columns) * (key_h + gap), key_w, key_h),
            KeyCommand.FACE,
            face,
            n,
        )
        for n, group in enumerate(groups)
        for i, face in enumerate(group)
    ]
    half = (rect.width - 3 * gap) // 2
    for row, commands in enumerate(
        ((KeyCommand.REMOVE, KeyCommand.UNDO), (KeyCommand.CANCEL, KeyCommand.CONFIRM))
    ):
        top = rect.bottom - gap - (2 - row) * command_h - (1 - row) * gap
        for col, command in enumerate(commands):
            keys.append(Key(pygame.Rect(rect.x + gap + col * (half + gap), top, half, command_h), command))
    return keys


def draw_keypad(
    screen: pygame.Surface, theme: Theme, keys: list[Key], rect: pygame.Rect, text: KeypadText, scale: float
) -> None:
    """Draw the keypad.

    Args:
        screen: the target surface.
        theme: colours and fonts.
        keys: from :func:`keypad_keys` for the same ``rect``.
        rect: the panel.
        text: the banner, what the reading says and what the picks say, the keys lit.
        scale: screen height / 480.
    """
    pygame.draw.rect(screen, theme.panel, rect)
    draw_banner(screen, theme, pygame.Rect(rect.x, rect.y, rect.width, int(40 * scale)), TableState.READING,
                text.title)
    info = f"now {text.now}  \u2192  {text.chosen}"
    font = theme.fitting(info, rect.width - int(12 * scale), int(22 * scale), bold=True)
    screen.blit(font.render(info, True, theme.text), (rect.x + int(8 * scale), rect.y + int(44 * scale)))
    for key in keys:
        picked = key.command is KeyCommand.FACE and (key.group, key.face) in text.picked
        active = key.command is not KeyCommand.CONFIRM or text.ready
        fill = (
            theme.current
            if picked
            else theme.reading
            if key.command is KeyCommand.CONFIRM and active
            else theme.button
        )
        pygame.draw.rect(screen, fill, key.rect, border_radius=int(6 * scale))
        if key.command is KeyCommand.REMOVE and text.removing:
            pygame.draw.rect(
                screen, theme.current, key.rect, max(3, int(4 * scale)), border_radius=int(6 * scale)
            )
        px = int((30 if key.command is KeyCommand.FACE and len(key.label) <= 2 else 20) * scale)
        font = theme.fitting(key.label, key.rect.width - 6, px, bold=True)
        ink = theme.current_text if picked or fill == theme.reading else theme.button_text
        label = font.render(key.label, True, ink if active else theme.muted)
        screen.blit(label, label.get_rect(center=key.rect.center))
