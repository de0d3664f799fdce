"""The settings of one game: one value, written into the transcript header (§3-1, §7-9).

Fields: the modulus, the board (order or a truncated shape), the wild-tile policy of §7-2 (None when
the set has no wild tiles, else "A".."E"), the hash swap of §7-4, the modulus marker of §8, the bonus
pattern of §9 (None, "9A" or "9B"), the tiles per value of the set (§1-3), and the players in turn
order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.bonus import BONUS_PATTERNS
from engine.hexgrid import ORIGIN, Board, format_address
from engine.limits import MAX_MODULUS, MAX_NAME, MAX_PLAYERS, MAX_TILES_PER_VALUE

WILD_POLICIES = ("A", "B", "C", "D", "E")


def is_prime(n: int) -> bool:
    """True when ``n`` is a prime number."""
    return n >= 2 and all(n % p for p in range(2, int(n**0.5) + 1))


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the players agree on before a game (§3-1).

    Attributes:
        modulus: the modulus m; tiles carry values 0..m-1 (§1-3).
        board: the board's cells (default: the regular hexagon of order 9).
        wild_policy: None (no wild tiles) or the §7-2 policy "A".."E" for resolving wild values.
        hash_swap: whether the hash swap of §7-4 is allowed (needs wild tiles).
        marker: whether the modulus marker sits on A0 from the start (§8).
        bonus: None, "9A" (bonus cells, §9-1) or "9B" (bonus/malus rings, §9-3).
        tiles_per_value: tiles of each value in the set (§1-3), None for no limit.
        players: player names in turn order.
        game: the ruleset's name (see engine.ruleset).

    Raises:
        ValueError: any field out of range (the message names the field and value); the limits
            are engine.limits'.
    """

    modulus: int = 13
    board: Board = field(default_factory=lambda: Board.hexagon(9))
    wild_policy: str | None = None
    hash_swap: bool = False
    marker: bool = False
    bonus: str | None = None
    tiles_per_value: int | None = 10
    players: tuple[str, ...] = ("Player 1", "Player 2")
    game: str = "MODLINSEQ"

    def __post_init__(self) -> None:
        if not isinstance(self.modulus, int) or not 1 <= self.modulus <= MAX_MODULUS:
            raise ValueError(f"modulus must be an integer from 1 to {MAX_MODULUS}, got {self.modulus!r}")
        if not isinstance(self.board, Board):
            raise ValueError(f"board must be an engine.hexgrid.Board, got {self.board!r}")
        if self.wild_policy not in (None, *WILD_POLICIES):
            raise ValueError(f"wild policy must be None or one of {WILD_POLICIES}, got {self.wild_policy!r}")
        if self.wild_policy == "B" and not is_prime(self.modulus):
            raise ValueError(f"wild policy B needs a prime modulus (§7-2 B), got modulus {self.modulus}")
        if self.hash_swap and self.wild_policy is None:
            raise ValueError("the hash swap (§7-4) needs wild tiles: set a wild policy")
        if self.bonus not in (None, *BONUS_PATTERNS):
            raise ValueError(f"bonus pattern must be None or one of {BONUS_PATTERNS}, got {self.bonus!r}")
        tiles = self.tiles_per_value
        if tiles is not None and (not isinstance(tiles, int) or not 1 <= tiles <= MAX_TILES_PER_VALUE):
            raise ValueError(f"tiles per value must be 1 to {MAX_TILES_PER_VALUE} or None, got {tiles!r}")
        if not self.players:
            raise ValueError("a game needs at least one player")
        if len(self.players) > MAX_PLAYERS:
            raise ValueError(f"a game has at most {MAX_PLAYERS} players, got {len(self.players)}")
        for name in self.players:
            if not isinstance(name, str) or not name.strip() or any(ch in name for ch in ',:{}[]"'):
                raise ValueError(f"player name {name!r} must be non-empty without , : {{ }} [ ] or quotes")
            if len(name) > MAX_NAME or not name.isprintable():
                raise ValueError(f"player name {name!r} must be at most {MAX_NAME} printable characters")
        if len(set(self.players)) != len(self.players):
            raise ValueError(f"player names must be distinct, got {self.players!r}")
        if self.marker and ORIGIN not in self.board.cells:
            raise ValueError("the modulus marker goes on A0, which this board lacks")

    @property
    def dropped(self) -> list[str]:
        """Addresses of the order's hexagon that this board drops (truncation, §1-2)."""
        full = Board.hexagon(self.board.order)
        return [format_address(c) for c in full if c not in self.board.cells]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary of the settings (the board as order and dropped cells)."""
        return {
            "game": self.game,
            "modulus": self.modulus,
            "order": self.board.order,
            "dropped": self.dropped,
            "wild": self.wild_policy,
            "hash_swap": self.hash_swap,
            "marker": self.marker,
            "bonus": self.bonus,
            "tiles_per_value": self.tiles_per_value,
            "players": list(self.players),
        }
