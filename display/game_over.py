"""The final standings: the whole screen once the game has ended, until a tap or a key.

The winner (or the tie), every player's total in rank order, the game's end adjustments in words
(who froze when, how the game ended, as the table gives them in ``KioskView.end_notes``), and two
buttons: Rematch (the same players and settings) and New game (the start screen).
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from display.scoreboard import draw_banner, fitted, wrap_lines, wrapped
from display.theme import Theme
from display.view import KioskView, TableState


@dataclass(frozen=True, slots=True)
class StandingsButtons:
    """Where the standings' buttons are, in screen pixels."""

    rematch: pygame.Rect
    new_game: pygame.Rect


def winner_line(view: KioskView) -> str:
    """``"Ana wins with 42"``, or ``"Ana, Bo and Cy tie with 30"`` (the highest total wins, §3-3);
    where the view names the winner (the game's own tie-break), ``"Bo wins with 30 (tie broken:
    score before the rack transfer)"``."""
    if not view.players:
        return "No players"
    if view.winner is not None:
        score = next((p.score for p in view.players if p.name == view.winner), 0)
        broken = f" (tie broken: {view.tie_break})" if view.tie_break else ""
        return f"{view.winner} wins with {score}{broken}"
    best = max(p.score for p in view.players)
    names = [p.name for p in view.players if p.score == best]
    if len(names) == 1:
        return f"{names[0]} wins with {best}"
    return f"{', '.join(names[:-1])} and {names[-1]} tie with {best}"


def draw_standings(screen: pygame.Surface, theme: Theme, view: KioskView, scale: float) -> StandingsButtons:
    """Draw the final standings over the whole ``screen``; returns where the buttons are.

    Players with equal totals share a rank (1, 1, 3), unless the view names the winner (the
    game's tie-break): the winner then comes first, alone at rank 1. A name too long for its row
    is cut short with an ellipsis, the winner line shrinks to the screen's width, and the end
    notes get the lines they wrap to (the rows shrink to leave them room).
    """
    w, h = screen.get_size()
    screen.fill(theme.panel)
    pad = int(12 * scale)
    banner = pygame.Rect(0, 0, w, int(48 * scale))
    draw_banner(screen, theme, banner, TableState.GAME_OVER, f"Game over \u2014 {view.title}")
    y = banner.bottom + pad // 2
    words = winner_line(view)
    title = theme.fitting(words, w - 2 * pad, int(40 * scale), bold=True).render(words, True, theme.text)
    screen.blit(title, (pad, y))
    y += title.get_height() + pad // 2
    button_h = int(62 * scale)
    buttons_top = h - pad - button_h
    notes_font = theme.font(int(19 * scale))
    notes = wrap_lines(notes_font, " ".join(view.end_notes), w - 2 * pad)
    notes_h = notes_font.get_linesize() * len(notes) + pad // 2 if notes else 0
    ranked = sorted(view.players, key=lambda p: (p.name != view.winner, -p.score))
    room = buttons_top - pad - notes_h - y
    row_h = min(int(56 * scale), room // max(1, len(ranked)))
    score_font = theme.font(int(row_h * 0.85), bold=True)
    name_font = theme.font(int(row_h * 0.55), bold=True)
    best = ranked[0].score if ranked else 0
    width = min(w - 2 * pad, int(620 * scale))
    for player in ranked:
        rank = 1 + sum(p.score > player.score or (p.name == view.winner != player.name) for p in ranked)
        row = pygame.Rect(pad, y, width, row_h - max(2, row_h // 12))
        is_winner = player.name == view.winner if view.winner is not None else player.score == best
        pygame.draw.rect(
            screen, theme.current if is_winner else theme.card, row, border_radius=int(6 * scale)
        )
        ink = theme.current_text if is_winner else theme.text
        score = score_font.render(str(player.score), True, theme.current_text if is_winner else theme.score)
        screen.blit(score, score.get_rect(midright=(row.right - pad, row.centery)))
        name = f"{rank}. {player.name}" + ("  (frozen)" if player.is_frozen else "")
        label = fitted(name_font, name, row.width - score.get_width() - 3 * pad, ink)
        screen.blit(label, label.get_rect(midleft=(row.x + pad, row.centery)))
        y += row_h
    if notes:
        wrapped(
            screen,
            theme,
            " ".join(notes),
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
