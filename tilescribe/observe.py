"""From frames to observations of the board: the camera state, and a reading once it is settled.

Only still, unoccluded frames count; the board is read after it has
been still for ``still_seconds`` with no hand or arm over it; a hand never creates or removes a
tile. An observer looks at each frame (locating the board, checking the gate) and returns an
:class:`Observation`; :class:`Settle` decides, from the per-frame quiet/not-quiet flags and the
frame times, when the board is settled so that it is worth reading (once per settled spell).

Observers:
- ``tilescribe.vision_observer.VisionObserver``: the camera pipeline (board location, gate, tile
  reader).
- :class:`TruthObserver`: a recording's own truth (``frames.json`` cells and hand flags), no
  vision at all; it tests the session logic alone and stands in where the vision parts are missing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from display.view import CameraState
from engine.hexgrid import Hex, parse_address
from vision.capture.sources import Frame, Recording


@dataclass(frozen=True, slots=True)
class Observation:
    """What one frame says about the board.

    Attributes:
        frame: the frame's index.
        t: the frame's time in seconds.
        camera: board locked, hand over it, moving, or lost.
        faces: when the board was read in this frame (settled and unoccluded): cell -> face
            (``"7"``, ``"#"``, ``"marker"``, ``"joker"``) for every occupied cell; else None.
        confidence: cell -> the reader's confidence 0..1 for the faces read (empty for truths).
        layout: the reading of a Yushino, Super Wild or Holominoes table (settled and unoccluded):
            every tile seen, each a placement in the game's notation (games.md: ``7H8``, a blank
            seen as ``#H9``; ``R7@3,0``; ``132@1,0/E``); else None.
        alternatives: a token of ``layout`` -> the other tokens the reader says it may be, each with
            the reader's probability over the token read's, best first ("" for no tile there;
            empty for truths).
    """

    frame: int
    t: float
    camera: CameraState
    faces: dict[Hex, str] | None = None
    confidence: dict[Hex, float] = field(default_factory=dict)
    layout: frozenset[str] | None = None
    alternatives: Mapping[str, tuple[tuple[str, float], ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if (self.faces is not None or self.layout is not None) and self.camera is not CameraState.LOCKED:
            raise ValueError(f"frame {self.frame}: a reading needs a locked board, not {self.camera}")


class Observer(Protocol):
    """Looks at frames one by one."""

    def observe(self, frame: Frame) -> Observation:
        """The observation of one frame (a reading only when the board is settled)."""
        ...


class Settle:
    """Tracks how long the board has been quiet (located, still, no hand) and when to read it.

    Args:
        still_seconds: quiet time needed before a read.
    """

    def __init__(self, still_seconds: float) -> None:
        if still_seconds < 0:
            raise ValueError(f"still_seconds must be >= 0, got {still_seconds!r}")
        self.still_seconds = still_seconds
        self._quiet_since: float | None = None
        self._read_done = False

    @property
    def quiet_since(self) -> float | None:
        """Time the current quiet spell began (None while the board is not quiet)."""
        return self._quiet_since

    def update(self, t: float, quiet: bool) -> bool:
        """Record one frame; True when the board should be read now (once per quiet spell).

        Args:
            t: frame time in seconds.
            quiet: the board is located, still and free of hands in this frame.
        """
        if not quiet:
            self._quiet_since, self._read_done = None, False
            return False
        if self._quiet_since is None:
            self._quiet_since = t
        if self._read_done or t - self._quiet_since < self.still_seconds:
            return False
        self._read_done = True
        return True


class TruthObserver:
    """Observations from a recording's truth: its ``frames.json`` cells (or layout) and hand flags.

    A frame is quiet when no hand is over the board and its cells equal the previous frame's; the
    settled reading is the frame's true cells, or the frame's true layout in a recording of another
    game. No image is looked at.

    Args:
        recording: the recording whose frames are observed.
        still_seconds: quiet time needed before a read.
    """

    def __init__(self, recording: Recording, still_seconds: float) -> None:
        self.recording = recording
        self._settle = Settle(still_seconds)
        self._previous: tuple[dict[str, str], tuple[str, ...] | None] | None = None

    def observe(self, frame: Frame) -> Observation:
        """The observation of one frame of the recording.

        Raises:
            ValueError: the frame index is outside the recording, or a true cell address is
                malformed (the message names the frame and the address).
        """
        if not 0 <= frame.index < len(self.recording.frames):
            raise ValueError(f"frame {frame.index} is not in {self.recording.folder}")
        entry = self.recording.frames[frame.index]
        truth = (entry.cells, entry.layout)
        moving = self._previous is not None and truth != self._previous
        self._previous = truth
        camera = CameraState.HAND if entry.hand else CameraState.MOVING if moving else CameraState.LOCKED
        if not self._settle.update(frame.t, camera is CameraState.LOCKED):
            return Observation(frame.index, frame.t, camera)
        if entry.layout is not None:
            return Observation(frame.index, frame.t, camera, layout=frozenset(entry.layout))
        try:
            faces = {parse_address(a): face for a, face in entry.cells.items()}
        except ValueError as exc:
            raise ValueError(f"{self.recording.folder}/frames.json frame {frame.index}: {exc}") from exc
        return Observation(frame.index, frame.t, camera, faces)
