"""A round of Super Wild: players in turn order, racks, the bag, the table, history ("Playing",
"Winning", "Cooperative Finish").

Choices where the seed is silent (the module's rulings):

- A turn either lays at least one tile from the rack (rearranging the table as well if wished), or
  draws: ``draw`` first, optionally naming the drawn tile (``draw R5``), then the tiles the player
  plays after drawing ("If you can play it, proceed with your turn"). Rearranging without laying
  a tile is not a turn. A draw from an empty bag ends the turn with nothing drawn. The engine cannot
  see whether a player could have played ("If you cannot play, draw"), so a draw is always allowed.
- The score of a turn is the number of tiles it lays from the rack (the seed counts no points;
  the round is won by the first player to play all their tiles, who takes a trophy).
- Racks: each player is dealt 6 tiles ("Starting"), or the ``[Deal]`` count; where ``[Racks]``
  names a player's tiles the engine checks every lay against them, otherwise it counts tiles only.
  A drawn tile that is not named is unknown: a later lay of any tile may use it.
- After the first player goes out the round continues ("Cooperative Finish"): players with tiles
  keep taking turns in order, players without tiles are skipped; the round is over when every
  player is out.

:class:`Game` judges a turn without committing it (``evaluate``), commits it (``play``, raising
:class:`IllegalTurnError` for an illegal turn) and takes it back (``undo``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from engine.errors import IllegalTurnError, Violation
from engine.superwild.table import RULE_SUPPLY, RULE_WILD_STAYS, Table
from engine.superwild.tiles import NUMBER_TILES, SUPPLY, Move, Tile, format_rack, format_tile

#: Tiles dealt to each player ("Starting": each player draws 6 tiles).
DEAL = 6

PLAY, DRAW = "play", "draw"

RULE_PLAY_OR_DRAW = "Playing: play tiles or draw"
RULE_RACK = "Starting: tiles come from the player's rack"
RULE_BAG = "Playing: draw a new tile from the bag"
RULE_TURN_ORDER = "Playing: play continues clockwise"
RULE_ROUND_OVER = "Cooperative Finish: every player has played all tiles"


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn: an optional draw (with the drawn tile when known), then moves.

    Attributes:
        moves: lays and table moves, in the order written.
        draw: whether the player drew first.
        drawn: the drawn tile when the transcript names it.

    Raises:
        ValueError: a drawn tile without a draw, or the Super Wild drawn.
    """

    moves: tuple[Move, ...] = ()
    draw: bool = False
    drawn: Tile | None = None

    def __post_init__(self) -> None:
        if self.drawn is not None and (not self.draw or self.drawn.is_wild):
            raise ValueError(f"a drawn tile {self.drawn} needs a draw and is never the Super Wild")

    @property
    def kind(self) -> str:
        """ "draw" for a turn that only draws, "play" otherwise."""
        return DRAW if self.draw and not self.moves else PLAY

    @property
    def lays(self) -> tuple[Move, ...]:
        """The tiles laid from the rack."""
        return tuple(m for m in self.moves if m.is_lay)


@dataclass(frozen=True, slots=True)
class Rack:
    """A player's rack: the tiles known by name and how many more are unknown.

    Raises:
        ValueError: a negative unknown count or the Super Wild in the rack.
    """

    known: tuple[Tile, ...] = ()
    unknown: int = 0

    def __post_init__(self) -> None:
        if self.unknown < 0 or any(t.is_wild for t in self.known):
            raise ValueError(f"a rack holds number tiles and no fewer than 0 unknown, got {self}")

    def __len__(self) -> int:
        return len(self.known) + self.unknown

    def add(self, tile: Tile | None) -> Rack:
        """The rack with one more tile (None: an unknown one)."""
        if tile is None:
            return replace(self, unknown=self.unknown + 1)
        return replace(self, known=(*self.known, tile))

    def take(self, tile: Tile) -> Rack | None:
        """The rack without ``tile`` (by shape, else one unknown tile); None when it cannot hold it."""
        for i, t in enumerate(self.known):
            if t.shape == tile.shape:
                return replace(self, known=self.known[:i] + self.known[i + 1 :])
        if self.unknown:
            return replace(self, unknown=self.unknown - 1)
        return None

    def __str__(self) -> str:
        more = f" +{self.unknown} unknown" if self.unknown else ""
        return (format_rack(self.known) or "(none known)") + more


@dataclass(frozen=True, slots=True)
class State:
    """Everything a round needs between turns.

    Attributes:
        table: the tiles on the table.
        racks: each player's rack, in turn order.
        bag: tiles left in the bag.
        to_move: index of the player to move.
        out: players who have played all their tiles, in the order they went out.
        laid: tiles each player has laid, in turn order.
    """

    table: Table
    racks: tuple[Rack, ...]
    bag: int
    to_move: int = 0
    out: tuple[str, ...] = ()
    laid: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class TurnResult:
    """The verdict on a turn.

    Attributes:
        turn: the turn judged.
        player: who took it.
        violation: the broken rule, None for a legal turn.
        score: tiles laid from the rack (0 for an illegal turn).
        state: the state after the turn (the state before it for an illegal turn).
        drew: whether a tile came from the bag.
    """

    turn: Turn
    player: str
    violation: Violation | None
    score: int
    state: State
    drew: bool = False

    @property
    def is_legal(self) -> bool:
        """True when no rule is broken."""
        return self.violation is None


@dataclass
class Game:
    """A round in progress: the players in turn order (the first holds the Starting Player Token).

    Attributes:
        players: names in turn order.
        history: the states before each committed turn, and the turns' results.
    """

    players: tuple[str, ...]
    state: State
    history: list[TurnResult] = field(default_factory=list)
    _before: list[State] = field(default_factory=list, repr=False)

    @classmethod
    def new(
        cls,
        players: tuple[str, ...],
        racks: dict[str, tuple[Tile, ...]] | None = None,
        deal: int = DEAL,
        diagonals: bool = False,
    ) -> Game:
        """A new round: the Super Wild at 0,0, each player dealt ``deal`` tiles (or the named ones).

        Raises:
            ValueError: no players, a repeated name, a deal the bag cannot give, or named racks
                holding more tiles of a shape than the game has.
        """
        if not players or len(set(players)) != len(players):
            raise ValueError(f"a round needs players with different names, got {players!r}")
        racks = racks or {}
        unknown = [p for p in racks if p not in players]
        if unknown:
            raise ValueError(f"racks named for {unknown[0]!r}, who is not a player")
        shelves = tuple(Rack(racks[p]) if p in racks else Rack((), deal) for p in players)
        dealt = sum(len(r) for r in shelves)
        if dealt > NUMBER_TILES or deal < 1:
            raise ValueError(f"cannot deal {dealt} tiles from a bag of {NUMBER_TILES}")
        named = Counter(t.shape for r in shelves for t in r.known)
        over = [s for s, k in named.items() if k > SUPPLY[s]]
        if over:
            raise ValueError(f"the racks hold more {format_tile(Tile(*over[0]))} tiles than the game has")
        state = State(Table(diagonals=diagonals), shelves, NUMBER_TILES - dealt, 0, (), (0,) * len(players))
        return cls(tuple(players), state)

    @property
    def current_player(self) -> str:
        """Who moves next."""
        return self.players[self.state.to_move]

    @property
    def table(self) -> Table:
        """The table now."""
        return self.state.table

    @property
    def scores(self) -> dict[str, int]:
        """Tiles laid by each player, in turn order."""
        return dict(zip(self.players, self.state.laid, strict=True))

    @property
    def winner(self) -> str | None:
        """The first player to play all their tiles ("Winning"), None so far."""
        return self.state.out[0] if self.state.out else None

    @property
    def is_over(self) -> bool:
        """True when every player has played all their tiles."""
        return len(self.state.out) == len(self.players)

    def rack(self, player: str) -> Rack:
        """A player's rack."""
        return self.state.racks[self.players.index(player)]

    def evaluate(self, turn: Turn) -> TurnResult:
        """Judge the current player's turn without committing it."""
        state, player = self.state, self.current_player
        me = state.to_move

        def illegal(violation: Violation) -> TurnResult:
            return TurnResult(turn, player, violation, 0, state)

        if self.is_over:
            return illegal(Violation(RULE_ROUND_OVER, (), "the round is over: every player is out"))
        if not turn.draw and not turn.lays:
            message = f"{player} neither lays a tile from the rack nor draws"
            return illegal(Violation(RULE_PLAY_OR_DRAW, tuple(str(m.target) for m in turn.moves), message))
        rack, bag, drew = state.racks[me], state.bag, False
        if turn.draw and bag > 0:
            if turn.drawn is not None and self._unseen(turn.drawn) <= 0:
                message = f"{player} draws {turn.drawn}, but every {turn.drawn} is already seen"
                return illegal(Violation(RULE_SUPPLY, (), message))
            rack, bag, drew = rack.add(turn.drawn), bag - 1, True
        elif turn.drawn is not None:
            return illegal(Violation(RULE_BAG, (), f"{player} draws {turn.drawn} from an empty bag"))
        for lay in turn.lays:
            if lay.tile.is_wild:
                message = f"{lay} lays the Super Wild, which is already on the table"
                return illegal(Violation(RULE_WILD_STAYS, (str(lay.pos),), message))
            taken = rack.take(lay.tile)
            if taken is None:
                message = f"{player} lays {lay.tile}, which is not in the rack ({rack})"
                return illegal(Violation(RULE_RACK, (str(lay.pos),), message))
            rack = taken
        table = state.table.apply(turn.moves)
        if isinstance(table, Violation):
            return illegal(table)
        if turn.moves:
            problem = table.problem(near=state.table.around(turn.moves))
            if problem is not None:
                return illegal(problem)
        score = len(turn.lays)
        out = state.out + (player,) if len(rack) == 0 and player not in state.out else state.out
        racks = state.racks[:me] + (rack,) + state.racks[me + 1 :]
        laid = state.laid[:me] + (state.laid[me] + score,) + state.laid[me + 1 :]
        after = State(table, racks, bag, self._next(me, out), out, laid)
        return TurnResult(turn, player, None, score, after, drew)

    def play(self, turn: Turn) -> TurnResult:
        """Commit the current player's turn.

        Raises:
            IllegalTurnError: the turn breaks a rule (the game is unchanged).
        """
        result = self.evaluate(turn)
        if result.violation is not None:
            raise IllegalTurnError(result.violation)
        self._before.append(self.state)
        self.history.append(result)
        self.state = result.state
        return result

    def spend_turn(self, result: TurnResult) -> None:
        """Record an illegal turn as spent: nothing changes but the player to move (as a transcript
        replay does, to stay in step with the turn lines)."""
        self._before.append(self.state)
        self.history.append(result)
        self.state = replace(self.state, to_move=self._next(self.state.to_move, self.state.out))

    def undo(self) -> TurnResult:
        """Take back the last committed turn.

        Raises:
            IndexError: no turn to take back.
        """
        if not self.history:
            raise IndexError("no turn to take back")
        self.state = self._before.pop()
        return self.history.pop()

    def _unseen(self, tile: Tile) -> int:
        """Tiles of ``tile``'s shape neither on the table nor named in a rack."""
        seen = sum(1 for t in self.state.table.tiles.values() if t.shape == tile.shape)
        seen += sum(1 for r in self.state.racks for t in r.known if t.shape == tile.shape)
        return SUPPLY[tile.shape] - seen

    def _next(self, me: int, out: tuple[str, ...]) -> int:
        """The next player clockwise who still has tiles (``me`` when nobody else has)."""
        n = len(self.players)
        for k in range(1, n + 1):
            if self.players[(me + k) % n] not in out:
                return (me + k) % n
        return me
