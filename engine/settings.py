"""The settings of one game: one value, written into the transcript header (§3-1, §7-12).

Fields: the modulus, the board (a hex board of some order, possibly truncated, or a rectangular
board, wrapping or not, §12), the sequence law (§2, §10, §11), the wild-tile policy of §7-2 (None
when the set has no wild tiles, else "A".."E"), the hash swap of §7-4, the modulus marker of §8, the
bonus pattern of §9 (None, "9A" or "9B"), the loop bonus of §12, the tiles per value of the set
(§1-3), and the players in turn order.

How the variations combine (refused combinations raise ValueError with the reason):

- §11 multiplicative needs a prime modulus unless ``composite`` allows others; it has no tiles
  bearing 0, so no modulus marker (§8, a 0 on A0) either.
- Wild tiles (§7) work with every law: the solver finds the values that make every line a
  sequence of the law. Policy B is refused under §10 and §11, where two naturals apart need not
  settle a wild tile's value as they do for a §2 sequence with a prime modulus; policy A is refused
  under §11 with a composite modulus, where two adjacent naturals need not settle the factor.
- Bonus and malus cells (§9) are laid out by hex addresses: refused on a rectangular board. The
  modulus marker goes on a rectangular board's centre cell.
- A loop bonus (§12) needs a wrapping board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.bonus import BONUS_PATTERNS
from engine.cells import AnyBoard
from engine.hexgrid import Board, Hex, format_address
from engine.laws import FIBONACCI, LINEAR, MULTIPLICATIVE, SEQUENCE_KINDS, Law, is_prime, law_of
from engine.limits import MAX_MODULUS, MAX_PLAYERS, MAX_TILES_PER_VALUE
from engine.record import check_player_names
from engine.squaregrid import RectBoard

WILD_POLICIES = ("A", "B", "C", "D", "E")
#: Largest loop bonus (§12), in points.
MAX_LOOP_BONUS = 1000

__all__ = ["WILD_POLICIES", "Settings", "is_prime"]


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the players agree on before a game (§3-1).

    Attributes:
        modulus: the modulus m; tiles carry values 0..m-1 (§1-3).
        board: the board's cells (default: the regular hexagon of order 9), or a rectangular board
            (engine.squaregrid.RectBoard, §12).
        sequence: the sequence law: "linear" (§2), "fibonacci" (§10) or "multiplicative" (§11).
        composite: under §11, allow a modulus that is not prime.
        loop_bonus: points added to a sequence that a turn closes into a loop (§12; 0: none).
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
    board: AnyBoard = field(default_factory=lambda: Board.hexagon(9))
    wild_policy: str | None = None
    hash_swap: bool = False
    marker: bool = False
    bonus: str | None = None
    tiles_per_value: int | None = 10
    players: tuple[str, ...] = ("Player 1", "Player 2")
    game: str = "MODLINSEQ"
    sequence: str = LINEAR
    composite: bool = False
    loop_bonus: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.modulus, int) or not 1 <= self.modulus <= MAX_MODULUS:
            raise ValueError(f"modulus must be an integer from 1 to {MAX_MODULUS}, got {self.modulus!r}")
        if not isinstance(self.board, (Board, RectBoard)):
            raise ValueError(f"board must be a hex Board or a RectBoard, got {self.board!r}")
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
        check_player_names(self.players)
        if self.marker and isinstance(self.board, Board) and Hex(0, 0) not in self.board.cells:
            raise ValueError("the modulus marker goes on A0, which this board lacks")
        self._check_variations()

    def _check_variations(self) -> None:
        """The combinations of §10-12 with the rest (module docstring)."""
        if self.sequence not in SEQUENCE_KINDS:
            raise ValueError(f"sequence must be one of {', '.join(SEQUENCE_KINDS)}, got {self.sequence!r}")
        mult = self.sequence == MULTIPLICATIVE
        if self.composite and not mult:
            raise ValueError("composite moduli are a setting of the multiplicative variation (§11) only")
        if mult and not self.composite and not is_prime(self.modulus):
            raise ValueError(
                f"multiplicative sequences (§11) need a prime modulus, got {self.modulus} "
                '(allow composite moduli with [Composite "yes"])'
            )
        if mult and self.marker:
            raise ValueError("the modulus marker (§8) is a 0, and multiplicative sets (§11) have no 0")
        if self.wild_policy == "B" and self.sequence in (FIBONACCI, MULTIPLICATIVE):
            raise ValueError(
                f"wild policy B (§7-2) does not settle wild values of {self.sequence} sequences: "
                "use A, C, D or E"
            )
        if self.wild_policy == "A" and mult and not is_prime(self.modulus):
            raise ValueError(
                "wild policy A (§7-2) does not settle the factor under a composite modulus (§11)"
            )
        board = self.board
        rect = isinstance(board, RectBoard)
        if rect and self.bonus is not None:
            raise ValueError("bonus patterns (§9) are laid out on hex boards, not on a rectangular board")
        if not isinstance(self.loop_bonus, int) or not 0 <= self.loop_bonus <= MAX_LOOP_BONUS:
            raise ValueError(f"loop bonus must be 0..{MAX_LOOP_BONUS} points, got {self.loop_bonus!r}")
        if self.loop_bonus and not (isinstance(board, RectBoard) and board.wrap):
            raise ValueError("a loop bonus (§12) needs a wrapping rectangular board")

    @property
    def law(self) -> Law:
        """The sequence law under the modulus (engine.laws)."""
        return law_of(self.sequence, self.modulus)

    @property
    def dropped(self) -> list[str]:
        """Addresses of the order's hexagon that this board drops (truncation, §1-2)."""
        if isinstance(self.board, RectBoard):
            return []
        full = Board.hexagon(self.board.order)
        return [format_address(c) for c in full if c not in self.board.cells]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary of the settings (the board as order and dropped cells).

        The keys of §10-12 appear only when they differ from the defaults, so that a plain game's
        dictionary keeps its keys: ``sequence``, ``composite``, ``loop_bonus``, and for a
        rectangular board ``board`` (``"rect 12x8"``), ``wrap`` and ``diagonals`` (``order`` None).
        """
        board = self.board
        rect = board if isinstance(board, RectBoard) else None
        out: dict[str, Any] = {
            "game": self.game,
            "modulus": self.modulus,
            "order": board.order if isinstance(board, Board) else None,
            "dropped": self.dropped,
            "wild": self.wild_policy,
            "hash_swap": self.hash_swap,
            "marker": self.marker,
            "bonus": self.bonus,
            "tiles_per_value": self.tiles_per_value,
            "players": list(self.players),
        }
        if self.sequence != LINEAR:
            out["sequence"] = self.sequence
        if self.composite:
            out["composite"] = True
        if rect is not None:
            out.update(board=rect.tag(), wrap=rect.wrap, diagonals=rect.diagonals)
        if self.loop_bonus:
            out["loop_bonus"] = self.loop_bonus
        return out
