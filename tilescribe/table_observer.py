"""The camera observer of a bare table (Super Wild, Holominoes): the gate on every frame, a
reading of the layout once the table has settled.

Every frame goes through the bare table's gate (vision.gate.table_gate: still? a hand or arm in
the picture?). The table must stay quiet (still, no hand) for ``still_seconds``
(tilescribe.observe.Settle); then it is read (vision.table.table_reading.read_table) on the frame
that settles it and on the frames of its last POOL_SECONDS, and the readings are pooled: each is
brought into the frame of the last one (the engine's ``aligned``: Super Wild up to a quarter turn
and a shift, Holominoes up to a turn by a third and a shift) and a tile counts when it is in most
of them. The layout is reported in games.md's notation in the reader's frame (``R7@3,0``,
``W@0,0``; ``132@1,0/E``), with the last reading's alternatives of each of its tiles (the reader's
runner-ups, Observation.alternatives). A hand never creates or removes a tile: only readings of a quiet table
count, whatever a hand did before. Something left in the edge band, nothing moving for
LEFT_THERE_SECONDS, becomes part of the gate's reference.

On HELD-OUT-style recordings of 12-turn games at 960 x 720, 6 frames a second
(``bench/bench_table_session.py --games 5 --seed 7000``): Super Wild 34 of 40 settled readings
right (85 %), Holominoes 56 of 65 (86 %), no settle while a hand was in the picture, about 3 ms a
frame (median; 240 / 400 ms on the frames that settle). What is read wrong is the reader's
(a colour or a number misread, a tile placed on the wrong grid place), the same in every frame of
a spell.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import replace
from typing import Any

from display.view import CameraState
from tilescribe.layout_frame import aligned_tiles
from tilescribe.observe import Observation, Settle
from vision.capture.sources import Frame
from vision.errors import VisionError
from vision.gate.table_gate import TableGate
from vision.reader.model import TileReader
from vision.table.table_reading import TableConfig, read_table

#: A tile read -> its other readings with their probability ratios (TableReading.alternatives).
Alternatives = dict[str, tuple[tuple[str, float], ...]]

#: Frames of the quiet table in its last POOL_SECONDS before it counts as settled are read too
#: and pooled with the settled frame's reading (at 6 frames a second: two frames more). On
#: TRAIN-style recordings (bench/bench_table_session.py --split train --seed 300 --games 3) settled
#: readings right with 0 / 0.35 / 0.5 s: Super Wild 73 / 85 / 81 %, Holominoes 85 / 87 / 85 %.
POOL_SECONDS = 0.35
#: A hand rests still for about half a second while it lays a tile (vision.sim.timeline.Pacing.rest);
#: an edge band changed and nothing moving for this long is something left there (a cup, a tile
#: near the edge), taken into the gate's reference so that the table can settle.
LEFT_THERE_SECONDS = 3.0


def layout_tokens(game: str, tiles: Iterable[dict[str, Any]]) -> frozenset[str]:
    """games.md's reading JSON tiles as layout tokens.

    Args:
        game: "Super Wild" or "Holominoes".
        tiles: ``{"tile": "R7", "x": 3, "y": 0}`` or ``{"tile": "132", "q": 1, "r": 0, "first": "E"}``.

    Returns:
        ``{"R7@3,0", ...}`` or ``{"132@1,0/E", ...}``.
    """
    if game == "Super Wild":
        return frozenset(f"{t['tile']}@{t['x']},{t['y']}" for t in tiles)
    return frozenset(f"{t['tile']}@{t['q']},{t['r']}/{t['first']}" for t in tiles)


def aligned_layout(game: str, reference: Collection[str], seen: Collection[str]) -> frozenset[str]:
    """``seen`` brought into the frame of ``reference`` by the engine's alignment of the game
    (tilescribe.layout_frame.aligned_tiles).

    Args:
        game: "Super Wild" or "Holominoes".
        reference: layout tokens in the frame wanted.
        seen: layout tokens in any frame the reader may give.

    Raises:
        ValueError: a token that is not a placement of the game (names it).
    """
    return frozenset(aligned_tiles(game, reference, sorted(seen)).values())


class TableObserver:
    """Observations of a bare table from camera frames.

    Args:
        game: "Super Wild" or "Holominoes" (any spelling engine.games.canonical_name takes).
        reader: the learned tile reader (None: the shipped model).
        still_seconds: quiet time needed before a reading counts.

    Raises:
        ValueError: a game not played on a bare table, or still_seconds < 0.
        vision.reader.model.ReaderError: the reader's model files are missing or broken.
    """

    def __init__(self, game: str, reader: TileReader | None, still_seconds: float) -> None:
        self._config = TableConfig(game, reader) if reader is not None else TableConfig(game)
        self.game = self._config.game
        self.gate = TableGate()
        self._settle = Settle(still_seconds)
        self._pool: list[tuple[frozenset[str], Alternatives]] = []
        self._still_since: float | None = None

    def observe(self, frame: Frame) -> Observation:
        """Gate one frame and, when the table has settled, read it.

        Returns:
            HAND while a hand or arm is in the picture, MOVING while something moves, LOCKED when
            still; ``layout`` on the frame that settles a quiet spell (None there when nothing
            could be read: no Super Wild seen, or no tile found).
        """
        state = self.gate.update(frame.image)
        if not state.still:
            self._still_since = None
        elif self._still_since is None:
            self._still_since = frame.t
        if state.hand and self._still_since is not None and frame.t - self._still_since >= LEFT_THERE_SECONDS:
            self.gate.accept()  # the band as it is now is the reference: no hand in it
            state = replace(state, hand=False, cover=0.0)
        camera = CameraState.HAND if state.hand else CameraState.LOCKED if state.still else CameraState.MOVING
        settled = self._settle.update(frame.t, state.is_ready)
        since = self._settle.quiet_since
        if since is None:
            self._pool.clear()
            return Observation(frame.index, frame.t, camera)
        quiet_for = frame.t - since
        if settled or self._settle.still_seconds - POOL_SECONDS <= quiet_for < self._settle.still_seconds:
            reading = self._read(frame)
            if reading is not None:
                self._pool.append(reading)
        if not settled:
            return Observation(frame.index, frame.t, camera)
        self.gate.accept()  # later frames' edge bands are compared with this one
        readings = [r for r, _ in self._pool]
        others = self._pool[-1][1] if self._pool else {}
        self._pool.clear()
        if not readings:
            return Observation(frame.index, frame.t, camera)
        layout = self._pooled(readings)
        return Observation(frame.index, frame.t, camera, layout=layout,
                           alternatives={t: a for t, a in others.items() if t in layout})

    def _read(self, frame: Frame) -> tuple[frozenset[str], Alternatives] | None:
        """One frame's layout and its tiles' alternatives, None when the reader can place nothing
        (a VisionError)."""
        try:
            reading = read_table(self._config, frame.image)
        except VisionError:
            return None
        return layout_tokens(self.game, reading.tiles), reading.alternatives

    def _pooled(self, readings: list[frozenset[str]]) -> frozenset[str]:
        """The tiles in more than half of the readings, all in the frame of the last one."""
        last = readings[-1]
        votes = Counter(t for r in readings for t in (r if r is last else aligned_layout(self.game, last, r)))
        return frozenset(t for t, n in votes.items() if 2 * n > len(readings))
