"""The engine's error family and the rule-violation value (§2-2, §3-2, §3-3, §7, §10-12).

- :class:`RuleViolation`: a broken rule as data (rule section, cells, message), carried by an
  illegal :class:`engine.rules.TurnResult`.
- :class:`Violation`: a broken rule of Yushino, Super Wild or Holominoes (rule, places as text,
  message).
- :class:`IllegalTurnError`: raised by every game's ``Game.play`` for an illegal turn; carries the
  violation.
- :class:`TranscriptError`: a transcript problem with its line and column; the reader collects
  these instead of raising (engine.transcript).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.cells import Cell, format_cell

#: Rule identifiers: the section of the rules (or variations) a turn breaks.
RULE_AT_LEAST_ONE_TILE = "§3-2 at least one tile"
RULE_ON_BOARD = "§1-2 cell on the board"
RULE_VALUE_BELOW_MODULUS = "§1-3 value below the modulus"
RULE_ONE_TILE_PER_CELL = "§3-2 one tile per cell"
RULE_EMPTY_CELL = "§3-2 empty cell"
RULE_STRAIGHT_LINE = "§3-2 one straight line"
RULE_UNBROKEN_RUN = "§3-2 one unbroken run"
RULE_FIRST_TURN_A0 = "§3-3 first turn covers A0"
RULE_ABUT = "§3-3 abut an old tile"
RULE_MODULAR_LINEAR = "§2-2 modular-linear"
RULE_NO_WILDS = "§7-1 wild tiles not in play"
RULE_WILD_POLICY = "§7-2 wild value resolution"
RULE_HASH_SWAP = "§7-4 hash swap"
RULE_MARKER = "§8 modulus marker"
RULE_TURN_ORDER = "§3-3 turn order"
RULE_FROZEN = "§3-3 frozen player"
RULE_GAME_OVER = "§3-3 game over"
RULE_FIBONACCI = "§10 fibonacciësque"
RULE_ADDITION_DIRECTION = "§10 addition direction"
RULE_MULTIPLICATIVE = "§11 multiplicative"
RULE_FACTOR_DIRECTION = "§11 factor direction"
RULE_NO_ZERO = "§11 no tiles bearing 0"
RULE_ACROSS_EDGE = "§12 line across an edge"
RULE_LOOP = "§12 loop"


@dataclass(frozen=True, slots=True)
class RuleViolation:
    """A rule broken by a turn.

    Attributes:
        rule: the rule identifier, one of the ``RULE_*`` constants (section and short name).
        cells: the cells involved, in board order along the offending line where there is one.
        message: a sentence naming the offending input.
    """

    rule: str
    cells: tuple[Cell, ...]
    message: str

    def __post_init__(self) -> None:
        if not self.rule or not self.message:
            raise ValueError(f"a rule violation needs a rule and a message, got {self.rule!r}")

    @property
    def addresses(self) -> list[str]:
        """The cells as addresses (``["B2", "M1"]``)."""
        return [format_cell(c) for c in self.cells]

    def __str__(self) -> str:
        where = f" at {', '.join(self.addresses)}" if self.cells else ""
        return f"{self.rule}{where}: {self.message}"


@dataclass(frozen=True, slots=True)
class Violation:
    """A rule broken by a turn, for any game.

    Attributes:
        rule: the rule's identifier: the seed's section and a short name (``"§3 one row or column"``).
        places: the cells, positions or tiles involved, in the game's notation (``["H8", "H9"]``,
            ``["3,0"]``, ``["132@1,0"]``).
        message: a sentence naming the offending input.
    """

    rule: str
    places: tuple[str, ...]
    message: str

    def __post_init__(self) -> None:
        if not self.rule or not self.message:
            raise ValueError(f"a rule violation needs a rule and a message, got {self.rule!r}")

    def to_json(self) -> dict[str, Any]:
        """``{"rule", "cells", "message"}``: the shape of MODLINSEQ's ``score --json`` errors."""
        return {"rule": self.rule, "cells": list(self.places), "message": self.message}

    def __str__(self) -> str:
        where = f" at {', '.join(self.places)}" if self.places else ""
        return f"{self.rule}{where}: {self.message}"


class IllegalTurnError(ValueError):
    """A turn broke a rule; ``violation`` says which rule and where (a :class:`RuleViolation` on
    MODLINSEQ's hex board, a :class:`Violation` in the other games)."""

    def __init__(self, violation: RuleViolation | Violation) -> None:
        super().__init__(str(violation))
        self.violation = violation

    @property
    def rule(self) -> str:
        """The broken rule's identifier."""
        return self.violation.rule

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The board cells involved (MODLINSEQ; empty for the other games)."""
        return self.violation.cells if isinstance(self.violation, RuleViolation) else ()

    def as_violation(self) -> Violation:
        """The broken rule with its places as text, whatever the game."""
        v = self.violation
        return Violation(v.rule, tuple(v.addresses), v.message) if isinstance(v, RuleViolation) else v


class TranscriptError(ValueError):
    """A problem in a transcript text, at a 1-based line and column.

    Attributes:
        line: 1-based line number (0 when the problem has no single place, e.g. a missing tag).
        column: 1-based column (0 when unknown).
        message: what is wrong, quoting the offending text.
    """

    def __init__(self, line: int, column: int, message: str) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.line = line
        self.column = column
        self.message = message

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TranscriptError):
            return NotImplemented
        return (self.line, self.column, self.message) == (other.line, other.column, other.message)

    def __hash__(self) -> int:
        return hash((self.line, self.column, self.message))
