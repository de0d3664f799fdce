"""Kiosk screenshots of the live table of each layout-read game at 800x480 and 1920x1080: the game's
map, the scoreboard's names and the alert of an illegal turn in progress are drawn.

Set TILESCRIBE_SCREENSHOTS=DIR to keep a copy of every screenshot (the figures of the README)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pygame
import pytest

from display.kiosk import Kiosk
from display.replay import transcript_prefix
from display.theme import Theme
from display.view import CameraState
from engine.games import TableRules, rules_for
from tilescribe.game_table import GameTable
from tilescribe.layout_recording import wrong_layout
from tilescribe.observe import Observation
from tilescribe.settings import TableSettings

SIZES = [(800, 480), (1920, 1080)]
GAMES = [("Yushino", 3), ("Super Wild", 5), ("Holominoes", 4)]
THEME = Theme()


def _table(text: str, turns: int) -> GameTable:
    """The table after ``turns`` turns of ``text`` with the next turn laid wrong and the table still."""
    rules: TableRules = rules_for(TableSettings.of_transcript(text).table_game or "")  # type: ignore[assignment]
    before = transcript_prefix(text, turns)
    for k in range(turns + 1, turns + 6):  # the first later turn that can be laid wrong
        wrong = wrong_layout(rules, transcript_prefix(text, k - 1), rules.layout(transcript_prefix(text, k)))
        if wrong is not None:
            before = transcript_prefix(text, k - 1)
            break
    assert wrong is not None
    table = GameTable(TableSettings.of_transcript(text), before)
    table.observe(Observation(0, 0.0, CameraState.LOCKED, layout=wrong))
    return table


def _shot(folder: Path, table: GameTable, size: tuple[int, int]) -> tuple[np.ndarray, pygame.Rect]:
    """The kiosk's screenshot of ``table`` as RGB H x W x 3, and the map's rectangle."""
    with Kiosk(size, screenshots=folder, sound=False) as kiosk:
        assert kiosk.show(table.view())
        path = kiosk.saved[-1]
        assert kiosk.map_rect is not None
        rect = kiosk.map_rect.copy()
    keep = os.environ.get("TILESCRIBE_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, Path(keep) / f"{folder.name}.png")
    image = pygame.surfarray.array3d(pygame.image.load(str(path))).transpose(1, 0, 2)
    assert image.shape == (size[1], size[0], 3)
    return image, rect


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("game", "seed"), GAMES)
def test_live_table_screenshot_has_the_map_the_names_and_the_rule_broken(
        tmp_path: Path, game: str, seed: int, size: tuple[int, int]) -> None:
    text = rules_for(game).random_transcript(seed, players=2, turns=10)
    table = _table(text, 5)
    assert table.alert and table.turn is not None and not table.turn.legal
    slug = f"{game.lower().replace(' ', '')}_{size[0]}x{size[1]}"
    image, rect = _shot(tmp_path / slug, table, size)
    patch = image[rect.top:rect.bottom, rect.left:rect.right]
    drawn = np.any(patch != np.array(THEME.background, np.uint8), axis=2).mean()
    assert drawn > 0.05, f"map area nearly empty ({drawn:.3f})"
    error = np.all(image == np.array(THEME.error, np.uint8), axis=2)
    assert error[:, rect.right:].sum() > 20  # the alert with the rule, in the alert colour, beside the map
    banner = np.all(image == np.array(THEME.illegal_state, np.uint8), axis=2)
    assert banner[:, rect.right:].mean() > 0.01  # the "Illegal placement" banner
    # the same table with other names: the map is the same, the scoreboard differs where the names are
    renamed = _table(text.replace("Ana", "Xeno").replace("Bo", "Quill"), 5)
    other, _ = _shot(tmp_path / f"{slug}_renamed", renamed, size)
    assert np.array_equal(other[rect.top:rect.bottom, rect.left:rect.right], patch)
    assert np.any(other[:, rect.right:] != image[:, rect.right:])
