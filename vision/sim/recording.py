"""Simulated recordings of a game: frames in memory (``simulate``) or on disk (``make_recording``).

A recording folder holds::

    000000.jpg 000001.jpg ...      camera frames, in order
    frames.json                    {"board": "board.json", "fps": F, "frames": [
                                      {"file": "000000.jpg", "t": 0.0, "cells": {"A0": "10", ...},
                                       "hand": false, "pose": 0, "occluded": []}, ...], ...}
    events.jsonl                   {"t": seconds, "frame": index, "type": "end_turn", "turn": n}

``cells`` are the truly occupied cells and their printed faces (a Yushino recording writes ``"cells": {}``
and ``"layout"`` instead: every tile as a placement of games.md, ``7H8``, a blank ``#H9``, sorted);
``hand`` tells whether a hand or
arm covers part of the sheet; ``occluded`` lists the cells whose centre a hand, arm or held tile covers;
``board`` names the copy of board.json in the folder (no path leads outside it). frames.json
extends the basic format above with ``size``, ``seed``, ``poses`` (per pose index: the homography from
board.png pixels to ideal image pixels and the lens term k1, see vision.sim.camera), ``tiles`` (per
cell: face, style, angle in degrees counter-clockwise, turn), the frames' ``pose`` and
``occluded``, and for a recording of a Yushino transcript the transcript itself (``transcript``:
a session of the recording takes the game, its players and tags from it). Turns are numbered from 1 in
the order given. Everything is drawn from ``SimOptions.seed``: the same inputs give byte-identical
frames.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.geometry import BoardGeometry
from calibration.square_geometry import SquareBoardGeometry, load_board
from vision.board.sheet import AnyBoard, board_sheet
from vision.sim.camera import CameraPose, bumped, random_lighting, random_pose
from vision.sim.frame_files import write_recording_files
from vision.sim.game_tiles import YUSHINO_FACES, GameStyle, sample_game_style
from vision.sim.hands import HandLook, random_look
from vision.sim.scene import BoardStyle, HandInFrame, Optics, Scene, table_top
from vision.sim.square_scene import TURN_SIGMA_DEG
from vision.sim.tiles import SHAPES, Shape, Split, sample_style, shape_shows
from vision.sim.timeline import Detour, Pacing, SimPlacement, Timeline, TurnEnd, build_timeline, seat_points

Turn = Sequence[SimPlacement]
#: The games played on a printed board.
BOARD_GAMES: tuple[str, ...] = ("modlinseq", "yushino")


@dataclass(frozen=True, slots=True)
class SimOptions:
    """How to simulate a recording.

    Attributes:
        seed: seeds every random choice.
        size: image (width, height), pixels.
        fps: frames per second.
        players: seats around the board; turn i is played from seat i % players.
        hands: paint hands and arms (without them tiles just appear).
        pacing: durations and mid-turn pauses (``Pacing.pause_chance``).
        split: tile styles from the "train" or the "held_out" set (vision.sim.tiles).
        shapes: tile shapes to draw styles from.
        per_tile_styles: draw a new style for every tile (else one tile set for the whole game;
            real Rummikub crops still vary in ink colour from tile to tile).
        any_rotation: tiles at any angle; else facing their player +- 25 degrees.
        bumps: times the sheet is knocked to a new pose during the recording.
        distortion: largest radial lens distortion k1 (vision.sim.camera); 0 for a perfect lens.
        exposure: exposure time in seconds: moving hands are smeared over it (motion blur).
        light_change: amplitude of the slow change of light.
        light_jumps: sudden changes of light (by 15..30 %) at random times.
        blur_sigma: defocus blur in pixels; None draws it (0.4..1.0).
        noise_sigma: sensor noise in grey levels; None draws it (1.5..4.5).
        jpeg_quality: JPEG quality (1..100); every frame goes through JPEG, in memory too.
        modulus: the number shown on a modulus marker (§8).
        game: "modlinseq" (tiles of ``shapes`` on the hex board) or "yushino" (Yushino's tiles,
            vision.sim.game_tiles, on the square board, lying square to it: the angle facing
            their player rounded to a quarter turn, plus a small turn).
    """

    seed: int = 0
    size: tuple[int, int] = (1280, 960)
    fps: float = 10.0
    players: int = 2
    hands: bool = True
    pacing: Pacing = field(default_factory=Pacing)
    split: Split = "train"
    shapes: tuple[Shape, ...] = ("pentagon",)
    per_tile_styles: bool = False
    any_rotation: bool = False
    bumps: int = 0
    distortion: float = 0.08
    exposure: float = 1 / 30
    light_change: float = 0.1
    light_jumps: int = 0
    blur_sigma: float | None = None
    noise_sigma: float | None = None
    jpeg_quality: int = 90
    modulus: int = 13
    game: str = "modlinseq"

    def __post_init__(self) -> None:
        if min(self.size) < 64 or self.fps <= 0 or self.players < 1 or min(self.bumps, self.light_jumps) < 0:
            raise ValueError(f"options need size >= 64 px, fps > 0, players >= 1, bumps >= 0: {self}")
        if not self.shapes or any(s not in SHAPES for s in self.shapes):
            raise ValueError(f"shapes must be a non-empty subset of {SHAPES}, got {self.shapes!r}")
        if not 0 <= self.exposure <= 1:
            raise ValueError(f"exposure must be within [0, 1] seconds, got {self.exposure}")
        if not 0 <= self.distortion < 0.3:
            raise ValueError(f"distortion must be within [0, 0.3), got {self.distortion}")
        if not 1 <= self.jpeg_quality <= 100:
            raise ValueError(f"jpeg_quality must be 1..100, got {self.jpeg_quality}")
        if self.game not in BOARD_GAMES:
            raise ValueError(f"game must be one of {BOARD_GAMES}, got {self.game!r}")


@dataclass(frozen=True, slots=True)
class SimFrame:
    """One simulated camera frame with its ground truth.

    Attributes:
        index: frame number from 0.
        t: time in seconds.
        image: BGR uint8, H x W x 3, decoded from ``jpeg`` (what a reader of the file would see).
        jpeg: the frame as a JPEG file's bytes.
        cells: address -> printed face of every occupied cell.
        hand: a hand or arm covers part of the sheet.
        pose: index of the camera pose (changes when the sheet is bumped).
        turn_ends: end-of-turn signals that fall on this frame.
        occluded: cells whose centre a hand, an arm or a held tile covers (occupied or not).
    """

    index: int
    t: float
    image: np.ndarray
    jpeg: bytes
    cells: Mapping[str, str]
    hand: bool
    pose: int
    turn_ends: tuple[TurnEnd, ...] = ()
    occluded: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class RecordingInfo:
    """What :func:`make_recording` wrote."""

    out_dir: Path
    frames: int
    turn_ends: int
    duration: float


class Simulation:
    """A planned recording: timeline, styles, poses and scene, ready to render frame by frame.

    Args:
        turns: per turn, the tiles placed (an empty turn is a pass).
        board: the printed board.
        options: simulation options.
        initial: tiles on the board from the start (e.g. the modulus marker on A0, §8).
        detours: take-backs and knocks (vision.sim.timeline.Detour).

    Raises:
        ValueError: a placement names a cell not on the board, fills a cell twice, or shows a
            face that the chosen tile styles cannot show (the message names turn, cell and face).
    """

    def __init__(
        self,
        turns: Sequence[Turn],
        board: AnyBoard,
        options: SimOptions,
        initial: Turn = (),
        detours: Sequence[Detour] = (),
    ) -> None:
        self.board = board
        self.options = options
        seed = options.seed
        plan = np.random.default_rng([seed, 0])
        sheet = board_sheet(board)
        centres = {a: (float(x), float(y)) for a, (x, y) in zip(sheet.addresses, sheet.centres, strict=True)}
        bw, bh = board.image_size
        seats = seat_points((bw / 2, bh / 2), 0.75 * math.hypot(bw, bh), options.players)
        self.timeline: Timeline = build_timeline(
            turns,
            centres,
            seats,
            options.pacing,
            plan,
            any_rotation=options.any_rotation,
            initial=initial,
            detours=detours,
        )
        self._first = self.timeline.first_landings()
        self.styles = self._choose_styles(plan)
        self.angles = [x.angle_deg for x in self.timeline.landings]
        if options.game == "yushino":
            self.angles = [square_turn(a, plan) for a in self.angles]
        self.looks: tuple[HandLook, ...] = tuple(random_look(plan) for _ in seats)
        first = random_pose(board.image_size, options.size, plan, k1_max=options.distortion)
        self.poses: list[CameraPose] = [first]
        self.bump_times = sorted(
            float(v) for v in plan.uniform(0, self.timeline.duration, size=options.bumps)
        )
        for _ in self.bump_times:
            self.poses.append(bumped(self.poses[-1], plan))
        optics = Optics(
            blur_sigma=options.blur_sigma
            if options.blur_sigma is not None
            else float(plan.uniform(0.4, 1.0)),
            noise_sigma=options.noise_sigma
            if options.noise_sigma is not None
            else float(plan.uniform(1.5, 4.5)),
            shadow_offset=(float(plan.uniform(10, 40)), float(plan.uniform(10, 40))),
        )
        lighting = random_lighting(
            plan, change=options.light_change, jumps=options.light_jumps, duration=self.timeline.duration
        )
        scale = first.scale_at((bw / 2, bh / 2))
        texture_scale = min(1.0, 2.0 * scale)
        self.scene = Scene(
            board,
            options.size,
            texture_scale,
            table_top(options.size, plan),
            lighting,
            optics,
            np.random.default_rng([seed, 3]),
        )
        self._held: dict[tuple[int, int], np.ndarray] = {}
        self._pose_index = -1
        self.frame_count = int(math.floor(self.timeline.duration * options.fps)) + 1

    def _choose_styles(self, rng: np.random.Generator) -> list[BoardStyle]:
        """One style per landing (the same one for all unless per_tile_styles or real crops); a tile
        put back keeps its style."""
        o = self.options
        if o.game == "yushino":
            return self._yushino_styles(rng)
        base = sample_style(rng, o.split, o.shapes)
        styles: list[BoardStyle] = []
        for i, landing in enumerate(self.timeline.landings):
            if self._first[i] != i:
                styles.append(styles[self._first[i]])
                continue
            face = landing.placement.face
            style = base
            if o.per_tile_styles or base.shape == "photo":
                shapes = o.shapes if o.per_tile_styles else ("photo",)
                style = sample_style(rng, o.split, tuple(s for s in shapes if shape_shows(s, face)) or shapes)
            if not style.supports(face):
                raise ValueError(
                    f"turn {landing.turn}: cell {landing.placement.address}: tile style "
                    f"{style.name!r} cannot show face {landing.placement.face!r}"
                )
            styles.append(style)
        return styles

    def _yushino_styles(self, rng: np.random.Generator) -> list[BoardStyle]:
        """One set of Yushino tiles (one style each with per_tile_styles); a tile put back keeps its style."""
        o = self.options
        base = sample_game_style(rng, o.split, "yushino")
        styles: list[BoardStyle] = []
        for i, landing in enumerate(self.timeline.landings):
            placement = landing.placement
            if placement.face not in YUSHINO_FACES:
                raise ValueError(f"turn {landing.turn}: cell {placement.address}: Yushino has no tile "
                                 f"{placement.face!r}")
            first = self._first[i]
            fresh = sample_game_style(rng, o.split, "yushino") if o.per_tile_styles and first == i else base
            styles.append(styles[first] if first != i else fresh)
        return styles

    def frames(self) -> Iterator[SimFrame]:
        """Render every frame in order (each call starts again from the empty board)."""
        o = self.options
        self.scene.clear()
        landings = self.timeline.landings
        changes = sorted(
            [(x.t, 1, i) for i, x in enumerate(landings)]
            + [(x.lifted, 0, i) for i, x in enumerate(landings) if x.lifted < math.inf]
        )
        done = 0
        pose_index = -1
        ends = list(self.timeline.turn_ends)
        for index in range(self.frame_count):
            t = index / o.fps
            wanted_pose = int(np.searchsorted(self.bump_times, t, side="right"))
            if wanted_pose != pose_index:
                pose_index = self._pose_index = wanted_pose
                self.scene.set_pose(self.poses[pose_index])
            while done < len(changes) and changes[done][0] <= t:
                _, lands, i = changes[done]
                landing = landings[i]
                if lands:
                    self.scene.place_tile(
                        landing.placement.address,
                        landing.placement.face,
                        self.styles[i],
                        self.angles[i],
                        np.random.default_rng([o.seed, 2, self._first[i]]),  # a tile put back: the same look
                        modulus=o.modulus,
                    )
                else:
                    self.scene.remove_tile(landing.placement.address)
                done += 1
            hands = self._hands(t) if o.hands else []
            shot = self.scene.render(t, hands, np.random.default_rng([o.seed, 1, index]))
            ok, encoded = cv2.imencode(".jpg", shot.image, [cv2.IMWRITE_JPEG_QUALITY, o.jpeg_quality])
            if not ok:
                raise ValueError(f"frame {index}: JPEG encoding failed")
            image = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
            if image is None:
                raise ValueError(f"frame {index}: JPEG decoding failed")
            due = tuple(e for e in ends if e.t <= t)
            ends = ends[len(due) :]
            cells = {x.placement.address: x.placement.face for x in self.timeline.placed_at(t)}
            yield SimFrame(
                index, round(t, 4), image, encoded.tobytes(), cells, shot.hand, pose_index, due, shot.occluded
            )

    def _hands(self, t: float) -> list[HandInFrame]:
        pose = self.scene.pose
        hands = []
        for seat, look in enumerate(self.looks):
            point = self.timeline.hand_at(seat, t)
            if point is None:
                continue
            before = self.timeline.hand_at(seat, t - self.options.exposure) or point
            tip, tip_before = pose.project(np.array([point, before]))
            seat_xy = np.array([self.timeline.seats[seat]], np.float64).reshape(-1, 1, 2)
            shoulder = cv2.perspectiveTransform(seat_xy, pose.homography).reshape(2)
            carried = self.timeline.carried_at(seat, t)
            held = self._held_sprite(carried) if carried is not None else None
            hands.append(
                HandInFrame(
                    (float(tip[0]), float(tip[1])),
                    (float(shoulder[0]), float(shoulder[1])),
                    look,
                    held,
                    (float(tip[0] - tip_before[0]), float(tip[1] - tip_before[1])),
                )
            )
        return hands

    def _held_sprite(self, index: int) -> np.ndarray:
        """The sprite of landing ``index`` as held in the hand (the same tile image as on the sheet)."""
        key = (index, self._pose_index)
        if key not in self._held:
            landing = self.timeline.landings[index]
            origin = self.scene.sheet.middle
            ends = self.scene.pose.project(np.array([origin, (origin[0] + 100.0, origin[1])]))
            turn = math.degrees(math.atan2(ends[1][1] - ends[0][1], ends[1][0] - ends[0][0]))
            self._held = {
                key: self.scene.held_sprite(
                    landing.placement.face,
                    self.styles[index],
                    self.angles[index] - turn,
                    np.random.default_rng([self.options.seed, 2, index]),
                    modulus=self.options.modulus,
                )
            }
        return self._held[key]

    def tiles_json(self) -> dict[str, dict[str, object]]:
        """Per cell: face, style name, angle (degrees counter-clockwise) and turn."""
        return {
            x.placement.address: {
                "face": x.placement.face,
                "style": s.font.name if isinstance(s, GameStyle) else s.name,
                "angle_deg": round(a, 2),
                "turn": x.turn,
            }
            for x, s, a in zip(self.timeline.landings, self.styles, self.angles, strict=True)
        }


def simulate(
    turns: Sequence[Turn], board: AnyBoard, options: SimOptions | None = None, initial: Turn = ()
) -> Iterator[SimFrame]:
    """Render a game's frames in memory, in order (see :class:`Simulation`).

    Raises:
        ValueError: see :class:`Simulation`.
    """
    return Simulation(turns, board, options or SimOptions(), initial).frames()


def make_recording(
    turns: Sequence[Turn],
    board: AnyBoard | str | Path,
    out_dir: str | Path,
    options: SimOptions | None = None,
    *,
    initial: Turn = (),
    progress: bool = False,
    transcript: str | None = None,
) -> RecordingInfo:
    """Write a recording folder (module docstring) for a game.

    Args:
        turns: per turn, the placements (an empty turn is a pass).
        board: the board, or the path of its board.json (named in frames.json; a geometry given
            as a value is saved as out_dir/board.json).
        out_dir: the folder to write; created if missing.
        options: simulation options.
        initial: tiles on the board from the start (e.g. the modulus marker on A0, §8).
        progress: show a tqdm progress bar.
        transcript: the game's transcript, stored in frames.json (``transcript``), or None.

    Raises:
        ValueError: see :class:`Simulation`.
        calibration.geometry.BoardFileError: board.json cannot be read.
        OSError: the folder or a file cannot be written.
    """
    options = options or SimOptions()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    geometry = board if isinstance(board, BoardGeometry | SquareBoardGeometry) else load_board(board)
    geometry.save(out / "board.json")  # in the folder: a recording names no file outside itself
    sim = Simulation(turns, geometry, options, initial)

    def truth(frame: SimFrame) -> dict[str, object]:
        tiles: dict[str, object] = {"cells": dict(frame.cells)}
        if options.game == "yushino":
            tiles = {"cells": {}, "layout": yushino_layout(frame.cells)}
        return {**tiles, "hand": frame.hand, "pose": frame.pose,
                "occluded": sorted(frame.occluded, key=_address_order)}

    facts: dict[str, object] = {
        "board": "board.json", "fps": options.fps, "size": list(options.size), "seed": options.seed,
        "poses": [p.to_json() for p in sim.poses], "tiles": sim.tiles_json(),
    }
    if transcript is not None:
        facts["transcript"] = transcript
    frames, events = write_recording_files(out, sim.frames(), sim.frame_count, progress, truth, facts)
    return RecordingInfo(out, frames, events, sim.timeline.duration)


def record_yushino_game(text: str, out: Path, seed: int, styles: Split = "held_out", **opts: Any) -> Path:
    """Write a recording folder (module docstring) of a Yushino transcript on the default printed
    square board (``tilescribe board print --game yushino``), with Yushino's tiles.

    Args:
        text: a Yushino transcript (engine.yushino.transcript); exchanges and passes lay nothing.
        out: the folder to write; created if missing.
        seed: seeds every random choice (the same inputs give byte-identical frames).
        styles: the tile fonts' split, "held_out" (figures) or "train".
        **opts: further :class:`SimOptions` fields (size, fps, hands, pacing, light_jumps...).

    Returns:
        ``out``.

    Raises:
        ValueError: the transcript does not parse (the first error's line and message), or a bad option.
        OSError: the folder or a file cannot be written.
    """
    from calibration.square_board import SquareSpec, design_square_board
    from engine.yushino.transcript import parse_transcript
    from vision.sim.transcripts import plan_yushino

    transcript, errors = parse_transcript(text)
    if errors:
        raise ValueError(f"line {errors[0].line}: {errors[0].message}")
    plan = plan_yushino(transcript)
    options = SimOptions(seed=seed, split=styles, players=plan.players, game="yushino", **opts)
    make_recording(plan.turns, design_square_board(SquareSpec()), out, options, transcript=text)
    return Path(out)


def yushino_layout(cells: Mapping[str, str]) -> list[str]:
    """A Yushino board's tiles as sorted placements (games.md): {"H8": "7", "H9": "#"} -> ["#H9", "7H8"]."""
    return sorted(face + address for address, face in cells.items())


def square_turn(angle_deg: float, rng: np.random.Generator) -> float:
    """A Yushino tile's turn (degrees counter-clockwise, 0..360): the angle facing its player
    rounded to a quarter turn (tiles lie square to the board), plus a small random turn
    (vision.sim.square_scene.TURN_SIGMA_DEG)."""
    return (round(angle_deg / 90.0) * 90.0 + float(rng.normal(0, TURN_SIGMA_DEG))) % 360.0


def _address_order(address: str) -> tuple[str, int]:
    return (address[0], int(address[1:]))
