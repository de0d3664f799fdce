"""The start screen driven by real pygame key and touch events (dummy video driver)."""

from __future__ import annotations

from pathlib import Path

import pygame

from display.kiosk import Kiosk
from display.start_screen import Choice, choose


def _key(key: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, unicode="", mod=0))


def test_keys_change_rows_and_enter_starts(tmp_path: Path) -> None:
    rows = (Choice("Players", ("1", "2", "3"), 1), Choice("Modulus", ("11", "12", "13"), 2))
    kiosk = Kiosk((800, 480), screenshots=tmp_path, sound=False)
    kiosk.open()
    try:
        _key(pygame.K_RIGHT)  # players 2 -> 3
        _key(pygame.K_DOWN)
        _key(pygame.K_LEFT)  # modulus 13 -> 12
        _key(pygame.K_RETURN)
        chosen = choose(kiosk, rows)
        assert chosen is not None and [c.value for c in chosen] == ["3", "12"]
        _key(pygame.K_ESCAPE)
        assert choose(kiosk, rows) is None
        # touch: the Start button
        kiosk.saved.clear()
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(800 - 60, 480 - 40), button=1))
        assert choose(kiosk, rows) == rows
    finally:
        kiosk.close()
    assert kiosk.saved and pygame.image.load(str(kiosk.saved[0])).get_size() == (800, 480)
