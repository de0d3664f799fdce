"""Simulated recordings: determinism, ground truth, hands, pauses, poses, rotated tiles."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.board_print import SheetSpec, design_board
from calibration.geometry import BoardGeometry
from vision.sim.recording import SimOptions, Simulation, make_recording, simulate
from vision.sim.timeline import Detour, Pacing, SimPlacement

P = SimPlacement
TURNS = [
    [P("B2", "4"), P("B1", "6"), P("A0", "1"), P("M1", "3")],
    [P("T1", "9"), P("T2", "6"), P("H1", "16")],
    [],
    [P("E1", "#"), P("E2", "marker"), P("P1", "19")],
]
SMALL = (640, 480)


@pytest.fixture(scope="module")
def board() -> BoardGeometry:
    return design_board(SheetSpec(order=4, dpi=100))


@pytest.fixture(scope="module")
def recording(board: BoardGeometry, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("rec")
    make_recording(
        TURNS, board, out, SimOptions(seed=7, size=SMALL, fps=5, pacing=Pacing(pause_chance=1.0), bumps=1)
    )
    return out


def _doc(recording: Path) -> dict:
    return json.loads((recording / "frames.json").read_text(encoding="utf-8"))


def test_same_seed_gives_identical_bytes(board: BoardGeometry, recording: Path, tmp_path: Path) -> None:
    make_recording(
        TURNS,
        board,
        tmp_path,
        SimOptions(seed=7, size=SMALL, fps=5, pacing=Pacing(pause_chance=1.0), bumps=1),
    )
    names = sorted(p.name for p in recording.iterdir() if p.name != "board.json")
    assert names == sorted(p.name for p in tmp_path.iterdir() if p.name != "board.json")
    for name in names:
        if name == "frames.json":  # names its own board.json path; compare the rest
            a, b = _doc(recording), _doc(tmp_path)
            a.pop("board"), b.pop("board")
            assert a == b
        else:
            assert (recording / name).read_bytes() == (tmp_path / name).read_bytes(), name


def test_other_seed_gives_other_frames(board: BoardGeometry) -> None:
    first = [next(simulate(TURNS[:1], board, SimOptions(seed=s, size=SMALL))).image for s in (1, 2)]
    assert np.abs(first[0].astype(int) - first[1].astype(int)).mean() > 5


def test_cells_follow_the_turns_and_end_of_turn_events(recording: Path) -> None:
    doc = _doc(recording)
    frames = doc["frames"]
    events = [json.loads(line) for line in (recording / "events.jsonl").read_text().splitlines()]
    assert [e["turn"] for e in events] == [1, 2, 3, 4] and all(e["type"] == "end_turn" for e in events)
    assert frames[0]["cells"] == {}
    expected: dict[str, str] = {}
    for event, turn in zip(events, TURNS, strict=True):
        expected.update({p.address: p.face for p in turn})
        frame = frames[event["frame"]]
        assert frame["t"] == event["t"]
        assert frame["cells"] == expected
        assert not frame["hand"]
    # cells only ever grow, one landing at a time
    for a, b in zip(frames, frames[1:], strict=False):
        assert a["cells"].items() <= b["cells"].items()
    assert doc["board"] == "board.json" and doc["fps"] == 5  # saved in the folder
    assert sorted(f["file"] for f in frames) == sorted(p.name for p in recording.glob("*.jpg"))


def test_hands_appear_only_while_turns_are_played(recording: Path) -> None:
    frames = _doc(recording)["frames"]
    flags = [f["hand"] for f in frames]
    assert 0.15 < sum(flags) / len(flags) < 0.8
    assert not any(flags[:3])  # lead-in: empty board, no hand
    for frame in frames:
        if not frame["hand"]:
            assert frame["occluded"] == []
    hidden = [set(f["occluded"]) for f in frames if f["hand"]]
    assert sum(1 for h in hidden if h) > 0.5 * len(hidden)
    # a tile never appears without a hand over the sheet in the frame before, which hides its cell
    # (under the fingers or under the tile held in them)
    for a, b in zip(frames, frames[1:], strict=False):
        for address in b["cells"].keys() - a["cells"].keys():
            assert a["hand"] and address in a["occluded"], (a["file"], address)


def test_hand_frames_differ_from_hand_free_frames_over_the_sheet(board: BoardGeometry) -> None:
    options = SimOptions(seed=3, size=SMALL, fps=4)
    with_hands = list(simulate(TURNS[:2], board, options))
    without = list(simulate(TURNS[:2], board, SimOptions(seed=3, size=SMALL, fps=4, hands=False)))
    for a, b in zip(with_hands, without, strict=True):
        assert a.cells == b.cells and not b.hand
        diff = np.abs(a.image.astype(int) - b.image.astype(int)).sum(axis=2)
        if a.hand:
            assert (diff > 60).sum() > 2000, a.index  # an arm covers thousands of pixels
    assert any(a.hand for a in with_hands)


def test_mid_turn_pause_shows_an_incomplete_turn_without_hand_or_event(recording: Path) -> None:
    frames = _doc(recording)["frames"]
    events = [json.loads(line)["frame"] for line in (recording / "events.jsonl").read_text().splitlines()]
    turn_one = {p.address for p in TURNS[0]}
    paused = [f for f in frames[: events[0]] if not f["hand"] and 0 < len(f["cells"]) < len(turn_one)]
    assert len(paused) >= 3  # at least 0.6 s of a still, incomplete first turn


def test_poses_map_the_sheet_markers_onto_the_detected_markers(board: BoardGeometry, recording: Path) -> None:
    doc = _doc(recording)
    assert len(doc["poses"]) == 2 and {f["pose"] for f in doc["frames"]} == {0, 1}
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    for frame in (doc["frames"][0], doc["frames"][-1]):
        image = cv2.imread(str(recording / frame["file"]))
        corners, ids, _ = detector.detectMarkers(image)
        assert ids is not None and len(ids) >= 8
        pose = doc["poses"][frame["pose"]]
        h = np.array(pose["homography"])
        for c, marker_id in zip(corners, ids.ravel(), strict=True):
            truth = np.array(board.marker(int(marker_id)).corners).reshape(-1, 1, 2)
            ideal = cv2.perspectiveTransform(truth, h).reshape(-1, 2)
            # lens distortion moves points by a few pixels at most at this size
            assert np.abs(ideal - c.reshape(-1, 2)).max() < 8


def test_tiles_of_the_second_player_lie_turned_half_round(board: BoardGeometry) -> None:
    sim = Simulation(TURNS[:2], board, SimOptions(seed=5, size=SMALL, shapes=("pentagon",)))
    tiles = sim.tiles_json()
    for address in ("T1", "T2", "H1"):
        assert 155 <= float(tiles[address]["angle_deg"]) <= 205  # type: ignore[arg-type]
    for address in ("B2", "A0"):
        assert min(float(tiles[address]["angle_deg"]) % 360, 360 - float(tiles[address]["angle_deg"])) <= 25
    *_, last = sim.frames()
    assert last.cells["T1"] == "9"
    # the pentagon's apex points down in the texture: its top rows are wider than its bottom rows
    cell = board.cells["T1"]
    s = sim.scene.texture_scale
    half = int(board.layout.size * s)
    cx, cy = int(cell.center[0] * s), int(cell.center[1] * s)
    crop = sim.scene.texture[cy - half : cy + half, cx - half : cx + half]
    tile = np.abs(crop.astype(int) - 255).sum(axis=2) > 60
    rows = np.nonzero(tile.any(axis=1))[0]
    top, bottom = rows.min(), rows.max()
    span = bottom - top
    width = tile.sum(axis=1)
    assert width[top + span // 4] > width[bottom - span // 6]


def test_bad_cell_and_unshowable_face_are_named(board: BoardGeometry) -> None:
    with pytest.raises(ValueError, match=r"turn 2: cell 'Z9'"):
        Simulation([[P("A0", "1")], [P("Z9", "2")]], board, SimOptions(size=SMALL))
    with pytest.raises(ValueError, match=r"turn 1: cell 'A0' .*already"):
        Simulation([[P("A0", "1"), P("A0", "2")]], board, SimOptions(size=SMALL))
    with pytest.raises(ValueError, match=r"turn 1: cell A0: tile style .* cannot show face '0'"):
        Simulation([[P("A0", "0")]], board, SimOptions(size=SMALL, shapes=("photo",)))


def test_hash_swap_replaces_the_wild_tile_in_truth_and_image(board: BoardGeometry) -> None:
    options = SimOptions(seed=4, size=SMALL, fps=4, hands=False, noise_sigma=0, blur_sigma=0, light_change=0)
    sim = Simulation([[P("A0", "#")], [P("A0", "5")]], board, options)
    frames = list(sim.frames())
    assert frames[-1].cells == {"A0": "5"}
    wild = next(f for f in frames if f.cells == {"A0": "#"})
    x, y = (int(v) for v in sim.scene.pose.project(np.array([board.cells["A0"].center]))[0])
    diff = np.abs(wild.image.astype(int) - frames[-1].image.astype(int)).sum(axis=2)
    assert diff[y - 8 : y + 8, x - 8 : x + 8].max() > 100  # the tile on A0 looks different
    assert diff[: y - 40].max() < 10  # nothing else changed
    with pytest.raises(ValueError, match="already holds a tile"):
        Simulation([[P("A0", "5")], [P("A0", "#")]], board, options)


def test_frames_can_be_rendered_twice_with_identical_results(board: BoardGeometry) -> None:
    sim = Simulation(TURNS[:2], board, SimOptions(seed=9, size=SMALL, fps=2, light_jumps=2))
    first = [(f.image.tobytes(), dict(f.cells)) for f in sim.frames()]
    second = [(f.image.tobytes(), dict(f.cells)) for f in sim.frames()]
    assert first == second


def test_a_light_jump_changes_the_brightness_of_a_still_board(board: BoardGeometry) -> None:
    options = SimOptions(seed=2, size=SMALL, fps=2, light_jumps=1, light_change=0, noise_sigma=0, hands=False)
    sim = Simulation([], board, options)
    (when, factor), *_ = sim.scene.lighting.jumps
    frames = list(sim.frames())
    before = next(f for f in reversed(frames) if f.t < when).image.mean()
    after = next(f for f in frames if f.t >= when).image.mean()
    assert after / before == pytest.approx(factor, rel=0.08)


def test_frames_in_memory_are_the_decoded_files(recording: Path, board: BoardGeometry) -> None:
    options = SimOptions(seed=7, size=SMALL, fps=5, pacing=Pacing(pause_chance=1.0), bumps=1)
    for frame in simulate(TURNS, board, options):
        if frame.index in (0, 12):
            on_disk = cv2.imread(str(recording / f"{frame.index:06d}.jpg"))
            assert on_disk.tobytes() == frame.image.tobytes()
        if frame.index > 12:
            break


def test_mixed_styles_give_faces_without_real_crops_a_drawn_tile(board: BoardGeometry) -> None:
    turns = [[P("A0", "0"), P("B1", "marker"), P("B2", "#"), P("M1", "7"), P("M2", "joker")]]
    for seed in range(5):
        sim = Simulation(
            turns,
            board,
            SimOptions(seed=seed, size=SMALL, shapes=("photo", "pentagon"), per_tile_styles=True),
        )
        styles = {x.placement.face: s for x, s in zip(sim.timeline.landings, sim.styles, strict=True)}
        assert all(styles[f].shape == "pentagon" for f in ("0", "marker", "#"))
        assert all(s.supports(f) for f, s in styles.items())


def test_a_tile_knocked_off_and_put_back_looks_as_it_did(board: BoardGeometry) -> None:
    turns = [[P("A0", "4"), P("B1", "6")], [P("M1", "3")]]
    knock = Detour(1, "knock", (P("B1", "6"),), wait=2.0)
    for seed in (5, 6, 7):  # seeds where the photo drawn for a new tile on B1 would be another one
        options = SimOptions(seed=seed, size=SMALL, fps=2, shapes=("photo",), hands=False, noise_sigma=0)
        sim = Simulation(turns, board, options, detours=(knock,))
        landings = sim.timeline.landings
        (first, again) = [i for i, x in enumerate(landings) if x.placement == P("B1", "6")]
        assert landings[first].lifted < landings[again].t
        assert sim.timeline.first_landings()[again] == first and sim.styles[again] == sim.styles[first]
    frames = list(sim.frames())
    assert any("B1" not in f.cells for f in frames if landings[first].t < f.t)  # knocked off a while
    assert frames[-1].cells == {"A0": "4", "B1": "6", "M1": "3"}
