"""Table settings: the game's engine settings plus how the session watches the table.

Sources, later ones winning: defaults, a TOML settings file (``--settings``, see
deploy/settings.toml), the command line. Keys of the file: ``players`` (list of names),
``modulus``, ``board_order``, ``wild`` ("A".."E", §7-2), ``hash_swap`` (§7-4), ``marker`` (§8),
``bonus`` ("9A"/"9B", §9), ``tiles_per_value``, ``still_seconds``, ``auto_end_seconds``,
``tileset``; for the games read as a layout, ``game`` ("yushino", "superwild", "holominoes") and
a ``[tags]`` table of the game's own transcript tags (:data:`GAME_TAGS`, e.g. ``Layout = "classic"``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from calibration.files import InputFileError, read_text
from engine.games import canonical_name, rules_for
from engine.hexgrid import Board
from engine.record import format_tags, players_of, read_record, tag_value
from engine.settings import Settings

#: The games read as a layout on the table (transcript-based), and the tags of their own each may set
#: (games.md); Game and Players come from ``game`` and ``players``.
GAME_TAGS: dict[str, tuple[str, ...]] = {
    "Yushino": ("Layout", "Direction"),
    "Super Wild": ("Diagonals", "Deal"),
    "Holominoes": ("Pool", "Digits", "Scoring", "Start"),
}

#: Longest wait the table accepts (seconds): a still board or an auto end past ten minutes is a typo.
MAX_WAIT_SECONDS = 600.0


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
        table_game: the game read as a layout (a key of :data:`GAME_TAGS`), None for MODLINSEQ.
        game_tags: that game's own transcript tags (name, value), e.g. ``(("Layout", "classic"),)``.
    """

    game: Settings = field(default_factory=Settings)
    still_seconds: float = 0.5
    auto_end_seconds: float | None = None
    tileset: str = "modlinseq"
    table_game: str | None = None
    game_tags: tuple[tuple[str, str], ...] = ()

    @property
    def header_tags(self) -> tuple[tuple[str, str], ...]:
        """A layout-read game's transcript tags: Game, Players, then its own (empty for MODLINSEQ)."""
        if self.table_game is None:
            return ()
        return (("Game", self.table_game), ("Players", ", ".join(self.game.players)), *self.game_tags)

    def __post_init__(self) -> None:
        if not 0 <= self.still_seconds <= MAX_WAIT_SECONDS:
            raise ValueError(f"still_seconds must be 0 to {MAX_WAIT_SECONDS}, got {self.still_seconds!r}")
        if self.auto_end_seconds is not None and not 0 < self.auto_end_seconds <= MAX_WAIT_SECONDS:
            raise ValueError(f"auto_end_seconds must be above 0 and at most {MAX_WAIT_SECONDS}, or None, "
                             f"got {self.auto_end_seconds!r}")
        if self.table_game is not None:
            if self.table_game not in GAME_TAGS:
                raise ValueError(f"game {self.table_game!r} is not one of {', '.join(GAME_TAGS)}")
            unknown = [k for k, _ in self.game_tags if k not in GAME_TAGS[self.table_game]]
            if unknown:
                raise ValueError(f"{self.table_game} has no tag {unknown[0]!r}; its tags: "
                                 f"{', '.join(GAME_TAGS[self.table_game])}")
            header = "\n".join(format_tags(list(self.header_tags))) + "\n"
            replay = rules_for(self.table_game).replay_text(header)  # ValueError: tags that make no game
            if replay.errors:
                raise ValueError(replay.errors[0].message)
        elif self.game_tags:
            raise ValueError("game tags are for Yushino, Super Wild and Holominoes")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (the journal stores it with each game)."""
        out = {
            **self.game.to_dict(),
            "still_seconds": self.still_seconds,
            "auto_end_seconds": self.auto_end_seconds,
            "tileset": self.tileset,
        }
        if self.table_game is not None:
            out.update({"game": self.table_game, "tags": dict(self.game_tags)})
        return out

    @classmethod
    def of_transcript(cls, text: str, still_seconds: float = 0.5) -> TableSettings:
        """The settings of the layout-read game a transcript records: its Game, Players and the game's
        own tags (:data:`GAME_TAGS`; others, e.g. Super Wild's Racks, are not the table's to know).

        Raises:
            SettingsError: not a Yushino, Super Wild or Holominoes transcript, or tags that make no
                game.
        """
        tags, lines, _ = read_record(text)
        table_game = _table_game(tag_value(tags, "Game") or "")
        if table_game is None:
            raise SettingsError(f"transcript of {tag_value(tags, 'Game')!r}: not {', '.join(GAME_TAGS)}")
        own = {t.name.lower(): t.value for t in tags}
        data = {
            "game": table_game,
            "players": list(players_of(tags, lines)),
            "tags": {k: own[k.lower()] for k in GAME_TAGS[table_game] if k.lower() in own},
            "still_seconds": still_seconds,
        }
        return cls.from_dict(data, "the transcript's tags")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "settings") -> TableSettings:
        """The settings from a dictionary as written by :meth:`to_dict` or read from a TOML file.

        Missing keys take their defaults; ``order`` and ``board_order`` both name the board order.

        Raises:
            SettingsError: an unknown key or a bad value; the message names ``where`` and the key.
        """
        known = {"game", "modulus", "order", "board_order", "dropped", "wild", "hash_swap", "marker",
                 "bonus", "tiles_per_value", "players", "still_seconds", "auto_end_seconds", "tileset",
                 "tags"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise SettingsError(f"{where}: unknown key(s) {unknown}; known: {sorted(known)}")
        defaults = Settings()
        for key in ("hash_swap", "marker"):
            if not isinstance(data.get(key, False), bool):
                raise SettingsError(f"{where}: {key} must be true or false, got {data[key]!r}")
        for key in ("players", "dropped"):
            if not isinstance(data.get(key, []), list | tuple):
                raise SettingsError(f"{where}: {key} must be a list, got {data[key]!r}")
        if not isinstance(data.get("tags", {}), Mapping):
            raise SettingsError(f"{where}: tags must be a table of tag = value, got {data['tags']!r}")
        table_game = _table_game(str(data.get("game", defaults.game)))
        tags = tuple((str(k), str(v)) for k, v in data.get("tags", {}).items())
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
                game=defaults.game if table_game else str(data.get("game", defaults.game)),
            )
            auto = data.get("auto_end_seconds")
            return cls(
                game=game,
                still_seconds=float(data.get("still_seconds", 0.5)),
                auto_end_seconds=None if auto is None else float(auto),
                tileset=str(data.get("tileset", "modlinseq")),
                table_game=table_game,
                game_tags=tags,
            )
        except (TypeError, ValueError, OverflowError) as exc:
            raise SettingsError(f"{where}: {exc}") from exc


def _table_game(name: str) -> str | None:
    """The layout-read game ``name`` names (any spelling games.md allows), None for another game."""
    try:
        known = canonical_name(name)
    except ValueError:
        return None  # a ruleset of MODLINSEQ (engine.ruleset checks it)
    return known if known in GAME_TAGS else None


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
            data = tomllib.loads(read_text(path))
        except InputFileError as exc:
            raise SettingsError(f"settings file {exc}") from exc
        except ValueError as exc:  # tomllib.TOMLDecodeError, or a number too long for Python's int
            raise SettingsError(f"settings file {str(path)!r}: {exc}") from exc
        where = f"settings file {str(path)!r} (or the command line)"
    data.update({k: v for k, v in overrides.items() if v is not None})
    return TableSettings.from_dict(data, where)
