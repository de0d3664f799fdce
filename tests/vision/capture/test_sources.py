"""Frame sources on real files: recording folders, video files, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.capture.sources import (
    Frame,
    OpenCVCameraSource,
    PiCameraSource,
    RecordingSource,
    SourceError,
    SourceLostError,
    VideoFileSource,
    open_source,
)


def _write_recording(folder: Path, n: int = 5) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    frames = []
    for i in range(n):
        image = np.full((48, 64, 3), 20 * i, np.uint8)
        cv2.imwrite(str(folder / f"{i:06d}.jpg"), image)
        frames.append({"file": f"{i:06d}.jpg", "t": i / 10, "cells": {"A0": str(i)}, "hand": i == 2})
    (folder / "frames.json").write_text(json.dumps({"board": "board.json", "fps": 10, "frames": frames}))
    (folder / "events.jsonl").write_text(
        json.dumps({"t": 0.3, "frame": 3, "type": "end_turn", "turn": 1}) + "\n"
    )


def test_recording_yields_frames_with_times_and_events(tmp_path: Path) -> None:
    _write_recording(tmp_path / "rec")
    source = open_source(str(tmp_path / "rec"))
    assert isinstance(source, RecordingSource)
    frames = list(source)
    assert [f.index for f in frames] == [0, 1, 2, 3, 4]
    assert [f.t for f in frames] == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4])
    assert frames[3].events[0].type == "end_turn" and frames[3].events[0].turn == 1
    assert all(not f.events for i, f in enumerate(frames) if i != 3)
    assert frames[4].image.shape == (48, 64, 3) and abs(int(frames[4].image.mean()) - 80) <= 2
    assert source.recording.frames[2].hand and source.recording.frames[1].cells == {"A0": "1"}


def test_missing_frame_is_a_dropout_and_reopen_goes_on(tmp_path: Path) -> None:
    _write_recording(tmp_path / "rec")
    (tmp_path / "rec" / "000002.jpg").unlink()
    source = RecordingSource(tmp_path / "rec")
    assert [source.read().index, source.read().index] == [0, 1]  # type: ignore[union-attr]
    with pytest.raises(SourceLostError, match="frame 2"):
        source.read()
    source.reopen()
    assert [f.index for f in source] == [3, 4]


def test_video_file_source(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for i in range(6):
        writer.write(np.full((48, 64, 3), 40 * i, np.uint8))
    writer.release()
    frames = list(VideoFileSource(path))
    assert len(frames) == 6
    assert frames[-1].t > frames[0].t
    assert abs(int(frames[5].image.mean()) - 200) <= 3
    # a source that worked and then cannot be opened again is lost (retry), not broken
    source = VideoFileSource(path)
    assert source.read() is not None
    source.reopen()
    moved = path.rename(tmp_path / "elsewhere.avi")
    with pytest.raises(SourceLostError, match="does not exist"):
        source.read()
    moved.rename(path)
    source.reopen()
    frame = source.read()
    assert frame is not None and frame.index == 1  # goes on where it stood


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not valid JSON"),
        ('{"frames": [{"t": 0}]}', "frame entry 0"),
        ('{"fps": -1, "frames": []}', "'fps'"),
    ],
)
def test_malformed_recording_names_the_place(tmp_path: Path, content: str, message: str) -> None:
    (tmp_path / "frames.json").write_text(content)
    with pytest.raises(SourceError, match=message):
        RecordingSource(tmp_path)


def test_malformed_event_names_the_line(tmp_path: Path) -> None:
    _write_recording(tmp_path)
    (tmp_path / "events.jsonl").write_text('{"t": 0, "frame": 1, "type": "end_turn"}\n{"frame": 99}\n')
    with pytest.raises(SourceError, match=r"events.jsonl:2"):
        RecordingSource(tmp_path)


def test_unknown_source_and_bad_frame(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such file"):
        open_source(str(tmp_path / "nothing"))
    (tmp_path / "junk.avi").write_text("not a video")
    with pytest.raises(SourceError, match="cannot open"):
        VideoFileSource(tmp_path / "junk.avi").read()
    with pytest.raises(ValueError, match="frame 7"):
        Frame(np.zeros((4, 4), np.uint8), 0.0, 7)


def test_a_camera_spec_may_name_its_frame_size() -> None:
    """``pi`` and a camera index take ``:WIDTHxHEIGHT`` (a big board needs more pixels a tile);
    nothing is opened until the first read, and a size no camera gives is refused by name."""
    assert open_source("pi").size == (1280, 960)
    pi = open_source("pi:2560x1920")
    assert isinstance(pi, PiCameraSource) and pi.size == (2560, 1920)
    usb = open_source("0:640x480")
    assert isinstance(usb, OpenCVCameraSource) and usb.size == (640, 480)
    for spec in ("pi:2560x99999", "1:100x100"):
        with pytest.raises(SourceError, match=rf"source '{spec}': frame width and height must be 160 to"):
            open_source(spec)
