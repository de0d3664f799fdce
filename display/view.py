"""What the kiosk shows: one immutable snapshot of the table, built by the session.

The kiosk draws a :class:`KioskView` and nothing else, so a screenshot is a pure function of the
view; two equal views give the same picture (the kiosk saves a screenshot only when the view
changes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from engine.hexgrid import Hex

if TYPE_CHECKING:
    from display.maps import GameMap


class CameraState(Enum):
    """The camera and board-locating state shown in the header."""

    LOCKED = "board locked"
    HAND = "hand over the board"
    MOVING = "board moving"
    LOST = "board lost"
    NO_CAMERA = "camera lost"
    STARTING = "starting"
    REPLAY = "none (a transcript replayed)"


class TableState(Enum):
    """What the table is doing, as the kiosk's banner says it (in words and in its own colour)."""

    WAITING = "waiting"
    READING = "reading"
    HAND = "hand over the board"
    ILLEGAL = "illegal"
    OUT_OF_SYNC = "out of sync"
    GAME_OVER = "game over"


class AlertLevel(Enum):
    """How an alert is drawn: INFO plain, WARN amber, ERROR red (with a sound when it appears)."""

    INFO = "info"
    WARN = "warn"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One committed turn in the history panel.

    Attributes:
        number: turn number, 1-based.
        player: the player's name.
        text: the turn in tilde notation, e.g. ``"4B2 ~ 6B1 ~ 1A0 ~ 3M1"``, or ``"pass"``.
        points: points scored by the turn.
    """

    number: int
    player: str
    text: str
    points: int

    def __post_init__(self) -> None:
        if self.number < 1:
            raise ValueError(f"turn number must be >= 1, got {self.number!r}")


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """One row of the scoreboard.

    Attributes:
        name: the player's name.
        score: running total in points.
        is_current: True for the player whose turn it is.
        is_frozen: True for a frozen player (§3-3).
    """

    name: str
    score: int
    is_current: bool = False
    is_frozen: bool = False


@dataclass(frozen=True, slots=True)
class KioskView:
    """A snapshot of everything on the kiosk.

    Attributes:
        cells: every cell of the board.
        tiles: committed tiles, cell -> label (``"7"``, ``"#"``, ``"#=8"``, ``"0"`` for the marker).
        provisional: tiles of the turn in progress, cell -> label.
        last_turn: cells placed by the last committed turn (highlighted).
        blocked: blocked cells (§2-2), marked.
        illegal: cells of an illegal placement (flashing red).
        restore: cells that vanished or changed since the last commit, cell -> the label to put
            back ("board out of sync").
        uncertain: cells whose reading the reader is unsure of (outlined amber: check them).
        selected: the cell picked for a correction, if any.
        players: the scoreboard rows, in turn order.
        history: committed turns, oldest first.
        provisional_points: the score the turn in progress would earn, when it is legal.
        camera: the camera state.
        alert: a message in words (the rule broken, the cells to restore...), or empty.
        alert_level: how to draw the alert.
        title: the header text (game, modulus, turn number).
        is_over: True once the game has ended (§3-3).
        faces: the faces a correction can set, in keypad order (``"0"`` .. ``"12"``, ``"#"`` where
            the game has wild tiles, ``"marker"`` where the modulus marker is used).
        end_notes: the game's end adjustments in words (who froze when, how the game ended), shown
            with the final standings.
        game_map: another game's map (display.maps), drawn instead of the hex board; ``cells``
            is then empty.
        winner: the winner as the game's rules decide it (Yushino's tie-breaks, §4), None to
            take the highest total (and name a tie).
        tie_break: how a tie for the highest total was broken, in words, or None.
        pending: on a game map, the moves of the turn in progress (games.md notation).
        pending_illegal: on a game map, the turn in progress breaks a rule.
        out_of_sync: on a game map, no turn leads to the table seen (the alert says what to put back).
        pass_label: the button of a turn with nothing laid (``"Pass"``; Super Wild's ``"Draw"``).
        pass_returns_tile: the pass names the pool tile it returns (Holominoes, ``pass 456``): the
            button opens the game's keypad to pick it.
        can_freeze: the game has freezing (§3-3, MODLINSEQ): its button is shown.
    """

    cells: frozenset[Hex]
    tiles: dict[Hex, str] = field(default_factory=dict)
    provisional: dict[Hex, str] = field(default_factory=dict)
    last_turn: frozenset[Hex] = frozenset()
    blocked: frozenset[Hex] = frozenset()
    illegal: frozenset[Hex] = frozenset()
    restore: dict[Hex, str] = field(default_factory=dict)
    uncertain: frozenset[Hex] = frozenset()
    selected: Hex | None = None
    players: tuple[PlayerLine, ...] = ()
    history: tuple[HistoryLine, ...] = ()
    provisional_points: int | None = None
    camera: CameraState = CameraState.STARTING
    alert: str = ""
    alert_level: AlertLevel = AlertLevel.INFO
    title: str = "tilescribe"
    is_over: bool = False
    faces: tuple[str, ...] = ()
    end_notes: tuple[str, ...] = ()
    game_map: GameMap | None = None
    winner: str | None = None
    tie_break: str | None = None
    pending: tuple[str, ...] = ()
    pending_illegal: bool = False
    out_of_sync: bool = False
    pass_label: str = "Pass"
    pass_returns_tile: bool = False
    can_freeze: bool = True

    def __post_init__(self) -> None:
        for name in ("tiles", "provisional", "restore"):
            outside = [c for c in getattr(self, name) if c not in self.cells]
            if outside:
                raise ValueError(f"KioskView.{name}: cells {outside} are not on the board")
        if self.selected is not None and self.selected not in self.cells:
            raise ValueError(f"KioskView.selected: {self.selected} is not on the board")

    @property
    def state(self) -> TableState:
        """The banner's state: game over, then the board out of sync, an illegal placement, a hand
        over the board (or the board moving), tiles being read (a turn in progress or the camera
        starting), else waiting for the player to move."""
        if self.is_over:
            return TableState.GAME_OVER
        if self.restore or self.out_of_sync:
            return TableState.OUT_OF_SYNC
        if self.illegal or self.pending_illegal or (self.alert_level is AlertLevel.ERROR and self.uncertain):
            return TableState.ILLEGAL
        if self.camera in (CameraState.HAND, CameraState.MOVING):
            return TableState.HAND
        if self.provisional or self.pending or self.camera is CameraState.STARTING:
            return TableState.READING
        return TableState.WAITING
