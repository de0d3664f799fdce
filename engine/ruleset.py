"""The interface a game's rules implement, so other games can be added as modules.

A :class:`Ruleset` knows how to start a position, prepare a position for its checks and judge a
turn. MODLINSEQ (§1-3, §7-9) is the one shipped; another game (Yushino, Holominoes, ...) adds a
module with a class of the same shape and one entry in :data:`RULESETS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.cells import board_centre
from engine.position import Position
from engine.rules import TurnResult, evaluate_turn
from engine.settings import Settings
from engine.state import BoardState
from engine.tiles import Placement


class Ruleset(Protocol):
    """The rules of one game."""

    name: str

    def initial_position(self, settings: Settings) -> Position:
        """The position before the first turn."""
        ...

    def prepare(self, settings: Settings, position: Position) -> BoardState:
        """A position ready for :meth:`evaluate`; raises ValueError for an impossible position."""
        ...

    def evaluate(
        self, state: BoardState, placements: Sequence[Placement]
    ) -> tuple[TurnResult, BoardState | None]:
        """Judge a turn: the verdict, and the state after it (None when illegal)."""
        ...


class Modlinseq:
    """MODLINSEQ (Dave Barber): modular-linear sequences on a hex board (§1-3, §7-9)."""

    name = "MODLINSEQ"

    def initial_position(self, settings: Settings) -> Position:
        """Empty, or the modulus marker on A0 (§8)."""
        return Position.with_marker(board_centre(settings.board)) if settings.marker else Position()

    def prepare(self, settings: Settings, position: Position) -> BoardState:
        """See :meth:`engine.state.BoardState.build` (raises ValueError)."""
        return BoardState.build(settings, position)

    def evaluate(
        self, state: BoardState, placements: Sequence[Placement]
    ) -> tuple[TurnResult, BoardState | None]:
        """See :func:`engine.rules.evaluate_turn`."""
        return evaluate_turn(state, placements)


#: Ruleset by game name (the transcript's ``[Game "..."]`` tag).
RULESETS: dict[str, Ruleset] = {"MODLINSEQ": Modlinseq()}


def ruleset_for(name: str) -> Ruleset:
    """The ruleset of a game by name (case-insensitive).

    Raises:
        ValueError: no ruleset of that name.
    """
    for key, ruleset in RULESETS.items():
        if key.lower() == name.lower():
            return ruleset
    raise ValueError(f"unknown game {name!r}; known games: {', '.join(RULESETS)}")
