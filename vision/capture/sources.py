"""Frame sources: where camera frames come from.

One interface, :class:`FrameSource`, over four kinds of source:

- :class:`PiCameraSource`: the Raspberry Pi camera through picamera2 (thin; the ``pi`` extra).
- :class:`OpenCVCameraSource`: any OpenCV camera, a USB webcam index (``"0"``) or a stream URL.
- :class:`VideoFileSource`: a video file readable by OpenCV.
- :class:`RecordingSource`: a recording folder as written by ``tilescribe simulate``: frames
  ``000000.jpg``..., ``frames.json`` (``{"board", "fps", "frames": [{"file", "t", "cells",
  "hand"}]}``) and ``events.jsonl`` (one ``{"t", "frame", "type": "end_turn", "turn"}`` per line).
  Its end-of-turn events ride on the frames they belong to. Besides ``end_turn``, a recording may
  script the players' other requests: ``pass``, ``freeze``, ``undo``, ``end_game`` and
  ``{"type": "correct", "cell": "B3", "face": "8"}`` (a kiosk correction of a misread cell); on a
  layout-read table ``{"type": "correct_tile", "cell": "7H8", "face": "1H8"}`` (a misread tile, in
  the reading's frame) and ``{"type": "add_tile", "face": "R7@3,1"}`` (a tile the camera does not
  see, in the transcript's frame).

``read()`` returns the next :class:`Frame`, ``None`` at the end of a finite source, and raises
:class:`SourceLostError` when the camera disappears (or a recorded frame cannot be read); the caller
reports it and calls ``reopen()``; the source then continues where it stood. Nothing is opened at
import time: a source opens its device on the first ``read()``.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.files import InputFileError, inside, read_text
from vision.capture.images import ImageError, load_image
from vision.errors import VisionError

#: (smallest, largest) side in pixels of a live camera's frames: the Pi Camera Module 3's largest
#: frames are 4608 x 2592.
LIVE_SIZES = (160, 4608)
#: A live camera's frame size (width, height) unless the source names one: enough pixels a tile
#: for a board up to order 13.
CAMERA_SIZE = (1280, 960)
#: Highest frame rate a recording may claim: cameras deliver at most a few hundred frames a second.
MAX_FPS = 1000


class SourceError(VisionError):
    """A frame source cannot be opened or its description is malformed (names the input)."""


class SourceLostError(SourceError):
    """The camera disappeared (or a recorded frame is unreadable); ``reopen()`` may bring it back."""


@dataclass(frozen=True, slots=True)
class SourceEvent:
    """An event carried by a source, e.g. an end-of-turn signal in a recording.

    Attributes:
        type: event kind; recordings use ``"end_turn"``.
        t: time of the event in seconds from the start of the source.
        frame: index of the frame the event belongs to.
        turn: the turn number the event ends (1-based), when known.
        cell: for a scripted correction, the cell's address (``"correct"``) or the tile read
            (``"correct_tile"``).
        face: for a scripted correction, the true face or tile (``""`` for none); for
            ``"add_tile"``, the tile added; for ``"pass"``, the tile a Holominoes pass returns.
    """

    type: str
    t: float
    frame: int
    turn: int | None = None
    cell: str | None = None
    face: str | None = None

    def __post_init__(self) -> None:
        if not self.type:
            raise ValueError("event type must not be empty")
        if self.frame < 0:
            raise ValueError(f"event frame index must be >= 0, got {self.frame!r}")


@dataclass(frozen=True, slots=True, eq=False)
class Frame:
    """One camera frame.

    Attributes:
        image: the picture, BGR uint8, H x W x 3.
        t: capture time in seconds (from the start of the source for files and recordings,
            monotonic clock for live cameras).
        index: 0-based frame number within the source.
        events: events that arrive with this frame (end-of-turn signals of a recording).
    """

    image: np.ndarray
    t: float
    index: int
    events: tuple[SourceEvent, ...] = ()

    def __post_init__(self) -> None:
        img = self.image
        if not isinstance(img, np.ndarray) or img.dtype != np.uint8 or img.ndim != 3 or img.shape[2] != 3:
            shape = getattr(img, "shape", None)
            raise ValueError(f"frame {self.index}: image must be BGR uint8 H x W x 3, got shape {shape}")
        if self.index < 0:
            raise ValueError(f"frame index must be >= 0, got {self.index!r}")


class FrameSource:
    """Base of all frame sources: ``read()`` frames until ``None``; ``close()`` when done.

    Sub-classes implement ``_open()``, ``_read()`` and ``_release()``. Iterating a source yields
    frames until the end (a :class:`SourceLostError` propagates to the caller).
    """

    #: True for sources that run out (files, recordings); False for live cameras.
    finite: bool = True

    def __init__(self, name: str) -> None:
        self.name = name
        self._is_open = False
        self._was_open = False
        self._index = 0

    def read(self) -> Frame | None:
        """The next frame, or ``None`` at the end of a finite source.

        Raises:
            SourceError: the source cannot be opened (wrong path, no such camera).
            SourceLostError: the camera stopped delivering frames, or cannot be opened again after
                it worked (call ``reopen()`` and try again).
        """
        if not self._is_open:
            try:
                self._open()
            except SourceLostError:
                raise
            except SourceError as exc:
                if self._was_open:  # it worked before: a camera unplugged, a share gone away
                    raise SourceLostError(str(exc)) from exc
                raise
            self._is_open = self._was_open = True
        return self._read()

    def reopen(self) -> None:
        """Release the device and open it again on the next ``read()``; the frame count goes on."""
        self.close()

    def close(self) -> None:
        """Release the device (idempotent)."""
        if self._is_open:
            self._release()
            self._is_open = False

    def __iter__(self) -> Iterator[Frame]:
        while (frame := self.read()) is not None:
            yield frame

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _next_index(self) -> int:
        index = self._index
        self._index += 1
        return index

    def _open(self) -> None:
        raise NotImplementedError

    def _read(self) -> Frame | None:
        raise NotImplementedError

    def _release(self) -> None:
        raise NotImplementedError


class _CaptureSource(FrameSource):
    """A ``cv2.VideoCapture`` on a camera index, a stream URL or a video file."""

    def __init__(self, name: str, target: int | str) -> None:
        super().__init__(name)
        self._target = target
        self._capture: cv2.VideoCapture | None = None

    def _open(self) -> None:
        capture = cv2.VideoCapture(self._target)
        if not capture.isOpened():
            capture.release()
            raise SourceError(f"cannot open {self.name}")
        self._capture = capture

    def _release(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None

    def _cap(self) -> cv2.VideoCapture:
        if self._capture is None:
            raise SourceError(f"{self.name} is not open")
        return self._capture


class OpenCVCameraSource(_CaptureSource):
    """A live OpenCV camera: a USB webcam index or a stream URL; frames stamped with a monotonic clock.

    Args:
        target: camera index (``0``, or ``"0"``) or a stream URL (``rtsp://...``, ``http://...``).
        width, height: requested capture size in pixels (the camera may pick another); kept as
            ``size`` (width, height).
    """

    finite = False

    def __init__(self, target: int | str, width: int = CAMERA_SIZE[0], height: int = CAMERA_SIZE[1]) -> None:
        if isinstance(target, str) and target.isdigit():
            target = int(target)
        super().__init__(f"camera {target!r}", target)
        self.size = (width, height)

    def _open(self) -> None:
        super()._open()
        self._cap().set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        self._cap().set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])

    def _read(self) -> Frame | None:
        ok, image = self._cap().read()
        if not ok or image is None:
            raise SourceLostError(f"{self.name} stopped delivering frames")
        return Frame(image, time.monotonic(), self._next_index())


class VideoFileSource(_CaptureSource):
    """A video file; frame times come from the file's timestamps (seconds from the start).

    Raises (from ``read``):
        SourceError: the file does not exist or OpenCV cannot decode it.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        super().__init__(f"video file {str(self.path)!r}", str(self.path))

    def _open(self) -> None:
        if not self.path.is_file():
            raise SourceError(f"video file {str(self.path)!r} does not exist")
        super()._open()
        if self._index:  # reopened: skip what was already delivered
            self._cap().set(cv2.CAP_PROP_POS_FRAMES, self._index)

    def _read(self) -> Frame | None:
        ok, image = self._cap().read()
        if not ok or image is None:
            return None
        t = self._cap().get(cv2.CAP_PROP_POS_MSEC) / 1000.0
        return Frame(image, t, self._next_index())


@dataclass(frozen=True, slots=True)
class RecordedFrame:
    """One entry of a recording's ``frames.json``.

    Attributes:
        file: image file name inside the recording folder.
        t: time in seconds from the start of the recording.
        cells: the true occupied cells, address -> face (``"10"``, ``"#"``, ``"marker"``).
        hand: True when a hand or arm is over the board in this frame.
        layout: the true tiles of a Yushino, Super Wild or Holominoes recording, each a placement in
            the game's notation (games.md: ``7H8``, ``R7@3,0``, ``132@1,0/E``), sorted; None for
            MODLINSEQ, whose truth is ``cells``.
    """

    file: str
    t: float
    cells: dict[str, str] = field(hash=False)
    hand: bool = False
    layout: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Recording:
    """A recording folder's index, as written by ``tilescribe simulate``.

    Attributes:
        folder: the recording folder.
        board: the board.json path named by ``frames.json`` (resolved against the folder).
        fps: nominal frames per second.
        frames: the frame entries, in order.
        events: the events from ``events.jsonl``, in file order.
    """

    folder: Path
    board: Path | None
    fps: float
    frames: tuple[RecordedFrame, ...]
    events: tuple[SourceEvent, ...]

    @classmethod
    def load(cls, folder: str | Path) -> Recording:
        """Read ``frames.json`` and ``events.jsonl`` (the latter may be absent).

        Raises:
            SourceError: the folder or ``frames.json`` is missing, or an entry is malformed; the
                message names the file and the entry (frame index or line number).
        """
        folder = Path(folder)
        index_path = folder / "frames.json"
        if not index_path.is_file():
            raise SourceError(f"recording {str(folder)!r}: no frames.json")
        try:
            data = json.loads(read_text(index_path))
        except InputFileError as exc:
            raise SourceError(str(exc)) from exc
        except (ValueError, RecursionError) as exc:  # a number too long for Python's int, nested too deep
            raise SourceError(f"{index_path}: not valid JSON ({exc})") from exc
        entries = enumerate(_list(data, index_path))
        frames = tuple(_recorded_frame(index_path, i, entry) for i, entry in entries)
        board = data.get("board")
        fps = data.get("fps", 0)
        if not isinstance(fps, int | float) or not 0 <= fps <= MAX_FPS:
            raise SourceError(f"{index_path}: 'fps' must be a number from 0 to {MAX_FPS}, got {fps!r}")
        try:
            board_path = None if board is None else inside(folder, board, f"{index_path}: 'board'")
        except InputFileError as exc:
            raise SourceError(str(exc)) from exc
        return cls(
            folder=folder,
            board=board_path,
            fps=float(fps),
            frames=frames,
            events=_load_events(folder / "events.jsonl", len(frames)),
        )


def _list(data: Any, path: Path) -> list[Any]:
    frames = data.get("frames") if isinstance(data, dict) else None
    if not isinstance(frames, list):
        raise SourceError(f"{path}: expected an object with a 'frames' list")
    return frames


def _recorded_frame(path: Path, i: int, entry: Any) -> RecordedFrame:
    try:
        file, t = entry["file"], float(entry["t"])
        inside(path.parent, file, f"{path}: frame {i} 'file'")
        cells = dict(entry.get("cells", {}))
        if not all(isinstance(v, str) for v in cells.values()):
            raise TypeError("cell faces must be strings")
        layout = entry.get("layout")
        if layout is not None and not (isinstance(layout, list) and all(isinstance(v, str) for v in layout)):
            raise TypeError("'layout' must be a list of placements (strings)")
        if not math.isfinite(t):
            raise ValueError(f"time {t!r} is not a finite number")
        return RecordedFrame(file=file, t=t, cells=cells, hand=bool(entry.get("hand", False)),
                             layout=None if layout is None else tuple(sorted(layout)))
    except InputFileError as exc:
        raise SourceError(str(exc)) from exc
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise SourceError(f"{path}: frame entry {i} is malformed ({exc!r}): {str(entry)[:80]}") from exc


def _load_events(path: Path, n_frames: int) -> tuple[SourceEvent, ...]:
    if not path.is_file():
        return ()
    events = []
    try:
        text = read_text(path)
    except InputFileError as exc:
        raise SourceError(str(exc)) from exc
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            turn = raw.get("turn")
            if not all(isinstance(raw.get(key, ""), str) for key in ("cell", "face")):
                raise TypeError("'cell' and 'face' must be strings")
            event = SourceEvent(
                type=str(raw["type"]),
                t=float(raw["t"]),
                frame=int(raw["frame"]),
                turn=None if turn is None else int(turn),
                cell=raw.get("cell"),
                face=raw.get("face"),
            )
        except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
            raise SourceError(f"{path}:{lineno}: malformed event ({exc}): {line[:80]!r}") from exc
        if event.frame >= n_frames:
            raise SourceError(f"{path}:{lineno}: event names frame {event.frame}, recording has {n_frames}")
        events.append(event)
    return tuple(events)


class RecordingSource(FrameSource):
    """A recording folder (``tilescribe simulate`` format); frames carry their end-of-turn events.

    A frame file that is missing or unreadable raises :class:`SourceLostError` (like a camera that
    dropped out); after ``reopen()`` the source goes on with the following frame.

    Args:
        folder: the recording folder.
        start: index of the first frame to deliver (to resume part-way).
    """

    def __init__(self, folder: str | Path, start: int = 0) -> None:
        self.recording = Recording.load(folder)
        super().__init__(f"recording {str(self.recording.folder)!r}")
        self._index = start
        self._events: dict[int, tuple[SourceEvent, ...]] = {}
        for event in self.recording.events:
            self._events[event.frame] = (*self._events.get(event.frame, ()), event)

    def __len__(self) -> int:
        return len(self.recording.frames)

    def _open(self) -> None:
        pass

    def _release(self) -> None:
        pass

    def _read(self) -> Frame | None:
        if self._index >= len(self.recording.frames):
            return None
        index = self._next_index()
        entry = self.recording.frames[index]
        try:
            image = load_image(self.recording.folder / entry.file)
        except ImageError as exc:
            raise SourceLostError(f"{self.name}: frame {index} is missing or unreadable ({exc})") from exc
        return Frame(image, entry.t, index, self._events.get(index, ()))


class PiCameraSource(FrameSource):
    """The Raspberry Pi camera through picamera2 (``python3-picamera2`` or the ``pi`` extra).

    Args:
        width, height: capture size in pixels; kept as ``size`` (width, height).

    Raises (from ``read``):
        SourceError: picamera2 is not installed or no camera is connected.
        SourceLostError: the camera stopped delivering frames.
    """

    finite = False

    def __init__(self, width: int = CAMERA_SIZE[0], height: int = CAMERA_SIZE[1]) -> None:
        super().__init__("Pi camera")
        self.size = (width, height)
        self._camera: Any = None

    def _open(self) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise SourceError("Pi camera: picamera2 missing (apt install python3-picamera2)") from exc
        try:
            camera = Picamera2()
            config = camera.create_video_configuration(main={"size": self.size, "format": "RGB888"})
            camera.configure(config)
            camera.start()
        except (RuntimeError, IndexError, OSError) as exc:
            raise SourceError(f"Pi camera: cannot start ({exc})") from exc
        self._camera = camera

    def _read(self) -> Frame | None:
        try:
            image = self._camera.capture_array("main")  # "RGB888" is BGR byte order in memory
        except (RuntimeError, OSError) as exc:
            raise SourceLostError(f"Pi camera stopped delivering frames ({exc})") from exc
        return Frame(np.ascontiguousarray(image[:, :, :3]), time.monotonic(), self._next_index())

    def _release(self) -> None:
        if self._camera is not None:
            self._camera.close()
            self._camera = None


def open_source(spec: str) -> FrameSource:
    """The frame source a command-line ``--source`` names.

    Args:
        spec: ``"pi"`` for the Pi camera; a digit for an OpenCV camera index; either of them with
            ``:WIDTHxHEIGHT`` for frames of that size (default CAMERA_SIZE; a bigger board
            needs more pixels a tile, e.g. ``pi:2560x1920`` for order 18); a URL
            (``scheme://...``) for a stream; a folder holding ``frames.json`` for a recording;
            otherwise a video file path.

    Raises:
        SourceError: ``spec`` names a path that does not exist, or a folder that is no recording,
            or a camera frame size outside LIVE_SIZES.
    """
    camera = re.fullmatch(r"(pi|\d+)(?::(\d+)x(\d+))?", spec)
    if camera is not None:
        size = CAMERA_SIZE if camera[2] is None else (int(camera[2]), int(camera[3]))
        low, high = LIVE_SIZES
        if not all(low <= side <= high for side in size):
            raise SourceError(f"source {spec!r}: frame width and height must be {low} to {high} pixels")
        return PiCameraSource(*size) if camera[1] == "pi" else OpenCVCameraSource(camera[1], *size)
    if "://" in spec:
        return OpenCVCameraSource(spec)
    path = Path(spec)
    if path.is_dir():
        return RecordingSource(path)
    if path.is_file():
        return VideoFileSource(path)
    raise SourceError(f"source {spec!r}: no such file, folder or camera")
