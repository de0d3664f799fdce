"""A game of Yushino: turn order, racks and pool counted, the set of §6, exchanges, the end (§4-§6).

The transcript shows no racks, so :class:`Game` counts tiles instead: every player is dealt 7 from
the pool of 96 in turn order, a play of k tiles draws min(k, pool) back, an exchange leaves the
pool's count as it was. What was laid is checked against the set of §6: a number (or the blank)
laid more often than the set has it makes the turn illegal, naming the number.

Choices where the seed is silent (module docstring, as games.md asks):

- §5 exchange: at least 1 tile and at most the tiles in the player's rack; refused when 7 or fewer
  tiles are left in the pool, and on the player's turn right after their own exchange.
- §4 end: the game ends when a player's rack and the pool are both empty after their play, or after
  three turns in a row that scored nothing (passes, exchanges, a play worth 0, or an illegal turn,
  which is spent as a pass), counted over all players.
- §4 rack transfer: after a player goes out, every other player loses the sum of their remaining
  numbers (a blank is 0) and the player who went out gains it all. After three scoreless turns every
  player loses the sum of their own remaining numbers and nobody gains (the usual word-game rule).
- §4 ties: the highest score before the rack transfer wins; if still tied, the tied player latest in
  turn order wins (with two players, Player 2: the player who moved first loses).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from engine.errors import IllegalTurnError, Violation
from engine.record import check_player_names
from engine.yushino.board import Layout, classic_layout
from engine.yushino.rules import (
    EITHER,
    FORWARD,
    LegalPlacements,
    PlayResult,
    Position,
    evaluate_play,
    legal_placements,
)
from engine.yushino.tiles import (
    BLANK,
    DISTRIBUTION,
    EXCHANGE,
    PASS,
    PLAY,
    RACK_SIZE,
    SET_SIZE,
    Tile,
    Turn,
    faces,
)

RULE_TURN_ORDER = "§1 turn order"
RULE_GAME_OVER = "§4 game over"
RULE_RACK = "§5 racks of 7"
RULE_SET = "§6 the set of 96"
RULE_EXCHANGE_TWICE = "§5 no two exchanges running"
RULE_EXCHANGE_POOL = "§5 exchange needs more than 7 in the pool"
SCORELESS_END = 3
#: Players at a Yushino table (games.md).
MAX_PLAYERS = 4
OUT, SCORELESS = "out", "scoreless"


@dataclass(frozen=True, slots=True)
class GameSettings:
    """What the players agreed (tags ``Players``, ``Layout``, ``Direction``).

    Attributes:
        players: 2 to 4 names in turn order.
        layout: the premium squares.
        direction: ``"forward"`` or ``"either"``.

    Raises:
        ValueError: not 2 to 4 players, a name a turn line cannot carry or given twice
            (engine.record.check_player_names), another direction.
    """

    players: tuple[str, ...] = ("Player 1", "Player 2")
    layout: Layout = field(default_factory=classic_layout)
    direction: str = FORWARD

    def __post_init__(self) -> None:
        if not 2 <= len(self.players) <= MAX_PLAYERS:
            raise ValueError(
                f"Yushino takes 2 to {MAX_PLAYERS} different players, got {', '.join(self.players)!r}"
            )
        check_player_names(self.players)
        if self.direction not in (FORWARD, EITHER):
            raise ValueError(f"direction {self.direction!r} is not forward or either")


@dataclass(frozen=True, slots=True)
class TurnResult:
    """The verdict on a turn.

    Attributes:
        turn: the turn judged.
        player: whose turn it was.
        violation: the first rule broken, None when legal.
        play: the placement verdict of a play (sequences, bonus), None otherwise.
    """

    turn: Turn
    player: str
    violation: Violation | None = None
    play: PlayResult | None = None

    @property
    def legal(self) -> bool:
        """True when no rule is broken."""
        return self.violation is None

    @property
    def score(self) -> int:
        """Points scored (0 for anything but a legal play)."""
        return self.play.score if self.legal and self.play is not None else 0


@dataclass(slots=True)
class _State:
    position: Position
    scores: dict[str, int]
    racks: dict[str, int]
    pool: int
    laid: Counter[str]
    current: int
    scoreless: int
    exchanged: frozenset[str]
    ended: str | None
    out_player: str | None


@dataclass(frozen=True, slots=True)
class Final:
    """The end of the game: the rack transfer, the winner and how ties were broken (§4).

    Attributes:
        before: scores before the rack transfer.
        adjustments: points each player gains or loses by the transfer.
        scores: scores after it.
        winner: the winner's name.
        tie_break: None, ``"score before the rack transfer"`` or ``"later in turn order"``.
    """

    before: Mapping[str, int]
    adjustments: Mapping[str, int]
    scores: Mapping[str, int]
    winner: str
    tie_break: str | None


class Game:
    """A Yushino game in progress.

    Args:
        settings: players, layout and direction.
    """

    def __init__(self, settings: GameSettings | None = None) -> None:
        self.settings = settings or GameSettings()
        players = self.settings.players
        self._s = _State(
            Position(), dict.fromkeys(players, 0), dict.fromkeys(players, RACK_SIZE),
            SET_SIZE - RACK_SIZE * len(players), Counter(), 0, 0, frozenset(), None, None,
        )  # fmt: skip
        self._undo: list[_State] = []
        self.history: list[TurnResult] = []

    # -- state --------------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        """Names in turn order."""
        return self.settings.players

    @property
    def current_player(self) -> str:
        """Whose turn it is."""
        return self.players[self._s.current]

    @property
    def position(self) -> Position:
        """The tiles on the board."""
        return self._s.position

    @property
    def scores(self) -> dict[str, int]:
        """Points per player before any end-of-game transfer (a copy)."""
        return dict(self._s.scores)

    @property
    def rack_counts(self) -> dict[str, int]:
        """How many tiles each rack holds (a copy)."""
        return dict(self._s.racks)

    @property
    def pool(self) -> int:
        """Tiles left to draw."""
        return self._s.pool

    @property
    def laid(self) -> Counter[str]:
        """How many tiles of each face (``"#"`` the blank) are on the board (a copy)."""
        return Counter(self._s.laid)

    @property
    def is_over(self) -> bool:
        """True once a player went out with the pool empty, or after three scoreless turns (§4)."""
        return self._s.ended is not None

    @property
    def end_reason(self) -> str | None:
        """``"out"``, ``"scoreless"`` or None while the game is on."""
        return self._s.ended

    @property
    def out_player(self) -> str | None:
        """Who laid the last tile, when the game ended that way."""
        return self._s.out_player

    def unseen(self) -> Counter[str]:
        """The set of §6 less the tiles on the board: what the pool and the racks hold together."""
        return Counter(DISTRIBUTION) - self._s.laid

    def legal_placements(self) -> LegalPlacements:
        """§2 and §6: the one-tile plays the board allows (rules.legal_placements), less the numbers
        the set has no tile left for; a square left with none is blocked. While a blank is unseen,
        it may stand for any number, so nothing more is taken away."""
        legal = legal_placements(self.position, self.settings.direction)
        unseen = self.unseen()
        if unseen[BLANK]:
            return legal
        values, blocked = {}, set(legal.blocked)
        for square, numbers in legal.values.items():
            left = frozenset(v for v in numbers if unseen[str(v)])
            if left:
                values[square] = left
            else:
                blocked.add(square)
        return LegalPlacements(values, frozenset(blocked))

    # -- turns --------------------------------------------------------------------------------
    def evaluate(self, turn: Turn) -> TurnResult:
        """Judge a turn by the player to move, without committing it."""
        player = self.current_player
        s = self._s
        if s.ended is not None:
            return TurnResult(turn, player, Violation(RULE_GAME_OVER, (), f"the game ended ({s.ended})"))
        if turn.kind == PASS:
            return TurnResult(turn, player)
        if turn.kind == EXCHANGE:
            return TurnResult(turn, player, self._exchange_violation(turn.count))
        places = tuple(str(p.square) for p in turn.placements)
        if len(turn.placements) > s.racks[player]:
            message = f"{player} lays {len(turn.placements)} tiles with {s.racks[player]} in the rack"
            return TurnResult(turn, player, Violation(RULE_RACK, places, message))
        over = faces([p.tile for p in turn.placements]) + s.laid
        for face in sorted(over):
            if over[face] > DISTRIBUTION[face]:
                name = "blank" if face == "#" else f"number {face}"
                message = (
                    f"the {name} would be on the board {over[face]} times; the set has {DISTRIBUTION[face]}"
                )
                return TurnResult(turn, player, Violation(RULE_SET, places, message))
        result = evaluate_play(s.position, turn.placements, self.settings.layout, self.settings.direction)
        return TurnResult(turn, player, result.violation, result)

    def _exchange_violation(self, count: int) -> Violation | None:
        s, player = self._s, self.current_player
        if player in s.exchanged:
            return Violation(RULE_EXCHANGE_TWICE, (), f"{player} exchanged on their last turn")
        if s.pool <= RACK_SIZE:
            return Violation(RULE_EXCHANGE_POOL, (), f"only {s.pool} tiles are left in the pool")
        if count > s.racks[player]:
            return Violation(
                RULE_RACK, (), f"{player} exchanges {count} tiles with {s.racks[player]} in the rack"
            )
        return None

    def play(self, turn: Turn) -> TurnResult:
        """Commit a turn.

        Raises:
            IllegalTurnError: the turn breaks a rule (nothing changes).
        """
        result = self.evaluate(turn)
        if result.violation is not None:
            raise IllegalTurnError(result.violation)
        self._commit(result)
        return result

    def spend(self, result: TurnResult) -> None:
        """Record an illegal turn as spent: the player's turn passes, scoring nothing.

        Raises:
            ValueError: the result is legal (commit it with :meth:`play`) or the game is over.
        """
        if result.legal or self.is_over:
            raise ValueError("only an illegal turn, while the game is on, is spent")
        self._commit(result)

    def _commit(self, result: TurnResult) -> None:
        s = self._s
        self._undo.append(replace(s))
        s.scores = dict(s.scores)
        s.racks = dict(s.racks)
        player = result.player
        turn = result.turn
        if result.legal and turn.kind == PLAY:
            count = len(turn.placements)
            s.position = s.position.apply(turn.placements)
            s.laid = s.laid + faces([p.tile for p in turn.placements])
            draw = min(count, s.pool)
            s.racks[player] += draw - count
            s.pool -= draw
            s.scores[player] += result.score
            if s.racks[player] == 0 and s.pool == 0:
                s.ended, s.out_player = OUT, player
        exchanged = result.legal and turn.kind == EXCHANGE
        s.exchanged = s.exchanged | {player} if exchanged else s.exchanged - {player}
        s.scoreless = s.scoreless + 1 if result.score == 0 else 0
        if s.ended is None and s.scoreless >= SCORELESS_END:
            s.ended = SCORELESS
        s.current = (s.current + 1) % len(self.players)
        self.history.append(result)

    def undo(self) -> TurnResult:
        """Take back the last turn.

        Raises:
            ValueError: no turn to take back.
        """
        if not self._undo:
            raise ValueError("no turn to take back")
        self._s = self._undo.pop()
        return self.history.pop()

    # -- the end ------------------------------------------------------------------------------
    def finish(self, racks: Mapping[str, tuple[Tile, ...]]) -> Final:
        """§4: the rack transfer, the winner and the tie-breaks, given what is left in each rack.

        Raises:
            ValueError: the game is not over, a player's rack is missing (or given for someone not
                playing) or holds another count of
                tiles than the game counted, or the racks hold tiles the set of §6 has no more of.
        """
        s = self._s
        if s.ended is None:
            raise ValueError("the game is not over")
        held: Counter[str] = Counter()
        strangers = sorted(set(racks) - set(self.players))
        if strangers:
            raise ValueError(f"a rack is given for {strangers[0]!r}, who is not playing")
        for player in self.players:
            if player not in racks:
                raise ValueError(f"no rack given for {player}")
            if len(racks[player]) != s.racks[player]:
                raise ValueError(
                    f"{player}'s rack holds {len(racks[player])} tiles; the game counts {s.racks[player]}"
                )
            held += faces(racks[player])
        extra = held - self.unseen()
        if extra:
            face = sorted(extra)[0]
            raise ValueError(f"the racks hold more {face!r} tiles than the set has left")
        before = dict(s.scores)
        left = {p: sum(t.points for t in racks[p]) for p in self.players}
        adjustments = {p: -left[p] for p in self.players}
        if s.out_player is not None:
            adjustments[s.out_player] = sum(left.values())
        after = {p: before[p] + adjustments[p] for p in self.players}
        winner, tie_break = pick_winner(self.players, after, before)
        return Final(before, adjustments, after, winner, tie_break)


def pick_winner(
    players: tuple[str, ...], after: Mapping[str, int], before: Mapping[str, int]
) -> tuple[str, str | None]:
    """§4 ties: the highest final score; then the highest before the transfer; then the later seat.

    Returns:
        The winner and the tie-break used (None when the final scores alone decide).
    """
    best = max(after.values())
    tied = [p for p in players if after[p] == best]
    if len(tied) == 1:
        return tied[0], None
    top = max(before[p] for p in tied)
    still = [p for p in tied if before[p] == top]
    if len(still) == 1:
        return still[0], "score before the rack transfer"
    return still[-1], "later in turn order"
