"""The kiosk's side panel during play: the state banner, whose turn, the scores, alerts, history.

Sized for reading at the table from 1.5 m: on the 800x480 seven-inch panel (0.19 mm a pixel) the
score digits are 44 px (8.4 mm) tall and the player to move has a large name and a light card
among dark ones; everything scales with the screen height (``scale = height / 480``).
"""

from __future__ import annotations

import pygame

from display.theme import Colour, Theme, ink_on
from display.view import AlertLevel, CameraState, KioskView, TableState

#: Score font size at 800x480; DejaVu Sans Bold digits are about 0.75 of it (44 px).
SCORE_PX = 60


def banner_words(view: KioskView) -> str:
    """The state in words, as the banner writes it."""
    current = next((p.name for p in view.players if p.is_current), "")
    state = view.state
    if state is TableState.WAITING and view.camera in (CameraState.LOST, CameraState.NO_CAMERA):
        return f"Waiting: {view.camera.value}"
    return {
        TableState.WAITING: f"Waiting for {current}" if current else "Waiting",
        TableState.READING: "Reading the board"
        if view.camera is CameraState.STARTING
        else "Reading the turn",
        TableState.HAND: "Hand over the board",
        TableState.ILLEGAL: "Illegal placement",
        TableState.OUT_OF_SYNC: "Board out of sync",
        TableState.GAME_OVER: "Game over",
    }[state]


def draw_banner(
    screen: pygame.Surface, theme: Theme, rect: pygame.Rect, state: TableState, words: str
) -> None:
    """The state's colour band with its words (black or white, whichever reads better)."""
    fill = theme.state_colour(state)
    pygame.draw.rect(screen, fill, rect)
    text = words.upper()
    font = theme.fitting(text, rect.width - rect.height // 2, rect.height * 6 // 10, bold=True)
    label = font.render(text, True, ink_on(fill))
    screen.blit(label, label.get_rect(midleft=(rect.x + rect.height // 4, rect.centery)))


def draw_scores(
    screen: pygame.Surface, theme: Theme, view: KioskView, rect: pygame.Rect, scale: float
) -> int:
    """The players' cards, in turn order: one column for up to three players, two beyond.

    Returns:
        The y coordinate below the cards.
    """
    players = view.players
    if not players:
        return rect.y
    columns = 1 if len(players) <= 3 else 2
    rows = -(-len(players) // columns)
    gap = max(4, int(6 * scale))
    score_font = theme.font(int(SCORE_PX * scale), bold=True)
    name_px = int((28 if columns == 1 else 22) * scale)
    card_h = int((62 if columns == 1 else 80) * scale)
    card_w = (rect.width - gap * (columns - 1)) // columns
    for i, player in enumerate(players):
        col, row = i // rows, i % rows
        card = pygame.Rect(rect.x + col * (card_w + gap), rect.y + row * (card_h + gap), card_w, card_h)
        fill = theme.current if player.is_current else theme.card
        pygame.draw.rect(screen, fill, card, border_radius=int(6 * scale))
        ink = theme.current_text if player.is_current else theme.text
        digits = theme.current_text if player.is_current else theme.score
        name = ("\u25b6 " if player.is_current else "") + player.name
        if player.is_frozen:
            name += " (frozen)"
        name_font = theme.font(name_px, bold=player.is_current)
        score = score_font.render(str(player.score), True, digits)
        ink_box = score.get_bounding_rect()
        pad = int(8 * scale)
        if columns == 1:
            label_room = card.width - ink_box.width - 3 * pad
            label = fitted(name_font, name, label_room, ink)
            screen.blit(label, label.get_rect(midleft=(card.x + pad, card.centery)))
            target = ink_box.copy()
            target.midright = (card.right - pad, card.centery)
        else:
            label = fitted(name_font, name, card.width - 2 * pad, ink)
            screen.blit(label, (card.x + pad, card.y))  # the font's own leading is the top margin
            target = ink_box.copy()
            target.bottomright = (card.right - pad, card.bottom - pad // 2)
        screen.blit(score, (target.x - ink_box.x, target.y - ink_box.y))
    return rect.y + rows * (card_h + gap)


def fitted(font: pygame.font.Font, text: str, width: int, colour: Colour) -> pygame.Surface:
    """``text`` rendered, cut short with an ellipsis to fit ``width`` pixels."""
    while len(text) > 1 and font.size(text)[0] > width:
        text = text[:-2] + "\u2026"
    return font.render(text, True, colour)


def draw_panel(
    screen: pygame.Surface, theme: Theme, view: KioskView, rect: pygame.Rect, bottom: int, scale: float
) -> None:
    """The banner, whose turn, the score cards, the turn in progress, the alert and (where room is
    left above ``bottom``) the latest turns."""
    pygame.draw.rect(screen, theme.panel, rect)
    pad = max(6, int(8 * scale))
    x, width = rect.x + pad, rect.width - 2 * pad
    banner = pygame.Rect(rect.x, rect.y, rect.width, int(40 * scale))
    draw_banner(screen, theme, banner, view.state, banner_words(view))
    y = banner.bottom + pad // 2
    current = next((p for p in view.players if p.is_current), None)
    if current is not None and len(view.players) <= 4:
        heading = theme.font(int(32 * scale), bold=True)
        label = fitted(heading, f"{current.name} to play", width, theme.text)
        screen.blit(label, (x, y))
        y += label.get_height()
    y = draw_scores(screen, theme, view, pygame.Rect(x, y, width, bottom - y), scale) + pad // 2
    text_px = int(19 * scale)
    if view.provisional_points is not None:
        label = theme.font(int(24 * scale), bold=True).render(
            f"This turn: +{view.provisional_points}", True, theme.ok
        )
        screen.blit(label, (x, y))
        y += label.get_height()
    if view.alert:
        colour = {AlertLevel.INFO: theme.text, AlertLevel.WARN: theme.warn, AlertLevel.ERROR: theme.error}
        y = wrapped(
            screen, theme, view.alert, pygame.Rect(x, y, width, bottom - y), text_px, colour[view.alert_level]
        )
    line_h = theme.font(text_px).get_linesize()
    room = max(0, (bottom - y) // line_h)
    for line in view.history[-room:] if room else ():
        pts = theme.font(text_px).render(f"+{line.points}", True, theme.text)
        label = fitted(
            theme.font(text_px),
            f"{line.number}. {line.player}: {line.text}",
            width - pts.get_width() - pad,
            theme.muted,
        )
        screen.blit(label, (x, y))
        screen.blit(pts, pts.get_rect(topright=(x + width, y)))
        y += line_h


def wrapped(
    screen: pygame.Surface,
    theme: Theme,
    text: str,
    rect: pygame.Rect,
    px: int,
    colour: Colour,
    bold: bool = False,
) -> int:
    """``text`` word-wrapped into ``rect``; returns the y below. When lines do not fit, the last one
    shown ends with an ellipsis, so a cut message is seen to be cut."""
    font = theme.font(px, bold)
    lines = wrap_lines(font, text, rect.width)
    room = max(0, rect.height // font.get_linesize())
    if len(lines) > room > 0:
        lines = [*lines[: room - 1], lines[room - 1] + " \u2026"]
    y = rect.y
    for line in lines[:room]:
        screen.blit(fitted(font, line, rect.width, colour), (rect.x, y))
        y += font.get_linesize()
    return y


def wrap_lines(font: pygame.font.Font, text: str, width: int) -> list[str]:
    """``text`` cut at spaces into lines of at most ``width`` pixels in ``font`` (a longer word
    stands alone on its line)."""
    lines, line = [], ""
    for word in text.split():
        candidate = f"{line} {word}".strip()
        if line and font.size(candidate)[0] > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    return lines + [line] if line else lines
