"""The bare table's observer (tilescribe.table_observer) on short rendered recordings in the
held-out tile styles: HAND while a hand is in the picture, no reading then, and settled layouts
equal to the truth up to the frame alignment."""

from __future__ import annotations

from pathlib import Path

import pytest

from display.view import CameraState
from engine.games import rules_for
from tilescribe.table_observer import TableObserver, aligned_layout, layout_tokens
from vision.capture.sources import Recording, RecordingSource
from vision.reader.model import TileReader
from vision.sim.table_recording import record_table_game


@pytest.fixture(scope="module")
def reader() -> TileReader:
    return TileReader()


@pytest.mark.parametrize(("name", "turns"), [("Super Wild", 6), ("Holominoes", 3)])
def test_observer_on_a_recording(tmp_path: Path, reader: TileReader, name: str, turns: int) -> None:
    text = rules_for(name).random_transcript(4242, 2, turns)
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
