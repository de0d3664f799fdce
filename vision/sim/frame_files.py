"""Writing a simulated recording's files: the JPEG frames, frames.json and events.jsonl.

The recording format is the one tilescribe.capture's RecordingSource reads (vision/capture/sources.py):
one JPEG per frame, ``frames.json`` (the recording's facts and one entry per frame with its truth)
and ``events.jsonl`` (an ``end_turn`` event per end-of-turn signal; a Holominoes pass that returns a
tile ends its turn with a ``pass`` event whose face is that tile, as the kiosk's Pass sends it).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Protocol, TypeVar

from vision.sim.timeline import TurnEnd


class SimulatedFrame(Protocol):
    """What the writer needs of a simulated frame."""

    @property
    def index(self) -> int: ...
    @property
    def t(self) -> float: ...
    @property
    def jpeg(self) -> bytes: ...
    @property
    def turn_ends(self) -> tuple[TurnEnd, ...]: ...


F = TypeVar("F", bound=SimulatedFrame)


def write_recording_files(
    out: Path, frames: Iterator[F], total: int, progress: bool,
    truth: Callable[[F], Mapping[str, Any]], facts: Mapping[str, Any],
) -> tuple[int, int]:
    """Write every frame's JPEG, then frames.json and events.jsonl, into ``out`` (which must exist).

    Args:
        out: the recording folder.
        frames: the simulated frames, in order.
        total: how many frames there will be (for the progress bar).
        progress: show a tqdm progress bar on a terminal.
        truth: a frame's truth as its frames.json entry has it after ``file`` and ``t``
            (``cells``, ``layout``, ``hand``...).
        facts: the recording's facts, the keys of frames.json before ``frames``.

    Returns:
        (frames written, events written).

    Raises:
        OSError: a file cannot be written.
    """
    iterator: Iterable[F] = frames
    if progress:
        from tqdm import tqdm

        # disable=None: no bar when standard error is not a terminal
        iterator = tqdm(frames, total=total, unit="frame", disable=None)
    entries: list[dict[str, Any]] = []
    events: list[str] = []
    for frame in iterator:
        name = f"{frame.index:06d}.jpg"
        (out / name).write_bytes(frame.jpeg)
        entries.append({"file": name, "t": frame.t, **truth(frame)})
        events += [json.dumps(_event(frame.t, frame.index, e)) for e in frame.turn_ends]
    doc = {**facts, "frames": entries}
    (out / "frames.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    (out / "events.jsonl").write_text("".join(e + "\n" for e in events), encoding="utf-8")
    return len(entries), len(events)


def _event(t: float, frame: int, end: TurnEnd) -> dict[str, Any]:
    """One end-of-turn signal as a line of events.jsonl."""
    if end.returned:
        return {"t": t, "frame": frame, "type": "pass", "turn": end.turn, "face": end.returned}
    return {"t": t, "frame": frame, "type": "end_turn", "turn": end.turn}
