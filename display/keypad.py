"""The on-screen keypad for correcting a misread cell by touch.

The keypad takes the side panel while a cell is picked on the board map: one key per face of the
game (``0`` .. ``m-1``, ``#`` where the game has wild tiles, the modulus marker where it is used),
then Remove (the cell is empty), Undo turn, Cancel and OK. Every key is at least
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
    """

    rect: pygame.Rect
    command: KeyCommand
    face: str = ""

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


def keypad_keys(faces: tuple[str, ...], rect: pygame.Rect, scale: float) -> list[Key]:
    """Lay the keys out in ``rect``: the faces in a grid under a header, then two rows of commands.

    The face keys are at least :data:`MIN_KEY_PX` (a finger's 9 mm) where they fit; a large modulus
    whose faces do not fit so gets the largest smaller keys that do.

    Args:
        faces: the faces, in keypad order.
        rect: the panel, in screen pixels.
        scale: screen height / 480.

    Raises:
        ValueError: the faces do not fit in ``rect`` even with keys of one pixel.
    """
    for min_px in range(MIN_KEY_PX, 0, -1):
        try:
            return _layout(faces, rect, scale, min_px)
        except ValueError:
            continue
    raise ValueError(f"keypad: {len(faces)} faces do not fit in {rect.width}x{rect.height} px")


def _layout(faces: tuple[str, ...], rect: pygame.Rect, scale: float, min_px: int) -> list[Key]:
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
    columns = max(1, min(len(faces), (grid.width + gap) // (side + gap)))
    rows = -(-len(faces) // columns) if faces else 0
    key_w = (grid.width - gap * (columns - 1)) // columns
    key_h = min(key_w, (grid.height - gap * (rows - 1)) // rows) if rows else 0
    if faces and min(key_w, key_h) < min_px:
        raise ValueError(f"keys of {min_px} px do not fit")
    keys = [
        Key(
            pygame.Rect(
                grid.x + (i % columns) * (key_w + gap), grid.y + (i // columns) * (key_h + gap), key_w, key_h
            ),
            KeyCommand.FACE,
            face,
        )
        for i, face in enumerate(faces)
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
    screen: pygame.Surface,
    theme: Theme,
    keys: list[Key],
    rect: pygame.Rect,
    cell: str,
    now: str,
    chosen: str | None,
    scale: float,
) -> None:
    """Draw the keypad for correcting ``cell``.

    Args:
        screen: the target surface.
        theme: colours and fonts.
        keys: from :func:`keypad_keys` for the same ``rect``.
        rect: the panel.
        cell: the cell's address (``"B3"``).
        now: what the cell shows now (a face, or ``""`` when empty).
        chosen: the face picked so far, ``""`` for Remove, None before a pick (OK does nothing then).
        scale: screen height / 480.
    """
    pygame.draw.rect(screen, theme.panel, rect)
    draw_banner(
        screen,
        theme,
        pygame.Rect(rect.x, rect.y, rect.width, int(40 * scale)),
        TableState.READING,
        f"Correct {cell}",
    )
    shown = "?" if chosen is None else ("empty" if chosen == "" else chosen)
    info = theme.font(int(22 * scale), bold=True).render(
        f"now {now or 'empty'}  \u2192  {shown}", True, theme.text
    )
    screen.blit(info, (rect.x + int(8 * scale), rect.y + int(44 * scale)))
    for key in keys:
        picked = key.command is KeyCommand.FACE and key.face == chosen
        active = key.command is not KeyCommand.CONFIRM or chosen is not None
        fill = (
            theme.current
            if picked
            else theme.reading
            if key.command is KeyCommand.CONFIRM and active
            else theme.button
        )
        pygame.draw.rect(screen, fill, key.rect, border_radius=int(6 * scale))
        if key.command is KeyCommand.REMOVE and chosen == "":
            pygame.draw.rect(
                screen, theme.current, key.rect, max(3, int(4 * scale)), border_radius=int(6 * scale)
            )
        px = int((30 if key.command is KeyCommand.FACE and len(key.label) <= 2 else 20) * scale)
        font = theme.fitting(key.label, key.rect.width - 6, px, bold=True)
        ink = theme.current_text if picked or fill == theme.reading else theme.button_text
        label = font.render(key.label, True, ink if active else theme.muted)
        screen.blit(label, label.get_rect(center=key.rect.center))
