"""The bare table's observer (tilescribe.table_observer) on short rendered recordings in the
held-out tile styles: HAND while a hand is in the picture, no reading then, and settled layouts
equal to the truth up to the frame alignment."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from display.view import CameraState
from engine.games import rules_for
from tilescribe.table_observer import LEFT_THERE_SECONDS, TableObserver, aligned_layout, layout_tokens
from vision.capture.sources import Frame, Recording, RecordingSource
from vision.reader.model import TileReader
from vision.sim.table_recording import record_table_game

#: Turns of each recording: six give seven settled readings or more, so that one misread tile does
#: not decide the share read right.
TURNS = 6


@pytest.fixture(scope="module")
def reader() -> TileReader:
    return TileReader()


@pytest.mark.parametrize("name", ["Super Wild", "Holominoes"])
def test_observer_on_a_recording(tmp_path: Path, reader: TileReader, name: str) -> None:
    text = rules_for(name).random_transcript(4242, 2, TURNS)
    folder = record_table_game(text, tmp_path / "rec", seed=4242, styles="held_out")
    truth = Recording.load(folder).frames
    observer = TableObserver(name, reader, still_seconds=0.5)
    observed = [observer.observe(frame) for frame in RecordingSource(folder)]
    hand = [o for o in observed if truth[o.frame].hand]
    assert hand and sum(o.camera is CameraState.HAND for o in hand) >= 0.9 * len(hand)
    assert all(o.camera is not CameraState.LOCKED for o in hand)
    settled = [o for o in observed if o.layout is not None]
    assert len(settled) >= 3 and not any(truth[o.frame].hand for o in settled)
    right = [aligned_layout(name, truth[o.frame].layout or (), o.layout) == set(truth[o.frame].layout or ())
             for o in settled if o.layout is not None]
    # bench/bench_table_session.py --games 5 --seed 7000: 95 % (Super Wild), 97 % (Holominoes)
    assert sum(right) >= 0.6 * len(right) and right[-1]


def test_tokens_and_alignment() -> None:
    tiles = [{"tile": "W", "x": 0, "y": 0}, {"tile": "R7", "x": 1, "y": 0}]
    seen = layout_tokens("Super Wild", tiles)
    assert seen == {"W@0,0", "R7@1,0"}
    # the reader's frame a quarter turn and a shift away from the transcript's
    assert aligned_layout("Super Wild", {"W@2,3", "R7@2,4"}, seen) == {"W@2,3", "R7@2,4"}
    assert layout_tokens("Holominoes", [{"tile": "132", "q": 1, "r": 0, "first": "E"}]) == {"132@1,0/E"}


def test_not_a_table_game(reader: TileReader) -> None:
    with pytest.raises(ValueError, match="bare table"):
        TableObserver("Yushino", reader, 0.5)


def test_something_left_at_the_edge_lets_the_table_settle(tmp_path: Path, reader: TileReader) -> None:
    text = rules_for("Super Wild").random_transcript(4243, 2, 3)
    folder = record_table_game(text, tmp_path / "rec", seed=4243, styles="held_out", hands=False)
    image = cv2.imread(str(sorted(folder.glob("*.jpg"))[-1]))
    assert image is not None
    observer = TableObserver("Super Wild", reader, still_seconds=0.5)
    first = [o.layout for o in (observer.observe(Frame(image, k / 6, k)) for k in range(8)) if o.layout]
    assert len(first) == 1
    pen = image.copy()
    cv2.line(pen, (5, 300), (25, 470), (40, 40, 40), 9)  # a pen left at the frame's edge
    later = [observer.observe(Frame(pen, 2 + k / 6, 8 + k)) for k in range(30)]
    assert all(o.camera is CameraState.HAND for o in later[:6])  # as an arm in the band would be
    read = [o for o in later if o.layout is not None]
    # still since 1/3 s: the pen is the table's after LEFT_THERE_SECONDS, read after still_seconds more
    assert len(read) == 1 and read[0].t >= 1 / 3 + LEFT_THERE_SECONDS + 0.5 and read[0].layout == first[0]
