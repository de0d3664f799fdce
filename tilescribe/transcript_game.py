"""A game read as a layout (Yushino, Super Wild, Holominoes) as its transcript: header tags and the
committed turns, replayed by the game's rules (engine.games) whenever it is asked about."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from engine.games import Replay, TableRules, TurnReport


@dataclass(frozen=True, slots=True)
class TableRecord:
    """A committed turn of a layout-read game.

    Attributes:
        number: 1-based turn number.
        player: who took it.
        kind: the game's kind of turn ("play", "pass", "draw", ...).
        moves: the moves as written after ``N. Name: `` (``"3G8, 4H8"``, ``"draw"``).
        score: the points it scored.
    """

    number: int
    player: str
    kind: str
    moves: str
    score: int

    def text(self) -> str:
        """The transcript line without a clock comment: ``3. Ana: 3G8, 4H8 {+12}``."""
        points = f" {{+{self.score}}}" if self.kind == "play" else ""
        return f"{self.number}. {self.player}: {self.moves}{points}"


class TranscriptGame:
    """A game as its transcript: the header tags and the committed turns (immutable).

    Args:
        rules: the game's rules.
        header: the transcript's tag lines (``[Game "Yushino"]``...), each ending in a newline.
        history: the committed turns.

    Raises:
        ValueError: the header makes no game, or a committed turn does not replay legally (the
            message names the turn and the rule).
    """

    def __init__(self, rules: TableRules, header: str, history: tuple[TableRecord, ...] = ()) -> None:
        self.rules = rules
        self.header = header
        self.history = history
        bad = next((t for t in self.replay.turns if not t.legal), None)
        if bad is not None:
            raise ValueError(f"turn {bad.number} ({bad.player}: {', '.join(bad.moves)}) does not replay: "
                             f"{bad.error}")
        if self.replay.errors:
            first = self.replay.errors[0]
            raise ValueError(f"line {first.line}: {first.message}")

    @classmethod
    def from_text(cls, rules: TableRules, text: str) -> TranscriptGame:
        """The game a transcript records (comment lines skipped).

        Raises:
            ValueError: as the constructor.
        """
        lines = text.splitlines()
        header = "".join(line + "\n" for line in lines if line.startswith("["))
        replay = rules.replay_text(text)
        history = tuple(_record(t) for t in replay.turns)
        return cls(rules, header, history)

    @property
    def text(self) -> str:
        """The transcript: the header, a blank line, one line per committed turn."""
        return self.header + "\n" + "".join(r.text() + "\n" for r in self.history)

    @cached_property
    def replay(self) -> Replay:
        """The engine's replay of :attr:`text`."""
        return self.rules.replay_text(self.text)

    @property
    def players(self) -> tuple[str, ...]:
        """The players in turn order."""
        return tuple(self.replay.settings.get("players", ()))

    @property
    def scores(self) -> dict[str, int]:
        """Points by player, in turn order."""
        return {p: int(self.replay.scores.get(p, 0)) for p in self.players}

    @property
    def current_player(self) -> str:
        """The player to move."""
        return self.players[len(self.history) % len(self.players)]

    @property
    def is_over(self) -> bool:
        """True once the rules end the game."""
        return bool(self.replay.final.get("over"))

    def judged(self, moves: str) -> TurnReport:
        """The engine's verdict on the current player's turn ``moves``, without committing it."""
        line = f"{len(self.history) + 1}. {self.current_player}: {moves}\n"
        return self.rules.replay_text(self.text + line).turns[-1]

    def played(self, report: TurnReport) -> TranscriptGame:
        """The game with the legal turn ``report`` (from :meth:`judged`) committed."""
        return TranscriptGame(self.rules, self.header, (*self.history, _record(report)))

    def undone(self) -> TranscriptGame:
        """The game without its last turn."""
        return TranscriptGame(self.rules, self.header, self.history[:-1])


def _record(report: TurnReport) -> TableRecord:
    return TableRecord(report.number, report.player, report.kind, ", ".join(report.moves), report.score)
