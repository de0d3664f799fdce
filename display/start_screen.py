"""The kiosk's start screen: pick the players, the modulus and the variations before a game.

A list of :class:`Choice` rows; Up/Down (or a touch on a row) picks a row, Left/Right (or a touch on
the row's arrows) changes its value, Enter (or the Start button) starts the game, Escape leaves.
The screen knows nothing of the rules: the caller turns the chosen values into settings.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pygame

from display.kiosk import Kiosk


@dataclass(frozen=True, slots=True)
class Choice:
    """One row of the start screen.

    Attributes:
        label: what the row sets ("Modulus").
        options: the values to choose from, as shown.
        index: the chosen option.
    """

    label: str
    options: tuple[str, ...]
    index: int = 0

    def __post_init__(self) -> None:
        if not self.options or not 0 <= self.index < len(self.options):
            raise ValueError(f"{self.label}: index {self.index} outside options {self.options!r}")

    @property
    def value(self) -> str:
        """The chosen option."""
        return self.options[self.index]

    def step(self, delta: int) -> Choice:
        """The row with the next (+1) or previous (-1) option, wrapping around."""
        return dataclasses.replace(self, index=(self.index + delta) % len(self.options))


def choose(kiosk: Kiosk, choices: tuple[Choice, ...], title: str = "New game") -> tuple[Choice, ...] | None:
    """Show the start screen until the players start the game (or leave).

    Args:
        kiosk: the open kiosk (its window is used).
        choices: the rows with their initial values.
        title: the heading.

    Returns:
        The rows as chosen, or None when the players left with Escape or closed the window.
    """
    kiosk.open()
    screen = pygame.display.get_surface()
    if screen is None:
        raise pygame.error("the kiosk's window did not open")
    rows = list(choices)
    selected = 0
    while True:
        hit = _draw(kiosk, screen, rows, selected, title)
        for event in [pygame.event.wait()] + pygame.event.get():
            if event.type == pygame.QUIT:
                return None
            if event.type == pygame.KEYDOWN:
                if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                    return tuple(rows)
                if event.key == pygame.K_ESCAPE:
                    return None
                if event.key in (pygame.K_UP, pygame.K_DOWN):
                    selected = (selected + (1 if event.key == pygame.K_DOWN else -1)) % len(rows)
                if event.key in (pygame.K_LEFT, pygame.K_RIGHT):
                    rows[selected] = rows[selected].step(1 if event.key == pygame.K_RIGHT else -1)
            if event.type == pygame.MOUSEBUTTONDOWN:
                for rect, target, delta in hit:
                    if rect.collidepoint(event.pos):
                        if target < 0:
                            return tuple(rows)
                        selected = target
                        if delta:
                            rows[target] = rows[target].step(delta)


def _draw(kiosk: Kiosk, screen: pygame.Surface, rows: list[Choice], selected: int,
          title: str) -> list[tuple[pygame.Rect, int, int]]:
    """Draw the screen; returns the touch targets (rect, row index or -1 for Start, step)."""
    t = kiosk.theme
    w, h = screen.get_size()
    unit = max(12, h // 22)
    screen.fill(t.panel)
    heading = t.font(unit * 3 // 2, bold=True).render(title, True, t.text)
    screen.blit(heading, (unit, unit // 2))
    targets: list[tuple[pygame.Rect, int, int]] = []
    top = unit * 5 // 2
    row_h = min(unit * 2, (h - top - unit * 4) // max(1, len(rows)))
    font = t.font(row_h * 6 // 10)
    for i, row in enumerate(rows):
        rect = pygame.Rect(unit, top + i * row_h, w - 2 * unit, row_h - 2)
        pygame.draw.rect(screen, t.button if i == selected else t.background, rect, border_radius=4)
        screen.blit(font.render(row.label, True, t.text), (rect.x + unit // 2, rect.y + row_h // 5))
        value = font.render(f"<  {row.value}  >", True, t.tile if i == selected else t.muted)
        screen.blit(value, value.get_rect(midright=(rect.right - unit // 2, rect.centery)))
        half = rect.width // 4
        targets.append((pygame.Rect(rect.right - 2 * half, rect.y, half, rect.height), i, -1))
        targets.append((pygame.Rect(rect.right - half, rect.y, half, rect.height), i, 1))
        targets.append((rect, i, 0))
    start = pygame.Rect(w - unit * 9, h - unit * 3, unit * 8, unit * 2)
    pygame.draw.rect(screen, t.ok, start, border_radius=unit // 3)
    label = t.font(unit, bold=True).render("Start", True, t.tile_text)
    screen.blit(label, label.get_rect(center=start.center))
    hint = t.font(unit * 8 // 10).render("Up/Down pick, Left/Right change, Enter start", True, t.muted)
    screen.blit(hint, (unit, h - unit * 2))
    targets.insert(0, (start, -1, 0))
    pygame.display.flip()
    if kiosk.screenshots is not None:
        path = kiosk.screenshots / f"{len(kiosk.saved):05d}.png"
        pygame.image.save(screen, str(path))
        kiosk.saved.append(path)
    return targets
