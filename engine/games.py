"""The four games behind one interface: replay a transcript, list legal moves, hint, random games.

Each game is a module (or package) with an object of the shape :class:`GameRules`, registered in
:data:`GAME_MODULES` by its ``[Game "..."]`` tag name and imported only when asked for. The
command line (``tilescribe score``, ``tilescribe hint``), the benchmarks and the tests reach every
game through :func:`rules_for`; values that the camera and the kiosk need (positions, legal
placements) stay in each game's own types.

Names are matched as games.md says: in any case, with a space, hyphen or underscore alike, or none
(``Super Wild``, ``super-wild``, ``superwild``).
"""

from __future__ import annotations

import importlib
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from engine.errors import TranscriptError, Violation

#: The module holding each game's :class:`GameRules` object (as its attribute ``RULES``).
GAME_MODULES: dict[str, str] = {
    "MODLINSEQ": "engine.modlinseq_rules",
    "Yushino": "engine.yushino",
    "Super Wild": "engine.superwild",
    "Holominoes": "engine.holominoes",
}
#: The games played without a board, their tiles lying on the bare table (games.md).
TABLE_GAMES: tuple[str, ...] = ("Super Wild", "Holominoes")

#: Tokens a hint or a turn may use: the longest rack a caller may name.
MAX_RACK = 64

#: The players of seeded random games, in turn order (the first ``players`` of them).
RANDOM_PLAYERS = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kai", "Lu")


@dataclass(frozen=True, slots=True)
class TurnReport:
    """One replayed turn of any game.

    Attributes:
        number: 1-based turn number.
        player: who took it.
        kind: the game's kind of turn: "play", "pass", "freeze", "exchange", "draw".
        moves: the turn's moves in the game's notation (``["3G8", "4H8"]``, ``["R7@3,0>3,1"]``).
        legal: whether the turn was legal (an illegal turn is reported and not applied).
        error: why it was not applied, None when legal.
        score: points the turn scored (0 for an illegal turn).
        details: JSON-ready extras of the game (sequences, holes closed, the table and its groups,
            blocked cells...).
    """

    number: int
    player: str
    kind: str
    moves: tuple[str, ...]
    legal: bool
    error: Violation | None
    score: int
    details: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.legal != (self.error is None):
            raise ValueError(f"turn {self.number}: a legal turn has no error and an illegal one has one")

    def to_json(self) -> dict[str, Any]:
        """The turn in ``score --json``'s shape: number, player, kind, placements, legal, error,
        score, then the details."""
        return {
            "number": self.number,
            "player": self.player,
            "kind": self.kind,
            "placements": list(self.moves),
            "legal": self.legal,
            "error": None if self.error is None else self.error.to_json(),
            "score": self.score,
            **self.details,
        }


@dataclass(frozen=True, slots=True)
class Replay:
    """A whole transcript replayed.

    Attributes:
        settings: the game's settings, JSON-ready, with ``"game"`` first.
        turns: every turn with its verdict.
        scores: points by player, in turn order (after the end-of-game adjustments, if over).
        errors: the transcript's syntax errors (each with line and column), kept in line and column
            order.
        final: JSON-ready end-of-game facts: ``"over"`` (bool), and where the game has them the
            winner, adjustments, trophies...
    """

    settings: Mapping[str, Any]
    turns: tuple[TurnReport, ...]
    scores: Mapping[str, int]
    errors: tuple[TranscriptError, ...] = ()
    final: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "errors", tuple(sorted(self.errors, key=lambda e: (e.line, e.column))))

    @property
    def is_legal(self) -> bool:
        """True when every turn was legal."""
        return all(t.legal for t in self.turns)

    def to_json(self) -> dict[str, Any]:
        """``{"settings", "turns", "scores", "errors", "final"}``."""
        return {
            "settings": dict(self.settings),
            "turns": [t.to_json() for t in self.turns],
            "scores": dict(self.scores),
            "errors": [{"line": e.line, "column": e.column, "message": e.message} for e in self.errors],
            "final": dict(self.final),
        }


@dataclass(frozen=True, slots=True)
class Hint:
    """One suggested move for the player to move.

    Attributes:
        moves: the turn in the transcript's notation, as it would be written after ``N. Name:``.
        score: the points it would score.
        details: JSON-ready extras (sequences, holes...).
    """

    moves: str
    score: int
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """``{"moves", "score", ...details}``."""
        return {"moves": self.moves, "score": self.score, **self.details}


class GameRules(Protocol):
    """What the command line, the benchmarks and the tests need of every game."""

    name: str

    def replay_text(self, text: str, folder: Path | None = None) -> Replay:
        """Read and replay a transcript; syntax errors are collected in the result.

        Args:
            text: the transcript.
            folder: the transcript's folder, where files its tags name are looked up (a Yushino
                layout file); None: the current directory.

        Raises:
            ValueError: the header cannot make a game at all (the message names the tag).
        """
        ...

    def hint(self, text: str, rack: str | None, top: int, folder: Path | None = None) -> list[Hint]:
        """The ``top`` best moves for the player to move after the transcript ``text``, best first.

        Args:
            text: a transcript (its turns replayed first).
            rack: the player's tiles in the game's notation, space-separated; None where the game
                knows the rack from the transcript or needs none.
            top: how many moves at most.
            folder: as for :meth:`replay_text`.

        Raises:
            ValueError: an unreadable rack or a transcript that cannot be replayed.
        """
        ...

    def random_transcript(self, seed: int, players: int = 2, turns: int | None = None) -> str:
        """A seeded random legal game as a transcript, each play's comment its score (``{+7}``).

        Args:
            seed: the random seed (the same seed gives the same text).
            players: how many players.
            turns: at most this many turns, None to play to the end.
        """
        ...


class TableRules(GameRules, Protocol):
    """What the table session needs of a game read as a layout (Yushino, Super Wild, Holominoes):
    the tiles seen on the table, each a placement in the game's notation (games.md), turned into the
    turn in progress, and the layout a transcript leaves on the table."""

    def table_turn(self, text: str, seen: Collection[str]) -> str:
        """The turn in progress: the moves written after ``N. Name: `` that lead from the table after
        the transcript ``text`` to the ``seen`` layout (``"3G8, 4H8"``, ``"R7@3,0>3,1, R8@4,0"``,
        ``"132@1,0/E"``); ``"draw"`` (Super Wild) or ``""`` (Yushino, Holominoes) when nothing changed.
        Legality is not judged here: replay ``text`` plus that line.

        Args:
            text: the transcript of the committed turns.
            seen: the layout read from the table (the reader's frame: games.md "Reading a table").

        Raises:
            ValueError: no turn leads there (a tile gone or moved where it may not be, a seen tile
                that cannot be, an unreadable placement); one sentence naming the tile or cell.
        """
        ...

    def layout(self, text: str) -> frozenset[str]:
        """The tiles on the table after the transcript ``text``, each a placement as a reading writes
        it (a Yushino blank as ``#H9``, the Super Wild as ``W@0,0``, Holominoes' start tile included).

        Raises:
            ValueError: the tags cannot make a game.
        """
        ...


def out_of_turn(rule: str, current: str, named: str | None) -> Violation | None:
    """The turn-order violation of a turn that ``named`` takes while ``current`` is to move.

    Args:
        rule: the game's turn-order rule identifier.
        current: the player to move.
        named: the player the turn line names, None when it names nobody.

    Returns:
        ``it is Ana's turn, not Bo's`` under ``rule``; None when ``named`` is None or ``current``.
    """
    if named is None or named == current:
        return None
    return Violation(rule, (), f"it is {current}'s turn, not {named}'s")


def canonical_name(name: str) -> str:
    """The registered name of a game, matched as games.md says.

    Raises:
        ValueError: no game of that name (the message lists the games).
    """
    key = "".join(ch for ch in name.lower() if ch not in " -_")
    for known in GAME_MODULES:
        if "".join(ch for ch in known.lower() if ch not in " -_") == key:
            return known
    raise ValueError(f"unknown game {name!r}; known games: {', '.join(GAME_MODULES)}")


def rules_for(name: str) -> GameRules:
    """The rules object of a game by name (see :func:`canonical_name`).

    Raises:
        ValueError: no game of that name.
    """
    module = importlib.import_module(GAME_MODULES[canonical_name(name)])
    rules: GameRules = module.RULES
    return rules
