"""The timeline of a simulated board-less game: where the layout lies on the photo, when each
hand moves where, when each tile lands or is lifted, when turns end, and the small pushes that are
no move (games.md "Super Wild": a tile pushed a few mm, or the whole layout shifted or turned on
the cloth, is not a move).

Pure scheduling, no pixels drawn: positions are photo pixels before the camera's keystone, times
seconds. It builds a :class:`vision.sim.timeline.Timeline` (hands, landings, turn ends) whose
landings name the tile where it lands, as a reading writes it (``R7@3,0``), and the piece it is
(vision.sim.table_plan). A turn: its player's hand comes in from the seat, may push a tile a few
mm first, lays its tiles one by one (a moved Super Wild tile is picked up at its old place and
carried to its new one), leaves; the end of the turn is signalled a moment after the hand has
gone. A draw or a pass only signals the end. Now and then, after a Super Wild turn, a hand comes
in and shifts and turns the whole layout a little.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from engine.holominoes.geometry import centre_xy
from vision.sim.table_plan import Place, Step, TableGame
from vision.sim.timeline import HandKey, Landing, Pacing, SimPlacement, Timeline, TurnEnd, seat_points

Point = tuple[float, float]
#: Super Wild tiles are 3/4 as wide as tall (vision.sim.game_tiles); a grid step across is a
#: tile's width, one down its height (games.md "Super Wild").
SUPERWILD_WIDTH = 0.75
#: Millimetres of a tile unit (a Super Wild tile's height, a Holominoes tile's radius): the hand's
#: scale (vision.sim.hands draws an adult hand in millimetres).
UNIT_MM = {"superwild": 36.0, "holominoes": 24.0}


@dataclass(frozen=True, slots=True)
class LayoutGeometry:
    """Where the grid lies on the photo (before the keystone).

    Attributes:
        game: "superwild" or "holominoes".
        unit: pixels of a Super Wild tile's height or a Holominoes tile's radius.
        gap: grid step over the tile's size (players leave a small gap), >= 1.
        turn_deg: the layout's turn on the photo, degrees counter-clockwise as seen.
        middle: where the grid's middle lies, photo pixels.
        grid_mid: the grid's middle, grid units (x right, y down).
    """

    game: str
    unit: float
    gap: float
    turn_deg: float
    middle: Point
    grid_mid: Point

    def grid(self, place: Place) -> np.ndarray:
        """A place's centre in grid units (float [2]: a Super Wild tile's height, a Holominoes radius)."""
        if self.game == "superwild":
            return np.array([place[0] * SUPERWILD_WIDTH, place[1]], np.float64) * self.gap
        return np.array(centre_xy(place), np.float64) * self.gap

    def centre(self, place: Place, shift: Point = (0.0, 0.0), turn_deg: float = 0.0) -> np.ndarray:
        """A place's centre on the photo (float [2], pixels) after the whole layout was shifted by
        ``shift`` pixels and turned by ``turn_deg`` about its middle."""
        offset = (self.grid(place) - np.array(self.grid_mid)) * self.unit
        return np.array(self.middle) + np.array(shift) + _turned(offset, self.turn_deg + turn_deg)


def _turned(v: np.ndarray, turn_deg: float) -> np.ndarray:
    """``v`` (x, y down) turned counter-clockwise as seen, as cv2 turns a sprite."""
    c, s = math.cos(math.radians(turn_deg)), math.sin(math.radians(turn_deg))
    return np.array([c * v[0] + s * v[1], -s * v[0] + c * v[1]])


def fit_layout(
    game: TableGame, size: tuple[int, int], wanted: tuple[float, float], fill: float, rng: np.random.Generator
) -> LayoutGeometry:
    """The game's grid laid on the photo: a random turn, a tile unit drawn from ``wanted`` pixels
    and shrunk until every place the game uses (plus a tile's margin) fits ``fill`` of the short side.

    Raises:
        ValueError: ``fill`` outside (0, 1].
    """
    if not 0 < fill <= 1:
        raise ValueError(f"fill must be within (0, 1], got {fill}")
    gap = 1 + float(rng.uniform(0.0, 0.1 if game.game == "superwild" else 0.03))
    probe = LayoutGeometry(game.game, 1.0, gap, float(rng.uniform(0, 360)), (0.0, 0.0), (0.0, 0.0))
    grid = np.array([probe.grid(p) for p in game.places()])
    mid = (grid.min(axis=0) + grid.max(axis=0)) / 2
    turned = np.array([_turned(g - mid, probe.turn_deg) for g in grid])
    span = float((turned.max(axis=0) - turned.min(axis=0)).max()) + 2.0
    unit = min(float(rng.uniform(*wanted)), fill * min(size) / span)
    middle = np.array(size, np.float64) / 2 + rng.uniform(-0.03, 0.03, 2) * min(size)
    return replace(probe, unit=unit, middle=(float(middle[0]), float(middle[1])),
                   grid_mid=(float(mid[0]), float(mid[1])))


@dataclass(frozen=True, slots=True)
class Nudge:
    """A push that is no move: between ``t0`` and ``t1`` a tile (or the whole layout) slides by
    ``shift`` pixels and turns by ``turn_deg`` degrees counter-clockwise.

    Attributes:
        t0: when the push starts, seconds.
        t1: when it ends, seconds.
        landing: index into the timeline's landings of the tile pushed; -1 for the whole layout
            (turned about its middle).
        shift: (dx, dy) photo pixels.
        turn_deg: degrees counter-clockwise.
    """

    t0: float
    t1: float
    landing: int
    shift: Point
    turn_deg: float = 0.0

    def done(self, t: float) -> float:
        """How much of the push is done at ``t`` (0..1)."""
        return 0.0 if t <= self.t0 else 1.0 if t >= self.t1 else (t - self.t0) / (self.t1 - self.t0)


@dataclass(frozen=True, slots=True)
class Disturbance:
    """How often players disturb the table without making a move.

    Attributes:
        push_chance: per turn that lays tiles, the chance its hand first pushes a tile on the table.
        push_mm: how far a tile is pushed, millimetres (drawn up to this, from half of it).
        shift_chance: per Super Wild turn, the chance the whole layout is shifted afterwards.
        shift_mm: how far the layout slides, millimetres (drawn up to this, from half of it).
        shift_deg: how far it turns, degrees (drawn up to this, from a third of it, either way).
    """

    push_chance: float = 0.25
    push_mm: float = 4.0
    shift_chance: float = 0.2
    shift_mm: float = 10.0
    shift_deg: float = 6.0

    def __post_init__(self) -> None:
        if not (0 <= self.push_chance <= 1 and 0 <= self.shift_chance <= 1):
            raise ValueError(f"chances must be 0..1: {self}")
        if min(self.push_mm, self.shift_mm, self.shift_deg) < 0:
            raise ValueError(f"push and shift sizes must be >= 0: {self}")


@dataclass(frozen=True, slots=True)
class TableTimeline:
    """A scheduled game: hands, landings and turn ends (``timeline``), the pushes, the layout.

    Attributes:
        timeline: hands (photo pixels), landings (``SimPlacement(token, piece index)``), turn ends.
        nudges: the pushes, time-ordered.
        layout: where the grid lies.
        px_per_mm: photo pixels per millimetre at the table.
    """

    timeline: Timeline
    nudges: tuple[Nudge, ...]
    layout: LayoutGeometry
    px_per_mm: float

    def piece(self, landing: int) -> int:
        """The piece (index into TableGame.pieces) a landing lays."""
        return int(self.timeline.landings[landing].placement.face)

    def layout_pose(self, t: float) -> tuple[Point, float]:
        """The whole layout's shift (pixels) and turn (degrees) at ``t``."""
        return _pose(self.nudges, -1, t)

    def tile_pose(self, landing: int, t: float) -> tuple[Point, float]:
        """A tile's own push at ``t``: (shift in pixels, turn in degrees)."""
        return _pose(self.nudges, landing, t)


def schedule_table(
    game: TableGame,
    layout: LayoutGeometry,
    size: tuple[int, int],
    pacing: Pacing,
    disturbance: Disturbance,
    rng: np.random.Generator,
) -> TableTimeline:
    """Schedule a game (see the module's docstring); seat 0 sits at the photo's bottom."""
    plan = _Schedule(game, layout, size, pacing, rng)
    for step in game.initial:
        plan.landings.append(Landing(0.0, 0, SimPlacement(game.token(step), str(step.piece)), 0.0))
    plan.t = pacing.lead_in
    for index, steps in enumerate(game.turns):
        seat = index % game.players
        if steps:
            plan.lay(index + 1, seat, steps, disturbance)
        plan.t += plan.dur(pacing.settle)
        plan.ends.append(TurnEnd(plan.t, index + 1, game.returned[index] if game.returned else ""))
        plan.t += plan.dur(pacing.after)
        if game.game == "superwild" and rng.random() < disturbance.shift_chance:
            plan.shift_layout(seat, disturbance)
            plan.t += plan.dur(pacing.settle) + plan.dur(pacing.after)
    timeline = Timeline(tuple(tuple(k) for k in plan.hands), plan.seats, tuple(plan.landings),
                        tuple(plan.ends), plan.t)
    return TableTimeline(timeline, tuple(plan.nudges), layout, layout.unit / UNIT_MM[game.game])


class _Schedule:
    """The timeline being built: the clock, the hands' keyframes, the landings, the pushes."""

    def __init__(self, game: TableGame, layout: LayoutGeometry, size: tuple[int, int], pacing: Pacing,
                 rng: np.random.Generator) -> None:
        self.game, self.layout, self.pacing, self.rng = game, layout, pacing, rng
        w, h = size
        self.seats = seat_points((w / 2, h / 2), 0.75 * math.hypot(w, h), game.players)
        self.hands: list[list[HandKey]] = [[] for _ in self.seats]
        self.landings: list[Landing] = []
        self.ends: list[TurnEnd] = []
        self.nudges: list[Nudge] = []
        self.mm = layout.unit / UNIT_MM[game.game]
        self.t = 0.0

    def dur(self, base: float) -> float:
        return base * float(1 + self.rng.uniform(-self.pacing.jitter, self.pacing.jitter))

    def _on_table(self) -> dict[int, int]:
        """piece -> index of its landing, for the tiles on the table now."""
        return {int(x.placement.face): i for i, x in enumerate(self.landings) if x.lifted == math.inf}

    def _over(self, place: Place) -> Point:
        """Where the hand's fingertips go to reach ``place`` (a little off its centre)."""
        shift, turn = _pose(self.nudges, -1, math.inf)
        c = self.layout.centre(place, shift, turn) + self.rng.normal(0, 0.08, 2) * self.layout.unit
        return (float(c[0]), float(c[1]))

    def _visit(self, keys: list[HandKey], point: Point, first: bool) -> float:
        """The hand moves to ``point`` and rests there; returns when the rest begins."""
        if not first:
            self.t += self.dur(self.pacing.move)
        keys.append(HandKey(self.t, point))
        arrived = self.t
        self.t += self.dur(self.pacing.rest)
        keys.append(HandKey(self.t, point))
        return arrived

    def lay(self, turn: int, seat: int, steps: tuple[Step, ...], disturbance: Disturbance) -> None:
        """The hand of ``seat`` comes in, maybe pushes a tile, lays or moves ``steps``, and leaves."""
        keys = self.hands[seat]
        keys.append(HandKey(self.t, None))
        self.t += self.dur(self.pacing.reach)
        first = True
        on_table = self._on_table()
        kept = [i for p, i in on_table.items() if p not in {s.piece for s in steps}]
        if kept and self.rng.random() < disturbance.push_chance:
            landing = kept[int(self.rng.integers(len(kept)))]
            place = self._place(landing)
            arrived = self._visit(keys, self._over(place), first)
            way = float(self.rng.uniform(0, 2 * math.pi))
            far = float(self.rng.uniform(0.5, 1.0)) * disturbance.push_mm * self.mm
            self.nudges.append(Nudge(arrived, self.t, landing, (far * math.cos(way), far * math.sin(way)),
                                     float(self.rng.uniform(-3, 3))))
            first = False
        for step in steps:
            carried_from = keys[-1].t
            if step.source is not None:
                self._visit(keys, self._over(step.source), first)
                lifted = self._on_table()[step.piece]
                self.landings[lifted] = replace(self.landings[lifted], lifted=self.t)
                carried_from, first = self.t, False
            self._visit(keys, self._over(step.to), first)
            token = SimPlacement(self.game.token(step), str(step.piece))
            self.landings.append(Landing(self.t, turn, token, 0.0, seat, carried_from))
            first = False
        self.t += self.dur(self.pacing.reach)
        keys.append(HandKey(self.t, None))

    def _place(self, landing: int) -> Place:
        return token_place(self.landings[landing].placement.address)

    def shift_layout(self, seat: int, disturbance: Disturbance) -> None:
        """The hand of ``seat`` comes in, shifts and turns the whole layout a little, and leaves."""
        on_table = list(self._on_table().values())
        keys = self.hands[seat]
        keys.append(HandKey(self.t, None))
        self.t += self.dur(self.pacing.reach)
        arrived = self._visit(keys, self._over(self._place(on_table[int(self.rng.integers(len(on_table)))])),
                              True)
        way = float(self.rng.uniform(0, 2 * math.pi))
        far = float(self.rng.uniform(0.5, 1.0)) * disturbance.shift_mm * self.mm
        turn = float(self.rng.uniform(1 / 3, 1.0)) * disturbance.shift_deg * float(self.rng.choice([-1, 1]))
        self.nudges.append(Nudge(arrived, self.t, -1, (far * math.cos(way), far * math.sin(way)), turn))
        self.t += self.dur(self.pacing.reach)
        keys.append(HandKey(self.t, None))


def token_place(token: str) -> Place:
    """The grid place of a reading's token (``R7@3,0`` -> (3, 0), ``132@1,-1/E`` -> (1, -1))."""
    x, y = token.split("@")[1].split("/")[0].split(",")
    return (int(x), int(y))


def _pose(nudges: Sequence[Nudge], landing: int, t: float) -> tuple[Point, float]:
    """The summed shift (pixels) and turn (degrees) of the pushes of ``landing`` (-1: the whole
    layout) at time ``t``."""
    dx = dy = turn = 0.0
    for n in nudges:
        if n.landing == landing:
            k = n.done(t)
            dx, dy, turn = dx + n.shift[0] * k, dy + n.shift[1] * k, turn + n.turn_deg * k
    return (dx, dy), turn
