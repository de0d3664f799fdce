"""A game of Holominoes: settings, turn order, pools and sack, scores, history and undo.

Seed rules and the choices made where the seed and games.md are silent:

- Start: each player holds a pool of ``pool`` tiles (3); the start tile (``[Start]`` tag) comes
  from the sack. Without a start tile the first play may go anywhere and the sack keeps it.
- Play: each turn the player first draws a tile from the sack while it has any, then lays one
  tile or passes. A transcript does not record the draws, so the game follows how many tiles each
  pool and the sack hold, and which tiles are on the table; a laid tile must not be on the table
  already ("Tiles: each tile once").
- A pass returns a named pool tile to the sack (``pass 456``). It is legal only when that tile
  fits nowhere on the table (the seed's "players must move if possible", checked on the one
  pool tile the transcript names).
- Aim: the game ends when a player's pool is empty ("runs out of tiles") or every player has
  passed in succession. The highest score wins; equal scores share the win.
- An illegal turn (in a replay) is not applied: the turn is spent, pools and sack unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.errors import IllegalTurnError, Violation
from engine.games import out_of_turn
from engine.holominoes.position import SCORINGS, Hole, Position, score_holes
from engine.holominoes.tiles import (
    Pass,
    Placement,
    Play,
    Tile,
    format_placement,
    format_tile,
    tile_set,
)
from engine.limits import MAX_PLAYERS
from engine.record import check_player_names

RULE_TILE_SET = "Tiles: numbers of the set"
RULE_ONCE = "Tiles: each tile once"
RULE_PASS_TILE = "Play: a pass returns a pool tile"
RULE_MUST_MOVE = "Play: must move if possible"
RULE_TURN_ORDER = "Play: turn order"
RULE_GAME_OVER = "Aim: game over"

#: Most players and largest pool a game takes.
MAX_POOL = 12

PLAY, PASS, SKIP = "play", "pass", "skip"
OUT_OF_TILES, ALL_PASSED = "out of tiles", "every player passed"


def check_pool(pool: int) -> None:
    """Raises:
    ValueError: a pool size outside 1..MAX_POOL."""
    if not 1 <= pool <= MAX_POOL:
        raise ValueError(f"pool must be 1..{MAX_POOL} tiles, got {pool!r}")


def check_scoring(scoring: str) -> None:
    """Raises:
    ValueError: a scoring other than "product" or "sum"."""
    if scoring not in SCORINGS:
        raise ValueError(f"scoring must be one of {', '.join(SCORINGS)}, got {scoring!r}")


@dataclass(frozen=True, slots=True)
class Settings:
    """What the players agreed (tags ``[Players]``, ``[Pool]``, ``[Digits]``, ``[Scoring]``,
    ``[Start]``).

    Raises:
        ValueError: no players, a name a turn line cannot carry or given twice
            (engine.record.check_player_names), more than :data:`engine.limits.MAX_PLAYERS`, a pool outside
            1..MAX_POOL, digits outside 3..9, an unknown scoring, a start tile outside the set, or
            more tiles dealt than the set holds.
    """

    players: tuple[str, ...] = ("Player 1", "Player 2")
    pool: int = 3
    digits: int = 6
    scoring: str = "product"
    start: Placement | None = None

    def __post_init__(self) -> None:
        if not self.players:
            raise ValueError("a game needs at least one player")
        check_player_names(self.players)
        if len(self.players) > MAX_PLAYERS:
            raise ValueError(f"at most {MAX_PLAYERS} players, got {len(self.players)}")
        check_pool(self.pool)
        tiles = tile_set(self.digits)
        check_scoring(self.scoring)
        if self.start is not None and self.start.tile not in tiles:
            raise ValueError(f"start tile {format_tile(self.start.tile)} is not in the 1..{self.digits} set")
        if len(self.players) * self.pool + (self.start is not None) > len(tiles):
            raise ValueError(
                f"{len(self.players)} pools of {self.pool} need more than the set's {len(tiles)} tiles"
            )


@dataclass(frozen=True, slots=True)
class TurnResult:
    """The verdict on one move.

    Attributes:
        move: the move judged.
        violation: the rule broken, None when legal.
        holes: the holes the move closes.
        score: the points it scores (0 when illegal).
    """

    move: Play | Pass
    violation: Violation | None = None
    holes: tuple[Hole, ...] = ()
    score: int = 0

    @property
    def legal(self) -> bool:
        """True when no rule is broken."""
        return self.violation is None


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One committed turn: ``kind`` "play", "pass" or "skip" (an illegal turn spent)."""

    number: int
    player: str
    kind: str
    result: TurnResult | None = None


@dataclass(slots=True)
class _State:
    position: Position
    scores: dict[str, int]
    current: int
    pools: list[int]
    sack: int
    passes: int
    over: str | None = None
    history: list[TurnRecord] = field(default_factory=list)

    def copy(self) -> _State:
        return _State(
            self.position,
            dict(self.scores),
            self.current,
            list(self.pools),
            self.sack,
            self.passes,
            self.over,
            list(self.history),
        )


class Game:
    """A game of Holominoes in progress.

    Args:
        settings: the agreed settings (players, pool size, digits, scoring, start tile).
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.tiles = tile_set(settings.digits)
        start = () if settings.start is None else (settings.start,)
        n = len(settings.players)
        self._s = _State(
            Position(start),
            dict.fromkeys(settings.players, 0),
            0,
            [settings.pool] * n,
            len(self.tiles) - len(start) - n * settings.pool,
            0,
        )
        self._undo: list[_State] = []

    # -- state ---------------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        """Player names in turn order."""
        return self.settings.players

    @property
    def position(self) -> Position:
        """The tiles on the table."""
        return self._s.position

    @property
    def current_player(self) -> str:
        """Whose turn it is."""
        return self.players[self._s.current]

    @property
    def scores(self) -> dict[str, int]:
        """Points by player (a copy)."""
        return dict(self._s.scores)

    @property
    def history(self) -> tuple[TurnRecord, ...]:
        """Every committed turn in order."""
        return tuple(self._s.history)

    @property
    def pools(self) -> dict[str, int]:
        """How many tiles each pool holds."""
        return dict(zip(self.players, self._s.pools, strict=True))

    @property
    def sack(self) -> int:
        """How many tiles the sack holds."""
        return self._s.sack

    @property
    def is_over(self) -> bool:
        """True when a pool is empty or every player passed in succession (seed "Aim")."""
        return self._s.over is not None

    @property
    def end_reason(self) -> str | None:
        """ "out of tiles", "every player passed", or None while the game is on."""
        return self._s.over

    def winners(self) -> list[str]:
        """The players with the most points."""
        best = max(self._s.scores.values())
        return [p for p in self.players if self._s.scores[p] == best]

    def remaining_tiles(self) -> list[Tile]:
        """The tiles not on the table (pools and sack), in set order."""
        on_table = self._s.position.tiles
        return [t for t in self.tiles if t not in on_table]

    def legal_placements(self, tiles: Iterable[Tile] | None = None) -> list[Placement]:
        """Every legal placement of ``tiles`` (default: every tile not on the table)."""
        wanted = self.remaining_tiles() if tiles is None else tiles
        return list(self._s.position.legal_placements(wanted, self.settings.digits))

    def blocked_points(self) -> list[str]:
        """Empty cells next to the tiles that no tile off the table fits (seed "Blocking"), as q,r."""
        cells = self._s.position.blocked_points(self.remaining_tiles(), self.settings.digits)
        return [f"{c.q},{c.r}" for c in cells]

    # -- turns ---------------------------------------------------------------------------------
    def evaluate(self, move: Play | Pass) -> TurnResult:
        """Judge a move by the current player without committing it."""
        violation = self._violation(move)
        if violation is not None or isinstance(move, Pass):
            return TurnResult(move, violation)
        holes = self._s.position.holes(move.placement)
        return TurnResult(move, None, holes, score_holes(holes, self.settings.scoring))

    def _violation(self, move: Play | Pass) -> Violation | None:
        s = self._s
        if s.over is not None:
            return Violation(RULE_GAME_OVER, (), f"the game is over ({s.over})")
        if isinstance(move, Play):
            p = move.placement
            if p.tile not in self.tiles:
                text = format_tile(p.tile)
                return Violation(
                    RULE_TILE_SET, (text,), f"{text} is not a tile of the 1..{self.settings.digits} set"
                )
            if p.tile in s.position.tiles:
                text = format_tile(p.tile)
                return Violation(RULE_ONCE, (format_placement(p),), f"{text} is already on the table")
            return s.position.check(p)
        if move.tile is None:
            return Violation(RULE_PASS_TILE, (), "a pass names the pool tile it returns (pass 456)")
        text = format_tile(move.tile)
        if move.tile not in self.tiles:
            return Violation(
                RULE_TILE_SET, (text,), f"{text} is not a tile of the 1..{self.settings.digits} set"
            )
        if move.tile in s.position.tiles:
            return Violation(RULE_PASS_TILE, (text,), f"{text} is on the table, not in a pool")
        for p in s.position.legal_placements((move.tile,), self.settings.digits):
            where = (format_placement(p),)
            return Violation(RULE_MUST_MOVE, where, f"{text} fits at {where[0]}, so the player must play")
        return None

    def play(self, move: Play | Pass, player: str | None = None) -> TurnResult:
        """Commit a move by the current player.

        Args:
            move: the placement or pass.
            player: if given, must be the current player.

        Raises:
            IllegalTurnError: the move breaks a rule, the game is over, or ``player`` is not the
                current player.
        """
        misplaced = None if self.is_over else out_of_turn(RULE_TURN_ORDER, self.current_player, player)
        if misplaced is not None:
            raise IllegalTurnError(misplaced)
        result = self.evaluate(move)
        if result.violation is not None:
            raise IllegalTurnError(result.violation)
        self._undo.append(self._s.copy())
        s = self._s
        i = s.current
        if s.sack:
            s.sack -= 1
            s.pools[i] += 1
        s.pools[i] -= 1
        if isinstance(move, Play):
            s.position = s.position.apply(move.placement)
            s.scores[self.players[i]] += result.score
            s.passes = 0
            kind = PLAY
        else:
            s.sack += 1
            s.passes += 1
            kind = PASS
        s.history.append(TurnRecord(len(s.history) + 1, self.players[i], kind, result))
        if s.pools[i] == 0:
            s.over = OUT_OF_TILES
        elif s.passes >= len(self.players):
            s.over = ALL_PASSED
        s.current = (i + 1) % len(self.players)
        return result

    def skip(self) -> None:
        """Spend the current player's turn without a move (an illegal turn in a replay)."""
        self._undo.append(self._s.copy())
        s = self._s
        s.history.append(TurnRecord(len(s.history) + 1, self.current_player, SKIP))
        s.current = (s.current + 1) % len(self.players)

    def undo(self) -> None:
        """Take back the last turn.

        Raises:
            ValueError: no turn to take back.
        """
        if not self._undo:
            raise ValueError("no turn to undo")
        self._s = self._undo.pop()
