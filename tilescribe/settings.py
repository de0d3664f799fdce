"""Table settings: the game's engine settings plus how the session watches the table.

Sources, later ones winning: defaults, a TOML settings file (``--settings``, see
deploy/settings.toml), the command line. Keys of the file: ``players`` (list of names),
``modulus``, ``board_order``, ``wild`` ("A".."E", §7-2), ``hash_swap`` (§7-4), ``marker`` (§8),
``bonus`` ("9A"/"9B", §9), ``tiles_per_value``, ``still_seconds``, ``auto_end_seconds``,
``tileset``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.hexgrid import Board
from engine.settings import Settings


class SettingsError(ValueError):
    """A settings file or option is malformed; the message names the file and the key."""


@dataclass(frozen=True, slots=True)
class TableSettings:
    """Everything a table session needs to know before the first turn.

    Attributes:
        game: the engine settings (modulus, board, variations, players; §3-1, §7-9).
        still_seconds: how long the board must stay still, with no hand over it, before it is read.
        auto_end_seconds: in auto mode, how long the board must stay still and legal before the
            turn ends by itself; None when turns end only on a signal.
        tileset: the tile-set profile naming faces and values (``"modlinseq"``, ``"rummikub"``).
    """

    game: Settings = field(default_factory=Settings)
    still_seconds: float = 0.5
    auto_end_seconds: float | None = None
    tileset: str = "modlinseq"

    def __post_init__(self) -> None:
        if not self.still_seconds >= 0:
            raise ValueError(f"still_seconds must be >= 0, got {self.still_seconds!r}")
        if self.auto_end_seconds is not None and not self.auto_end_seconds > 0:
            raise ValueError(f"auto_end_seconds must be > 0 or None, got {self.auto_end_seconds!r}")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (the journal stores it with each game)."""
        return {
            **self.game.to_dict(),
            "still_seconds": self.still_seconds,
            "auto_end_seconds": self.auto_end_seconds,
            "tileset": self.tileset,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "settings") -> TableSettings:
        """The settings from a dictionary as written by :meth:`to_dict` or read from a TOML file.

        Missing keys take their defaults; ``order`` and ``board_order`` both name the board order.

        Raises:
            SettingsError: an unknown key or a bad value; the message names ``where`` and the key.
        """
        known = {"game", "modulus", "order", "board_order", "dropped", "wild", "hash_swap", "marker",
                 "bonus", "tiles_per_value", "players", "still_seconds", "auto_end_seconds", "tileset"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise SettingsError(f"{where}: unknown key(s) {unknown}; known: {sorted(known)}")
        defaults = Settings()
        try:
            order = int(data.get("order", data.get("board_order", defaults.board.order)))
            dropped = list(data.get("dropped", []))
            game = Settings(
                modulus=int(data.get("modulus", defaults.modulus)),
                board=Board.truncated(order, dropped) if dropped else Board.hexagon(order),
                wild_policy=data.get("wild", defaults.wild_policy),
                hash_swap=bool(data.get("hash_swap", defaults.hash_swap)),
                marker=bool(data.get("marker", defaults.marker)),
                bonus=data.get("bonus", defaults.bonus),
                tiles_per_value=data.get("tiles_per_value", defaults.tiles_per_value),
                players=tuple(data.get("players", defaults.players)),
                game=str(data.get("game", defaults.game)),
            )
            auto = data.get("auto_end_seconds")
            return cls(
                game=game,
                still_seconds=float(data.get("still_seconds", 0.5)),
                auto_end_seconds=None if auto is None else float(auto),
                tileset=str(data.get("tileset", "modlinseq")),
            )
        except (TypeError, ValueError) as exc:
            raise SettingsError(f"{where}: {exc}") from exc


def load_settings(path: Path | None, overrides: Mapping[str, Any]) -> TableSettings:
    """The table settings from a TOML file (optional) with command-line ``overrides`` on top.

    Args:
        path: a TOML settings file, or None.
        overrides: keys as in the file; None values are ignored (options not given).

    Raises:
        SettingsError: the file cannot be read or parsed, or a key or value is bad.
    """
    data: dict[str, Any] = {}
    where = "command line"
    if path is not None:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise SettingsError(f"settings file {str(path)!r}: {exc}") from exc
        where = f"settings file {str(path)!r} (or the command line)"
    data.update({k: v for k, v in overrides.items() if v is not None})
    return TableSettings.from_dict(data, where)
