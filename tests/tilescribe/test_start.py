"""Start-screen rows <-> table settings."""

from __future__ import annotations

import dataclasses

import pytest

from engine.settings import Settings
from tilescribe.settings import SettingsError, TableSettings
from tilescribe.start import chosen_settings, start_choices


def test_rows_round_trip_and_changes() -> None:
    settings = TableSettings(game=Settings(modulus=13, players=("Ana", "Bo")))
    rows = start_choices(settings)
    assert chosen_settings(settings, rows) == settings
    changed = list(rows)
    changed[0] = rows[0].step(1)  # three players
    changed[3] = dataclasses.replace(rows[3], index=rows[3].options.index("A"))
    changed[7] = rows[7].step(1)  # auto end after 4 s
    out = chosen_settings(settings, tuple(changed))
    assert out.game.players == ("Ana", "Bo", "Player 3")
    assert out.game.wild_policy == "A" and out.auto_end_seconds == 4.0


def test_a_combination_the_rules_forbid_is_named() -> None:
    settings = TableSettings(game=Settings(modulus=12))
    rows = list(start_choices(settings))
    rows[3] = dataclasses.replace(rows[3], index=rows[3].options.index("B"))  # §7-2 B needs a prime
    with pytest.raises(SettingsError, match="start screen.*prime"):
        chosen_settings(settings, tuple(rows))
