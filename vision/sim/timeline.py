"""The timeline of a simulated game: when each hand moves where, when each tile lands, when turns end.

Pure scheduling, no pixels: positions are in board.png pixels (the printed sheet), times in seconds.
A turn is played by the player whose seat is ``turn_index % players``: the hand comes in from the
seat, moves to each cell in turn, rests there while the tile is put down (the tile appears when the
hand lifts), optionally leaves the board in the middle of the turn (a pause: the position is
incomplete and no end of turn is signalled), and leaves; the end of turn is signalled a moment
after the hand has gone. A pass (an empty turn) only signals the end of turn.

A :class:`Detour` adds what players do besides laying their turn: a take-back (tiles laid, left
still, then lifted again before the real turn is laid) and a knock (committed tiles knocked off
after a turn and put back a while later). A lifted tile leaves the board when the hand is over it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class SimPlacement:
    """One tile put on one cell.

    Attributes:
        address: the cell address ("A0", "B14", ...).
        face: the printed face: "0".."19", "#", "marker" or "joker".
    """

    address: str
    face: str

    def __post_init__(self) -> None:
        if not self.address or not self.face:
            raise ValueError(f"placement needs an address and a face, got {self.address!r}, {self.face!r}")


@dataclass(frozen=True, slots=True)
class Pacing:
    """How long things take, in seconds (the defaults are a brisk but human player).

    Attributes:
        lead_in: still frames of the board before the first turn.
        reach: hand moving from the seat onto the board or off it again.
        move: hand moving from one cell to the next.
        rest: hand resting over a cell while the tile is put down.
        settle: hand gone, before the end of turn is signalled.
        after: still time after the end-of-turn signal, before the next turn.
        pause: length of a mid-turn pause (hand off the board, turn incomplete).
        pause_chance: probability of one mid-turn pause in a turn of two or more tiles.
        jitter: relative random spread applied to every duration.
    """

    lead_in: float = 1.0
    reach: float = 0.6
    move: float = 0.4
    rest: float = 0.5
    settle: float = 0.6
    after: float = 0.8
    pause: float = 1.5
    pause_chance: float = 0.0
    jitter: float = 0.25

    def __post_init__(self) -> None:
        durations = (self.lead_in, self.reach, self.move, self.rest, self.settle, self.after, self.pause)
        if any(d < 0 for d in durations) or not 0 <= self.pause_chance <= 1 or not 0 <= self.jitter < 1:
            raise ValueError(f"pacing needs durations >= 0, 0 <= pause_chance <= 1, 0 <= jitter < 1: {self}")


@dataclass(frozen=True, slots=True)
class HandKey:
    """A keyframe of the hand: at time ``t`` it is at ``point`` (board.png pixels); None = at the seat."""

    t: float
    point: Point | None


@dataclass(frozen=True, slots=True)
class Landing:
    """A tile appears on the board at time ``t`` (the hand lifts off it).

    Attributes:
        t: landing time, seconds.
        turn: the turn (1-based; 0 for tiles on the board from the start).
        placement: cell and face.
        angle_deg: how far the tile is turned, degrees counter-clockwise.
        seat: the seat whose hand brings it (-1 for tiles there from the start).
        carried_from: when that hand starts carrying it towards the cell, seconds.
        lifted: when a hand takes it off the board again, seconds (infinity: never).
    """

    t: float
    turn: int
    placement: SimPlacement
    angle_deg: float
    seat: int = -1
    carried_from: float = 0.0
    lifted: float = math.inf


@dataclass(frozen=True, slots=True)
class Detour:
    """Something a player does around turn ``turn`` (1-based) besides laying it.

    Attributes:
        turn: the turn it belongs to.
        kind: "take_back": before the turn, its player lays ``tiles``, leaves them still for
            ``wait`` seconds (``signal``: and ends the turn), then lifts them and lays the real
            turn; "knock": after the turn, the next player's hand knocks ``tiles`` (already on the
            board) off, and puts them back ``wait`` seconds later.
        tiles: the tiles laid and lifted, or knocked off and put back.
        wait: seconds the board stays still in between.
        signal: whether the end of the turn is signalled after the take-back's tiles are laid.
    """

    turn: int
    kind: str
    tiles: tuple[SimPlacement, ...]
    wait: float = 3.0
    signal: bool = False

    def __post_init__(self) -> None:
        if self.kind not in ("take_back", "knock") or not self.tiles or self.wait < 0 or self.turn < 1:
            raise ValueError(f"a detour is a take_back or a knock of tiles, wait >= 0, turn >= 1: {self}")


@dataclass(frozen=True, slots=True)
class TurnEnd:
    """The end of turn ``turn`` (1-based) is signalled at time ``t``; a Holominoes pass names the
    pool tile it returns (``returned``, ``"456"``; else ``""``)."""

    t: float
    turn: int
    returned: str = ""


@dataclass(frozen=True, slots=True)
class Timeline:
    """Everything that happens in a simulated game, in time order.

    Attributes:
        hands: per seat, the hand keyframes (time-ordered).
        seats: per seat, the seat point in board.png pixels (off the sheet, where the arm comes from).
        landings: tiles appearing, time-ordered.
        turn_ends: end-of-turn signals, time-ordered.
        duration: seconds from the first to the last moment.
    """

    hands: tuple[tuple[HandKey, ...], ...]
    seats: tuple[Point, ...]
    landings: tuple[Landing, ...]
    turn_ends: tuple[TurnEnd, ...]
    duration: float
    _landing_times: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.hands) != len(self.seats) or not self.seats:
            raise ValueError("a timeline needs one hand track per seat and at least one seat")
        object.__setattr__(self, "_landing_times", np.array([x.t for x in self.landings]))

    def placed_at(self, t: float) -> tuple[Landing, ...]:
        """The tiles on the board at time ``t`` (landed at or before ``t``, not lifted yet)."""
        landed = self.landings[: int(np.searchsorted(self._landing_times, t, side="right"))]
        return tuple(x for x in landed if t < x.lifted)

    def first_landings(self) -> tuple[int, ...]:
        """For each landing, the index of the landing that first brought its tile: a tile lifted off
        and laid again with the same face on the same cell (knocked off and put back) is that tile."""
        first: list[int] = []
        for i, x in enumerate(self.landings):
            earlier = (j for j in range(i) if self.landings[j].placement == x.placement)
            back = next((j for j in earlier if self.landings[j].lifted <= x.t), None)
            first.append(first[back] if back is not None else i)
        return tuple(first)

    def carried_at(self, seat: int, t: float) -> int | None:
        """Index into ``landings`` of the tile the hand of ``seat`` holds at time ``t``, if any."""
        for i, x in enumerate(self.landings):
            if x.seat == seat and x.carried_from <= t < x.t:
                return i
        return None

    def hand_at(self, seat: int, t: float) -> Point | None:
        """Where the hand of ``seat`` is at time ``t`` (board.png pixels), or None when at the seat.

        Between keyframes the hand moves along a straight line with eased speed; coming from or
        going to the seat it moves along the line from the seat point.
        """
        keys = self.hands[seat]
        times = [k.t for k in keys]
        i = int(np.searchsorted(times, t, side="right"))
        if i == 0 or i == len(keys):
            return None
        a, b = keys[i - 1], keys[i]
        if a.point is None and b.point is None:
            return None
        start = a.point if a.point is not None else self.seats[seat]
        end = b.point if b.point is not None else self.seats[seat]
        u = (t - a.t) / (b.t - a.t) if b.t > a.t else 1.0
        u = u * u * (3 - 2 * u)
        return (start[0] + (end[0] - start[0]) * u, start[1] + (end[1] - start[1]) * u)


def seat_points(centre: Point, radius: float, players: int) -> tuple[Point, ...]:
    """Seat points around the board: player 1 at the bottom (south), the others clockwise.

    Args:
        centre: the board centre, board.png pixels.
        radius: distance of the seats from the centre, pixels (beyond the sheet's edge).
        players: number of seats (>= 1).
    """
    if players < 1:
        raise ValueError(f"players must be >= 1, got {players}")
    seats = []
    for p in range(players):
        angle = math.pi / 2 + 2 * math.pi * p / players
        seats.append((centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle)))
    return tuple(seats)


def seat_angle_deg(seat: int, players: int) -> float:
    """How far the tiles of ``seat`` are turned (degrees, counter-clockwise) when put down facing
    their player: 0 for the player at the bottom."""
    return (-360.0 * seat / players) % 360.0


def build_timeline(
    turns: Sequence[Sequence[SimPlacement]],
    cell_centres: Mapping[str, Point],
    seats: Sequence[Point],
    pacing: Pacing,
    rng: np.random.Generator,
    *,
    any_rotation: bool = False,
    initial: Sequence[SimPlacement] = (),
    detours: Sequence[Detour] = (),
) -> Timeline:
    """Schedule a game.

    Args:
        turns: per turn, the tiles placed (an empty turn is a pass).
        cell_centres: address -> centre in board.png pixels.
        seats: seat points in board.png pixels; turn i is played from seat i % len(seats).
        pacing: durations.
        rng: random generator for durations, pauses, hand offsets and tile angles.
        any_rotation: turn tiles at any angle; otherwise they face their player +- 25 degrees.
        initial: tiles on the board from the start (turn 0, e.g. the modulus marker on A0, §8).
        detours: take-backs and knocks (see :class:`Detour`).

    Raises:
        ValueError: a placement names a cell that is not on the board (names the turn and cell),
            a cell is filled twice (except a natural replacing a wild tile: the hash swap, §7-4),
            or a knock names a cell that holds no tile.
    """
    plan = _Schedule(cell_centres, seats, pacing, rng, any_rotation)
    for placement in initial:
        _check_cell(placement, plan.filled, cell_centres, 0)
        plan.landings.append(Landing(0.0, 0, placement, 0.0))
    plan.t = pacing.lead_in
    for index, turn in enumerate(turns):
        number, seat = index + 1, index % len(seats)
        for detour in (d for d in detours if d.turn == number and d.kind == "take_back"):
            plan.lay(number, seat, detour.tiles, pause=False)
            plan.t += plan.dur(pacing.settle)
            if detour.signal:
                plan.ends.append(TurnEnd(plan.t, number))
            plan.t += detour.wait
            plan.lift(seat, detour.tiles)
        plan.lay(number, seat, turn, pause=len(turn) >= 2 and rng.random() < pacing.pause_chance)
        plan.t += plan.dur(pacing.settle)
        plan.ends.append(TurnEnd(plan.t, number))
        plan.t += plan.dur(pacing.after)
        for detour in (d for d in detours if d.turn == number and d.kind == "knock"):
            other = (seat + 1) % len(seats)
            plan.lift(other, detour.tiles)
            plan.t += detour.wait
            plan.lay(number, other, detour.tiles, pause=False)
            plan.t += plan.dur(pacing.after)
    return Timeline(
        tuple(tuple(k) for k in plan.hands),
        tuple(seats),
        tuple(sorted(plan.landings, key=lambda x: x.t)),
        tuple(plan.ends),
        plan.t,
    )


class _Schedule:
    """The timeline being built: the clock, the hands' keyframes, the tiles and the turn ends."""

    def __init__(
        self,
        cell_centres: Mapping[str, Point],
        seats: Sequence[Point],
        pacing: Pacing,
        rng: np.random.Generator,
        any_rotation: bool,
    ) -> None:
        self.centres = cell_centres
        self.seats = seats
        self.pacing = pacing
        self.rng = rng
        self.any_rotation = any_rotation
        self.pitch = _pitch(cell_centres)
        self.t = 0.0
        self.hands: list[list[HandKey]] = [[] for _ in seats]
        self.landings: list[Landing] = []
        self.ends: list[TurnEnd] = []
        self.filled: dict[str, str] = {}

    def dur(self, base: float) -> float:
        return base * float(1 + self.rng.uniform(-self.pacing.jitter, self.pacing.jitter))

    def _over(self, address: str) -> Point:
        cx, cy = self.centres[address]
        return (
            cx + float(self.rng.normal(0, 0.08)) * self.pitch,
            cy + float(self.rng.normal(0, 0.08)) * self.pitch,
        )

    def lay(self, number: int, seat: int, tiles: Sequence[SimPlacement], pause: bool) -> None:
        """The hand of ``seat`` comes in, puts ``tiles`` down one by one (with one pause off the board
        mid-turn when ``pause``) and leaves."""
        if not tiles:
            return
        keys, pacing = self.hands[seat], self.pacing
        pause_after = int(self.rng.integers(1, len(tiles))) if pause else -1
        keys.append(HandKey(self.t, None))
        self.t += self.dur(pacing.reach)
        for k, placement in enumerate(tiles):
            _check_cell(placement, self.filled, self.centres, number)
            point = self._over(placement.address)
            if k > 0:
                self.t += self.dur(pacing.move)
            carried_from = keys[-1].t
            keys.append(HandKey(self.t, point))
            self.t += self.dur(pacing.rest)
            keys.append(HandKey(self.t, point))
            angle = (
                float(self.rng.uniform(0, 360))
                if self.any_rotation
                else seat_angle_deg(seat, len(self.seats)) + float(self.rng.uniform(-25, 25))
            )
            self.landings.append(Landing(self.t, number, placement, angle % 360.0, seat, carried_from))
            if k == pause_after - 1:
                self.t += self.dur(pacing.reach)
                keys.append(HandKey(self.t, None))
                self.t += self.dur(pacing.pause)
                keys.append(HandKey(self.t, None))
                self.t += self.dur(pacing.reach)
                keys.append(HandKey(self.t, point))
        self.t += self.dur(pacing.reach)
        keys.append(HandKey(self.t, None))

    def lift(self, seat: int, tiles: Sequence[SimPlacement]) -> None:
        """The hand of ``seat`` comes in, takes ``tiles`` off the board one by one and leaves."""
        keys, pacing = self.hands[seat], self.pacing
        keys.append(HandKey(self.t, None))
        self.t += self.dur(pacing.reach)
        for k, placement in enumerate(tiles):
            on = [i for i, x in enumerate(self.landings) if x.placement == placement and x.lifted == math.inf]
            if not on:
                raise ValueError(f"cell {placement.address!r} holds no tile {placement.face!r} to lift")
            point = self._over(placement.address)
            if k > 0:
                self.t += self.dur(pacing.move)
            keys.append(HandKey(self.t, point))
            self.t += self.dur(pacing.rest)
            keys.append(HandKey(self.t, point))
            self.landings[on[-1]] = replace(self.landings[on[-1]], lifted=self.t)
            self.filled.pop(placement.address, None)
        self.t += self.dur(pacing.reach)
        keys.append(HandKey(self.t, None))


def _check_cell(
    placement: SimPlacement, filled: dict[str, str], cell_centres: Mapping[str, Point], turn: int
) -> None:
    """Record a placement; a natural may replace a wild tile (the hash swap, §7-4)."""
    address = placement.address
    if address not in cell_centres:
        raise ValueError(f"turn {turn}: cell {address!r} is not on the board")
    old = filled.get(address)
    if old is not None and not (old == "#" and placement.face != "#"):
        raise ValueError(f"turn {turn}: cell {address!r} already holds a tile ({old!r})")
    filled[address] = placement.face


def _pitch(cell_centres: Mapping[str, Point]) -> float:
    """Distance between neighbouring cell centres (from A0 to its nearest neighbour)."""
    points = np.array(list(cell_centres.values()))
    if len(points) < 2:
        return 1.0
    d = np.hypot(*(points[1:] - points[0]).T)
    return float(d.min())
