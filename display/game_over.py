"""The final standings: the whole screen once the game has ended, until a tap or a key.

The winner (or the tie), every player's total in rank order, the game's end adjustments in words
(who froze when, how the game ended, as the table gives them in ``KioskView.end_notes``), and two
buttons: Rematch (the same players and settings) and New game (the start screen).
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from display.scoreboard import draw_banner, wrapped
from display.theme import Theme
from display.view import KioskView, TableState


@dataclass(frozen=True, slots=True)
class StandingsButtons:
    """Where the standings' buttons are, in screen pixels."""

    rematch: pygame.Rect
    new_game: pygame.Rect


def winner_line(view: KioskView) -> str:
    """``"Ana wins with 42"``, or ``"Ana and Bo tie with 30"``."""
    if not view.players:
        return "No players"
    best = max(p.score for p in view.players)
    names = [p.name for p in view.players if p.score == best]
    verb = "tie" if len(names) > 1 else "wins"
    return f"{' and '.join(names)} {verb} with {best}"


def draw_standings(screen: pygame.Surface, theme: Theme, view: KioskView, scale: float) -> StandingsButtons:
    """Draw the final standings over the whole ``screen``; returns where the buttons are."""
    w, h = screen.get_size()
    screen.fill(theme.panel)
    pad = int(12 * scale)
    banner = pygame.Rect(0, 0, w, int(48 * scale))
    draw_banner(screen, theme, banner, TableState.GAME_OVER, f"Game over \u2014 {view.title}")
    y = banner.bottom + pad // 2
    title = theme.font(int(40 * scale), bold=True).render(winner_line(view), True, theme.text)
    screen.blit(title, (pad, y))
    y += title.get_height() + pad // 2
    button_h = int(62 * scale)
    buttons_top = h - pad - button_h
    notes_h = int(24 * scale) * min(3, len(view.end_notes)) if view.end_notes else 0
    ranked = sorted(view.players, key=lambda p: -p.score)
    room = buttons_top - pad - notes_h - y
    row_h = min(int(56 * scale), room // max(1, len(ranked)))
    score_font = theme.font(int(row_h * 0.85), bold=True)
    name_font = theme.font(int(row_h * 0.55), bold=True)
    best = ranked[0].score if ranked else 0
    width = min(w - 2 * pad, int(620 * scale))
    for rank, player in enumerate(ranked, 1):
        row = pygame.Rect(pad, y, width, row_h - max(2, row_h // 12))
        is_winner = player.score == best
        pygame.draw.rect(
            screen, theme.current if is_winner else theme.card, row, border_radius=int(6 * scale)
        )
        ink = theme.current_text if is_winner else theme.text
        name = f"{rank}. {player.name}" + ("  (frozen)" if player.is_frozen else "")
        label = name_font.render(name, True, ink)
        screen.blit(label, label.get_rect(midleft=(row.x + pad, row.centery)))
        score = score_font.render(str(player.score), True, theme.current_text if is_winner else theme.score)
        screen.blit(score, score.get_rect(midright=(row.right - pad, row.centery)))
        y += row_h
    notes = " ".join(view.end_notes)
    if notes:
        wrapped(
            screen,
            theme,
            notes,
            pygame.Rect(pad, y + pad // 2, w - 2 * pad, buttons_top - y - pad),
            int(19 * scale),
            theme.muted,
        )
    button_w = (w - 4 * pad) // 3
    rematch = pygame.Rect(pad, buttons_top, button_w, button_h)
    new_game = pygame.Rect(rematch.right + pad, buttons_top, button_w, button_h)
    for rect, words, fill in ((rematch, "Rematch", theme.reading), (new_game, "New game", theme.button)):
        pygame.draw.rect(screen, fill, rect, border_radius=int(8 * scale))
        label = theme.font(int(28 * scale), bold=True).render(
            words, True, theme.current_text if fill == theme.reading else theme.button_text
        )
        screen.blit(label, label.get_rect(center=rect.center))
    wrapped(
        screen,
        theme,
        "Tap elsewhere or press a key to close",
        pygame.Rect(new_game.right + pad, buttons_top, w - new_game.right - 2 * pad, button_h),
        int(18 * scale),
        theme.muted,
    )
    return StandingsButtons(rematch, new_game)
