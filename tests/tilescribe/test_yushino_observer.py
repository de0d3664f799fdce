"""YushinoObserver on a rendered recording of a short Yushino game (held-out fonts, hands, light drift):
the hand is seen while it is over the board, and every settled layout is the true one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from display.view import CameraState
from engine.games import rules_for
from engine.yushino.board import parse_square
from tilescribe.observe import Observation
from tilescribe.yushino_observer import YushinoObserver, joined_to_centre
from vision.capture.sources import RecordingSource
from vision.reader.model import TileReader
from vision.sim.recording import record_yushino_game

TURNS = 3
SEED = 4


@pytest.fixture(scope="module")
def observed(tmp_path_factory: pytest.TempPathFactory) -> tuple[RecordingSource, list[Observation]]:
    """Every frame of a seeded 3-turn game (800 x 600, held-out fonts) and its observation."""
    text = rules_for("Yushino").random_transcript(SEED, 2, TURNS)
    out = record_yushino_game(text, tmp_path_factory.mktemp("yushino") / "rec", SEED, size=(800, 600))
    source = RecordingSource(out)
    observer = YushinoObserver(out / "board.json", TileReader(), still_seconds=0.5)
    return source, [observer.observe(frame) for frame in RecordingSource(out)]


def test_the_recording_carries_the_layout_and_the_turn_ends(observed) -> None:
    source, _ = observed
    frames = source.recording.frames
    assert all(f.cells == {} and f.layout is not None for f in frames)
    assert len(frames[-1].layout or ()) >= TURNS + 1
    assert [e.turn for e in source.recording.events] == list(range(1, TURNS + 1))
    doc = json.loads((source.recording.folder / "frames.json").read_text(encoding="utf-8"))
    assert doc["frames"][-1]["layout"] == sorted(frames[-1].layout or ())


def test_a_hand_over_the_board_is_seen_and_never_read(observed) -> None:
    source, observations = observed
    hands = [o for o, f in zip(observations, source.recording.frames, strict=True) if f.hand]
    assert len(hands) > 30
    assert all(o.camera is not CameraState.LOCKED and o.layout is None for o in hands)
    assert sum(o.camera is CameraState.HAND for o in hands) >= 0.95 * len(hands)


def test_every_settled_layout_is_the_true_one(observed) -> None:
    source, observations = observed
    frames = source.recording.frames
    settled = [o for o in observations if o.layout is not None]
    assert len(settled) >= TURNS + 1  # the empty board, then at least once after each turn
    for o in settled:
        assert o.layout == frozenset(frames[o.frame].layout or ()), o.frame
    for event in source.recording.events:  # what a session would record at each end of turn
        last = [o for o in settled if o.frame <= event.frame][-1]
        assert last.layout == frozenset(frames[event.frame].layout or ()), event.turn


def test_tiles_apart_from_the_centres_group_are_not_joined() -> None:
    squares = [parse_square(a) for a in ("H8", "I8", "I9", "K9", "A1")]
    assert joined_to_centre(squares) == set(squares[:3])
    assert joined_to_centre(squares[1:]) == set()


def test_a_hex_board_is_refused_in_one_line(board_json: Path) -> None:
    with pytest.raises(ValueError, match="a hex board; Yushino is played on the square board"):
        YushinoObserver(board_json, None, 0.5)
