"""A game of MODLINSEQ: players in turn order, scores, history, passes and frozen players (§3).

:class:`Game` holds the full game state over a placement-only :class:`engine.position.Position`.
``evaluate(placements)`` judges a turn without committing it (what the live display shows);
``play(placements)`` commits it or raises :class:`engine.errors.IllegalTurnError`; ``pass_turn()``
and ``freeze()`` (§3-3: a frozen player keeps their points and takes no further turns) end a turn
without tiles; ``undo()`` takes back the last turn. ``diff(observed)`` compares a reading of the
board (e.g. from the camera) with the committed position and returns the candidate turn.

Rules come from a :class:`engine.ruleset.Ruleset` chosen by ``settings.game`` (MODLINSEQ by default).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import cast

from engine.cells import cell_sort_key
from engine.errors import RULE_FROZEN, RULE_GAME_OVER, RULE_TURN_ORDER, IllegalTurnError, RuleViolation
from engine.hexgrid import Hex
from engine.position import Position
from engine.rules import TurnResult
from engine.ruleset import Ruleset, ruleset_for
from engine.settings import Settings
from engine.state import BoardState
from engine.tiles import Placement, Tile

PLAY, PASS, FREEZE = "play", "pass", "freeze"


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One committed turn.

    Attributes:
        number: 1-based turn number.
        player: who took the turn.
        kind: "play", "pass" or "freeze".
        result: the verdict for a play, None for a pass or a freeze.
    """

    number: int
    player: str
    kind: str
    result: TurnResult | None = None

    def __post_init__(self) -> None:
        if self.kind not in (PLAY, PASS, FREEZE) or (self.kind == PLAY) != (self.result is not None):
            raise ValueError(f"a play carries its result, a pass or freeze none: {self.kind!r}")

    @property
    def placements(self) -> tuple[Placement, ...]:
        """The placements of a play, empty otherwise."""
        return self.result.placements if self.result is not None else ()

    @property
    def score(self) -> int:
        """Points scored in this turn."""
        return self.result.score if self.result is not None else 0


@dataclass(frozen=True, slots=True)
class PositionDiff:
    """What differs between an observed board and the committed position.

    Attributes:
        placements: tiles on cells that were empty, plus (under the hash swap) naturals on cells
            that held a wild tile: the candidate turn.
        vanished: cells that held a tile and now look empty.
        changed: cells whose tile looks different (other than a hash swap).
    """

    placements: tuple[Placement, ...] = ()
    vanished: tuple[Hex, ...] = ()
    changed: tuple[Hex, ...] = field(default=())

    @property
    def is_clean(self) -> bool:
        """True when the observation only adds tiles (nothing vanished or changed)."""
        return not self.vanished and not self.changed

    @property
    def is_empty(self) -> bool:
        """True when the observation matches the committed position."""
        return self.is_clean and not self.placements


@dataclass(slots=True)
class _Snapshot:
    state: BoardState
    scores: dict[str, int]
    current: int
    frozen: frozenset[str]


class Game:
    """A game in progress (§3).

    Args:
        settings: the agreed settings; the starting position holds the modulus marker on A0 when
            ``settings.marker`` (§8).
        position: a starting position other than the usual one (e.g. for a puzzle); checked.

    Raises:
        ValueError: the starting position breaks the modular-linear rule or lies off the board.
    """

    def __init__(self, settings: Settings, position: Position | None = None) -> None:
        self.settings = settings
        self.ruleset: Ruleset = ruleset_for(settings.game)
        if position is None:
            position = self.ruleset.initial_position(settings)
        self._state = self.ruleset.prepare(settings, position)
        self._scores = dict.fromkeys(settings.players, 0)
        self._current = 0
        self._frozen: frozenset[str] = frozenset()
        self._history: list[TurnRecord] = []
        self._undo: list[_Snapshot] = []
        self._legal_cache: dict[Hex, frozenset[int]] | None = None

    # -- state ---------------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        """Player names in turn order."""
        return self.settings.players

    @property
    def current_player(self) -> str:
        """Whose turn it is (never a frozen player while the game is on)."""
        return self.players[self._current]

    @property
    def scores(self) -> dict[str, int]:
        """Points per player (a copy)."""
        return dict(self._scores)

    @property
    def position(self) -> Position:
        """The committed position."""
        return self._state.position

    @property
    def state(self) -> BoardState:
        """The committed position prepared for the rules (values, wild domains, blocked cells)."""
        return self._state

    @property
    def history(self) -> tuple[TurnRecord, ...]:
        """Every committed turn, in order."""
        return tuple(self._history)

    @property
    def frozen(self) -> frozenset[str]:
        """Frozen players (§3-3)."""
        return self._frozen

    @property
    def is_over(self) -> bool:
        """True when every player has frozen (§3-3)."""
        return len(self._frozen) == len(self.players)

    def winners(self) -> list[str]:
        """The players with the most points (more than one on a tie)."""
        best = max(self._scores.values())
        return [p for p in self.players if self._scores[p] == best]

    def blocked_cells(self) -> frozenset[Hex]:
        """Empty cells where no value can ever be legal (§2-2)."""
        return self._state.blocked_cells()

    def legal_values(self) -> dict[Hex, frozenset[int]]:
        """Legal values of every empty cell of the board (§2-2), cached until the next turn."""
        if self._legal_cache is None:
            self._legal_cache = self._state.legal_values()
        return dict(self._legal_cache)

    def wild_values(self) -> dict[Hex, frozenset[int]]:
        """Every wild tile's possible values (one value when resolved, §7-2, §7-3)."""
        return dict(self._state.domains)

    # -- turns ---------------------------------------------------------------------------------
    def evaluate(self, placements: Iterable[Placement]) -> TurnResult:
        """Judge a turn by the current player without committing it.

        Returns:
            The verdict (legal?, the rule broken and its cells, score, sequences, blocked cells).
        """
        return self.ruleset.evaluate(self._state, tuple(placements))[0]

    def play(self, placements: Iterable[Placement], player: str | None = None) -> TurnResult:
        """Commit a turn by the current player.

        Args:
            placements: the tiles installed.
            player: if given, must be the current player.

        Raises:
            IllegalTurnError: the turn breaks a rule (``.violation`` names it and the cells), the
                game is over, or ``player`` is not the current player.
        """
        self._check_player(player)
        result, after = self.ruleset.evaluate(self._state, tuple(placements))
        if after is None:  # illegal: evaluate_turn returns a state exactly for legal turns
            raise IllegalTurnError(cast(RuleViolation, result.error))
        self._commit(PLAY, after, result)
        return result

    def pass_turn(self, player: str | None = None) -> None:
        """The current player installs nothing this turn (§3-3).

        Raises:
            IllegalTurnError: the game is over, or ``player`` is not the current player.
        """
        self._check_player(player)
        self._commit(PASS, self._state, None)

    def freeze(self, player: str | None = None) -> None:
        """The current player freezes: keeps their points and takes no further turns (§3-3).

        Raises:
            IllegalTurnError: the game is over, or ``player`` is not the current player.
        """
        self._check_player(player)
        self._commit(FREEZE, self._state, None)

    def undo(self) -> TurnRecord:
        """Take back the last committed turn.

        Raises:
            IndexError: no turn to take back.
        """
        if not self._history:
            raise IndexError("no turn to undo")
        snap = self._undo.pop()
        self._state, self._scores, self._current, self._frozen = (
            snap.state,
            snap.scores,
            snap.current,
            snap.frozen,
        )
        self._legal_cache = None
        return self._history.pop()

    def _check_player(self, player: str | None) -> None:
        if self.is_over:
            raise IllegalTurnError(RuleViolation(RULE_GAME_OVER, (), "every player has frozen"))
        if player is not None and player != self.current_player:
            rule = RULE_FROZEN if player in self._frozen else RULE_TURN_ORDER
            raise IllegalTurnError(
                RuleViolation(rule, (), f"it is {self.current_player}'s turn, not {player!r}'s")
            )

    def _commit(self, kind: str, after: BoardState, result: TurnResult | None) -> None:
        player = self.current_player
        self._undo.append(_Snapshot(self._state, dict(self._scores), self._current, self._frozen))
        self._history.append(TurnRecord(len(self._history) + 1, player, kind, result))
        self._state = after
        self._legal_cache = None
        if result is not None:
            self._scores[player] += result.score
        if kind == FREEZE:
            self._frozen = self._frozen | {player}
        self._advance()

    def _advance(self) -> None:
        if self.is_over:
            return
        n = len(self.players)
        for step in range(1, n + 1):
            nxt = (self._current + step) % n
            if self.players[nxt] not in self._frozen:
                self._current = nxt
                return

    # -- camera readings -----------------------------------------------------------------------
    def diff(self, observed: Mapping[Hex, Tile]) -> PositionDiff:
        """Compare an observed board with the committed position.

        A wild tile matches any wild tile (a declared value is not visible); the modulus marker
        matches a 0. Under the hash swap a natural seen where a wild tile was is a placement.

        Args:
            observed: cell -> tile as read from the board (empty cells absent).

        Returns:
            The candidate placements (sorted by coordinates, which is line order west to east,
            south-west to north-east or north-west to south-east when they lie on one line, as the
            seeds' transcripts write them), the cells whose tiles vanished and the cells whose tiles
            changed otherwise (in address order).
        """
        return _diff(self.position, observed, self.settings.hash_swap)

    def diff_before_last(self, observed: Mapping[Hex, Tile]) -> PositionDiff | None:
        """Compare an observed board with the position before the last committed turn, as
        :meth:`diff` does: what the board means if the players lifted that turn's tiles.

        Returns:
            The diff, or None when the last turn is not a play (or there is none).
        """
        if not self._history or self._history[-1].kind != PLAY:
            return None
        return _diff(self._undo[-1].state.position, observed, self.settings.hash_swap)


def _diff(committed: Position, observed: Mapping[Hex, Tile], hash_swap: bool) -> PositionDiff:
    """See :meth:`Game.diff`."""
    placements, vanished, changed = [], [], []
    for cell, old in committed.items():
        new = observed.get(cell)
        if new is None:
            vanished.append(cell)
        elif not old.same_face(new):
            if hash_swap and old.is_wild and new.is_natural:
                placements.append(Placement(cell, new))
            else:
                changed.append(cell)
    for cell, new in observed.items():
        if cell not in committed:
            placements.append(Placement(cell, new))
    placements.sort()  # Hex order: along the line when the tiles lie on one (as in §2-1)
    vanished.sort(key=cell_sort_key)
    changed.sort(key=cell_sort_key)
    return PositionDiff(tuple(placements), tuple(vanished), tuple(changed))
