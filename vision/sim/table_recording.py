"""Simulated camera recordings of a Super Wild or Holominoes game on the bare table.

A recording folder holds::

    000000.jpg 000001.jpg ...      camera frames, in order
    frames.json                    {"game": "Super Wild", "fps": F, "size": [W, H], "seed": S,
                                    "styles": "held_out", "transcript": "...", "frames": [
                                      {"file": "000000.jpg", "t": 0.0, "cells": {}, "hand": false,
                                       "layout": ["R7@3,0", "W@0,0", ...]}, ...]}
    events.jsonl                   {"t": seconds, "frame": index, "type": "end_turn", "turn": n}

``transcript`` is the game rendered (a session of the recording takes the game, its players and
tags from it). ``layout`` is every tile lying on the table in that frame (a tile in a hand is on none), in the
transcript's frame and as a reading writes it (vision.sim.table_plan); ``hand`` tells whether a
hand or arm is in the picture; ``cells`` stays empty (no board). Every turn's end is signalled
after its hand has left, turns numbered from 1 in the transcript's order.

The game is drawn as vision.sim.table_shots draws one table (its tiles in one style of the chosen
font split, vision.sim.game_tiles, on a table top, the layout turned by any angle, the camera a
little tilted), with the hands and arms of vision.sim.hands moving as vision.sim.table_timeline
schedules them, the light drifting slowly (vision.sim.camera.random_lighting), blur, sensor noise
and JPEG. Everything is drawn from the seed: the same inputs give byte-identical frames.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path

import cv2
import numpy as np

from engine.holominoes.tiles import parse_tile
from vision.sim.camera import NoiseBank, random_lighting
from vision.sim.frame_files import write_recording_files
from vision.sim.game_tiles import GameStyle, render_holomino, render_superwild, sample_game_style
from vision.sim.hands import Cover, draw_hand, hand_strokes, random_look, shadow_mask
from vision.sim.options import SPLITS, Split
from vision.sim.scene import table_top
from vision.sim.table_plan import TABLE_SIM_GAMES, TableGame, table_game
from vision.sim.table_shots import (
    HOLOMINO_RADIUS_PX,
    IMAGE_SIZE,
    KEYSTONE,
    LAYOUT_FILL,
    PUSH,
    PUSH_DEG,
    SUPERWILD_HEIGHT_PX,
)
from vision.sim.table_timeline import Disturbance, TableTimeline, fit_layout, schedule_table, token_place
from vision.sim.tile_scenes import place_sprite
from vision.sim.timeline import Pacing, TurnEnd

Sprite = tuple[np.ndarray, tuple[float, float], float]
#: The coarse grid (width, height) the light's gain and the hands' shadows are drawn on.
LIGHT_GRID = (64, 48)
#: The darkening in the core of a hand's shadow (0..1).
SHADOW = 0.35
#: A hand counts as in the picture when it covers at least this share of it (a sliver of a few
#: pixels at the edge, as an arm comes in, is no hand seen).
HAND_SHARE = 0.0005
#: A held tile lies this far behind the fingertips, towards the shoulder, millimetres.
HELD_MM = 25.0


@dataclass(frozen=True, slots=True)
class TableSimOptions:
    """How to simulate a table recording.

    Attributes:
        size: image (width, height), pixels.
        fps: frames per second.
        pacing: durations (vision.sim.timeline.Pacing; ``pause_chance`` is not used here).
        disturbance: pushes of single tiles and shifts of the whole layout that are no move.
        hands: paint hands and arms (without them tiles just appear).
        light_change: amplitude of the light's slow drift.
        exposure: exposure time in seconds: moving hands are smeared over it.
        jpeg_quality: JPEG quality (1..100); every frame goes through JPEG.
    """

    #: 960 x 720: on TRAIN-style recordings (bench/bench_table_session.py --split train --seed 300
    #: --games 2 --game superwild) 81 % of settled readings right, 60 % at 640 x 480 (smaller tiles).
    size: tuple[int, int] = (960, 720)
    fps: float = 6.0
    pacing: Pacing = field(default_factory=Pacing)
    disturbance: Disturbance = field(default_factory=Disturbance)
    hands: bool = True
    light_change: float = 0.1
    exposure: float = 1 / 30
    jpeg_quality: int = 90

    def __post_init__(self) -> None:
        if min(self.size) < 64 or self.fps <= 0 or not 0 <= self.exposure <= 1:
            raise ValueError(f"table options need size >= 64 px, fps > 0, exposure 0..1 s: {self}")
        if not 1 <= self.jpeg_quality <= 100 or self.light_change < 0:
            raise ValueError(f"jpeg_quality must be 1..100 and light_change >= 0: {self}")


@dataclass(frozen=True, slots=True)
class TableFrame:
    """One simulated frame of the table with its truth.

    Attributes:
        index: frame number from 0.
        t: time in seconds.
        image: BGR uint8, H x W x 3, decoded from ``jpeg``.
        jpeg: the frame as a JPEG file's bytes.
        layout: every tile on the table, as a reading writes it, sorted.
        hand: a hand or arm is in the picture.
        turn_ends: end-of-turn signals that fall on this frame.
    """

    index: int
    t: float
    image: np.ndarray
    jpeg: bytes
    layout: tuple[str, ...]
    hand: bool
    turn_ends: tuple[TurnEnd, ...] = ()


class TableSimulation:
    """A planned table recording, ready to render frame by frame.

    Args:
        text: a Super Wild or Holominoes transcript.
        seed: seeds every random choice.
        split: tile styles of the reader's "train" fonts or the "held_out" ones.
        options: sizes, pacing, disturbances, light.

    Raises:
        ValueError: another game, an unreadable transcript or a line no table can show (names the
            line), an unknown split, or a tile the styles cannot draw.
    """

    def __init__(self, text: str, seed: int, split: Split, options: TableSimOptions) -> None:
        if split not in SPLITS:
            raise ValueError(f"unknown tile styles {split!r}; expected one of {', '.join(SPLITS)}")
        self.game: TableGame = table_game(text)
        self.seed, self.options = seed, options
        rng = np.random.default_rng([seed, 0])
        size = options.size
        scale = min(size) / min(IMAGE_SIZE)  # table_shots' sizes are those of its 1024 x 768 photo
        wanted = SUPERWILD_HEIGHT_PX if self.game.game == "superwild" else HOLOMINO_RADIUS_PX
        layout = fit_layout(self.game, size, (wanted[0] * scale, wanted[1] * scale), LAYOUT_FILL, rng)
        self.timed: TableTimeline = schedule_table(self.game, layout, size, options.pacing,
                                                   options.disturbance, rng)
        style = sample_game_style(rng, split, self.game.game)
        landings = self.timed.timeline.landings
        self._sprites: dict[int, Sprite] = {}  # per piece: a moved tile looks the same at its new place
        for i in range(len(landings)):
            if self.timed.piece(i) not in self._sprites:
                self._sprites[self.timed.piece(i)] = self._sprite(i, style, rng)
        self._jitter = [(rng.uniform(-PUSH, PUSH, 2) * layout.unit, float(rng.uniform(-PUSH_DEG, PUSH_DEG)))
                        for _ in landings]
        self.table = table_top(size, rng)
        duration = self.timed.timeline.duration
        self.lighting = random_lighting(rng, change=options.light_change, duration=duration)
        w, h = size
        corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        moved = corners + (rng.uniform(-KEYSTONE, KEYSTONE, (4, 2)) * [w, h]).astype(np.float32)
        self.homography = cv2.getPerspectiveTransform(corners, moved)
        self.blur = float(rng.uniform(0.4, 0.9))
        self.noise = NoiseBank(size, float(rng.uniform(1.5, 4.0)), rng)
        self.looks = tuple(random_look(rng) for _ in range(self.game.players))
        self.shadow_offset = (float(rng.uniform(6, 24)), float(rng.uniform(6, 24)))
        self.frame_count = int(math.floor(duration * options.fps)) + 1
        self._cached: tuple[tuple[object, ...], np.ndarray] | None = None

    def _sprite(self, landing: int, style: GameStyle, rng: np.random.Generator) -> Sprite:
        """A landing's tile drawn upright (BGRA), its anchor and its own turn (degrees): a 6/9
        lies either way up."""
        piece = self.game.pieces[self.timed.piece(landing)]
        unit = self.timed.layout.unit
        if self.game.game == "superwild":
            s = max(16, round(unit))
            upside = 180.0 if piece.face == "6/9" and rng.random() < 0.5 else 0.0
            return render_superwild(piece.face, piece.colour, style, s, rng), (s / 2, s / 2), upside
        first = self.timed.timeline.landings[landing].placement.address.rsplit("/", 1)[1]
        s = max(16, round(2 * unit) + 2)
        drawn = render_holomino(parse_tile(piece.tile).oriented(first), style, s, rng)
        return drawn.image, drawn.centre, 0.0

    def frames(self) -> Iterator[TableFrame]:
        """Render every frame in order."""
        o = self.options
        ends = list(self.timed.timeline.turn_ends)
        for index in range(self.frame_count):
            t = index / o.fps
            image = self._table(t).copy()
            covers, shadow = self._hands(image, t) if o.hands else ([], None)
            gain = self.lighting.gain(t, LIGHT_GRID, shadow)
            gain = cv2.resize(gain, o.size, interpolation=cv2.INTER_LINEAR)
            image = cv2.multiply(image.astype(np.float32), gain).clip(0, 255).astype(np.uint8)
            image = cv2.GaussianBlur(image, (0, 0), self.blur)
            image = self.noise.add(image, np.random.default_rng([self.seed, 1, index]))
            ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, o.jpeg_quality])
            if not ok:
                raise ValueError(f"frame {index}: JPEG encoding failed")
            decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
            if decoded is None:
                raise ValueError(f"frame {index}: JPEG decoding failed")
            due = tuple(e for e in ends if e.t <= t)
            ends = ends[len(due):]
            landings = self.timed.timeline.landings
            layout = tuple(sorted(landings[i].placement.address for i in self._on_table(t)))
            yield TableFrame(index, round(t, 4), decoded, encoded.tobytes(), layout, bool(covers), due)

    def _poses(self, t: float) -> list[tuple[int, np.ndarray, float]]:
        """Every tile on the table at ``t``: (landing, centre in photo pixels, turn in degrees)."""
        timed = self.timed
        shift, turn = timed.layout_pose(t)
        out = []
        for landing in self._on_table(t):
            place = token_place(timed.timeline.landings[landing].placement.address)
            push, push_turn = timed.tile_pose(landing, t)
            offset, own = self._jitter[landing]
            centre = timed.layout.centre(place, shift, turn) + offset + np.array(push)
            angle = timed.layout.turn_deg + turn + own + push_turn + self._sprites[timed.piece(landing)][2]
            out.append((landing, centre, angle))
        return out

    def _on_table(self, t: float) -> list[int]:
        """The landings lying on the table at ``t`` (laid at or before it, not lifted yet)."""
        return [i for i, x in enumerate(self.timed.timeline.landings) if x.t <= t < x.lifted]

    def _table(self, t: float) -> np.ndarray:
        """The table with its tiles at ``t``, seen by the camera (drawn again only when it changed)."""
        poses = self._poses(t)
        key = tuple((i, round(float(c[0]), 1), round(float(c[1]), 1), round(a, 1)) for i, c, a in poses)
        if self._cached is None or self._cached[0] != key:
            canvas = self.table.copy()
            for landing, centre, angle in poses:
                sprite, anchor, _ = self._sprites[self.timed.piece(landing)]
                place_sprite(canvas, sprite, anchor, centre, angle)
            w, h = self.options.size
            seen = cv2.warpPerspective(canvas, self.homography, (w, h), flags=cv2.INTER_LINEAR,
                                       borderMode=cv2.BORDER_REFLECT)
            self._cached = (key, seen)
        return self._cached[1]

    def _hands(self, image: np.ndarray, t: float) -> tuple[list[Cover], np.ndarray | None]:
        """Paint every hand in the picture at ``t`` (with the tile it carries) onto ``image``;
        returns where those covering HAND_SHARE of it lie, and the hands' shadow on LIGHT_GRID
        (None without hands)."""
        timeline, mm = self.timed.timeline, self.timed.px_per_mm
        covers: list[Cover] = []
        shadow: np.ndarray | None = None
        for seat, look in enumerate(self.looks):
            point = timeline.hand_at(seat, t)
            if point is None:
                continue
            before = timeline.hand_at(seat, t - self.options.exposure) or point
            tip, tip_before, shoulder = self._seen(np.array([point, before, timeline.seats[seat]]))
            carried = timeline.carried_at(seat, t)
            if carried is not None:
                sprite, anchor, own = self._sprites[self.timed.piece(carried)]
                back = (shoulder - tip) / max(float(np.linalg.norm(shoulder - tip)), 1.0)
                turn = self.timed.layout.turn_deg + own
                place_sprite(image, sprite, anchor, tip + back * HELD_MM * mm, turn)
            strokes = hand_strokes((float(shoulder[0]), float(shoulder[1])), (float(tip[0]), float(tip[1])),
                                   mm, look)
            smear = (float(tip[0] - tip_before[0]), float(tip[1] - tip_before[1]))
            cover = draw_hand(image, strokes, look, smear)
            if cover is not None and np.count_nonzero(cover.mask > 127) >= HAND_SHARE * image[..., 0].size:
                covers.append(cover)
                cast = shadow_mask(LIGHT_GRID, strokes, self.options.size, self.shadow_offset, SHADOW)
                shadow = cast if shadow is None else np.maximum(shadow, cast)
        return covers, shadow

    def _seen(self, points: np.ndarray) -> np.ndarray:
        """Photo points before the keystone -> as the camera sees them (float [n, 2])."""
        return cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64),
                                        self.homography.astype(np.float64)).reshape(-1, 2)


def record_table_game(
    text: str, out: Path, seed: int, styles: str = "held_out", *, progress: bool = False, **opts: object
) -> Path:
    """Write a recording folder (the module's docstring) of a Super Wild or Holominoes transcript.

    Args:
        text: the transcript.
        out: the folder to write; created if missing.
        seed: seeds every random choice.
        styles: the tile styles' font split, "train" or "held_out".
        progress: show a progress bar (tilescribe.progress).
        **opts: :class:`TableSimOptions` fields (``size=(640, 480)``, ``fps=6.0``, ...).

    Returns:
        ``out``.

    Raises:
        ValueError: see :class:`TableSimulation`, or an option that is not a TableSimOptions field.
        OSError: the folder or a file cannot be written.
    """
    known = {f.name for f in fields(TableSimOptions)}
    unknown = sorted(set(opts) - known)
    if unknown:
        raise ValueError(f"unknown table simulation options: {', '.join(unknown)}")
    options = TableSimOptions(**opts)  # type: ignore[arg-type]
    sim = TableSimulation(text, seed, styles, options)  # type: ignore[arg-type]
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    name = next(k for k, v in TABLE_SIM_GAMES.items() if v == sim.game.game)
    write_recording_files(
        out, sim.frames(), sim.frame_count, progress,
        lambda frame: {"cells": {}, "hand": frame.hand, "layout": list(frame.layout)},
        {"game": name, "fps": options.fps, "size": list(options.size), "seed": seed, "styles": styles,
         "transcript": text},
    )
    return out
