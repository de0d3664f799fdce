"""The read pipeline on simulated frames read back from disk: full board, watcher, CLI."""

from __future__ import annotations

import argparse
import json
import re

import cv2
import numpy as np
import pytest

from calibration.tilesets import load_tileset
from engine.hexgrid import format_address, parse_address
from tilescribe.commands import read as read_command
from vision.board.board_reader import UNREADABLE_FACE, BoardReader, ReadConfig
from vision.gate.watcher import BoardWatcher
from vision.reader.crop import INPUT_PX
from vision.reader.glyph_reader import READ_CROP, TileReader
from vision.reader.model import ALL_VIEWS
from vision.reader.model import TileReader as LearnedReader
from vision.sim.recording import SimOptions, simulate
from vision.sim.tiles import FACES
from vision.sim.timeline import Pacing, SimPlacement

#: Tiles by which the learned reader's default may read the full board worse than one view or four.
#: Shipped: none of 271 misread in any way (the held-out benchmark at order 9: 0 of 47,425 cells);
#: a tile read otherwise in one way and not another (a 9 as a 6 at four views, right at one) is a
#: retrain's noise on one board, not an order between the ways.
LEEWAY = 2


@pytest.fixture(scope="module")
def reader(printed_board):
    _, geometry = printed_board
    return BoardReader(ReadConfig(geometry, 13, TileReader()))


@pytest.fixture(scope="module")
def full_board(printed_board, tmp_path_factory):
    """The last frame of an order-9 board filled cell by cell (271 tiles), as a JPEG on disk."""
    _, geometry = printed_board
    rng = np.random.default_rng(3)
    faces = [str(v) for v in range(13)] + ["#"]
    turn = [SimPlacement(a, faces[int(rng.integers(len(faces)))]) for a in geometry.cells]
    options = SimOptions(seed=4, fps=1.0, hands=False, split="held_out", shapes=("pentagon",),
                         per_tile_styles=True, any_rotation=True,
                         pacing=Pacing(lead_in=0.2, reach=0.05, move=0.02, rest=0.02, settle=2.0, after=2.0))
    *_, last = simulate([turn], geometry, options)
    path = tmp_path_factory.mktemp("full") / "full.jpg"
    cv2.imwrite(str(path), last.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return path, dict(last.cells)


def test_every_cell_of_a_full_board_is_found_and_read(reader, full_board):
    path, truth = full_board
    assert len(truth) == 271
    reading = reader.read(cv2.imread(str(path)), str(path))
    assert reading.board_found
    assert {format_address(c) for c in reading.cells} == set(truth)
    for cell, r in reading.cells.items():
        assert r.face in (*FACES, UNREADABLE_FACE) and 0.0 <= r.confidence <= 1.0
        assert r.value == (None if r.face in ("#", "joker", "?") or (r.face.isdigit() and int(r.face) >= 13)
                           else 0 if r.face == "marker" else int(r.face)), format_address(cell)
    unreadable = [format_address(c) for c, r in reading.cells.items() if r.face == UNREADABLE_FACE]
    for address in unreadable:
        assert any(f"{address}: tile face unreadable" in f for f in reading.findings)


def test_a_full_board_read_with_its_tile_set_keeps_to_the_sets_faces(printed_board, full_board):
    """With the MODLINSEQ set's profile every face read is one the set has, the modulus marker on
    A0 only (§8), and a face glued to a tile's bevel or shadow is read with its core: at most 13 of
    the 271 held-out tiles misread (11 measured; 25 without the core reading). The faces are
    random, so the line prior cannot help here."""
    _, geometry = printed_board
    path, truth = full_board
    modlinseq = load_tileset("modlinseq")
    reader = BoardReader(ReadConfig(geometry, 13, TileReader(),
                                    modlinseq.face_values(13)))
    reading = reader.read(cv2.imread(str(path)), str(path))
    faces = {format_address(c): r.face for c, r in reading.cells.items()}
    assert set(faces.values()) <= set(modlinseq.faces)
    assert all(face != "marker" for address, face in faces.items() if address != "A0")
    wrong = {a: (truth[a], faces.get(a)) for a in truth if faces.get(a) != truth[a]}
    assert len(wrong) <= 13, wrong


def test_the_learned_reader_reads_a_full_board_of_held_out_tiles(printed_board, full_board):
    """The learned reader, reading each cell once, by default (the cells unsure in one view at their
    four quarter turns) and every cell at four turns: on the full board of held-out tiles 0, 0 and 0
    of the 271 misread as measured (the model before it 14, 7 and 7; the glyph reader 11, above);
    the default no worse than either but for LEEWAY tiles. The faces are random, so the line prior
    cannot help."""
    _, geometry = printed_board
    path, truth = full_board
    image = cv2.imread(str(path))
    face_values = load_tileset("modlinseq").face_values(13)
    wrong = {}
    for name, reader in (("one", ViewsOf(1)), ("default", LearnedReader()), ("every", ViewsOf(ALL_VIEWS))):
        board = BoardReader(ReadConfig(geometry, 13, reader, face_values))
        faces = {format_address(c): r.face for c, r in board.read(image, str(path)).cells.items()}
        wrong[name] = {a: (truth[a], faces.get(a)) for a in truth if faces.get(a) != truth[a]}
    assert len(wrong["every"]) <= 3 and len(wrong["one"]) <= 5, wrong
    assert len(wrong["default"]) <= min(len(wrong["one"]), len(wrong["every"])) + LEEWAY, wrong


def test_each_reader_reads_the_board_at_its_own_crops(printed_board):
    """The glyph reader gets the board cells at the crops swept for it, the learned reader as
    it cuts tiles (INPUT_PX across), whatever the other reads."""
    _, geometry = printed_board
    glyph = BoardReader(ReadConfig(geometry, 13, TileReader())).read_view
    learned = BoardReader(ReadConfig(geometry, 13, LearnedReader())).read_view
    assert (glyph.pitch_px, glyph.roi) == (READ_CROP[0], round(READ_CROP[0] * READ_CROP[1]) | 1)
    assert learned.roi == INPUT_PX | 1 and learned.pitch_px != glyph.pitch_px


class ViewsOf(LearnedReader):
    """The learned reader reading every board cell at a given number of views."""

    def __init__(self, views: int) -> None:
        super().__init__()
        self.views = views

    def read_batch(self, crops, allowed=None, views=ALL_VIEWS, more_views_below=None):
        return super().read_batch(crops, allowed, self.views, None)


def test_watcher_reads_only_still_frames_without_hands_and_only_changed_cells(recorded_game, reader):
    watcher = BoardWatcher(reader)
    reads = []
    for i, frame in enumerate(recorded_game.frames):
        result = watcher.observe(recorded_game.image(i), frame["file"])
        if result.reading is not None:
            assert not frame["hand"], f"read {frame['file']} with a hand over the board"
            assert {format_address(c) for c in result.reading.cells} == set(frame["cells"]), frame["file"]
            reads.append(result.reading)
    assert len(reads) >= 4  # the empty board, then after each turn
    assert len(reads[0].read_cells) == 271
    assert all(len(r.read_cells) < 20 for r in reads[1:])


def test_prior_and_findings(recorded_game, reader):
    last = len(recorded_game.frames) - 1
    image = recorded_game.image(last)
    t1 = parse_address("T1")
    reading = reader.read(image, "last frame", legal={t1: frozenset({5})})
    face = reading.cells[t1].face
    explained = [f for f in reading.findings if "T1: value" in f or "T1: tile face unreadable" in f]
    assert face in ("5", "#", "joker") or explained
    only = reader.read(image, "last frame", only=[t1, parse_address("P3")])
    assert set(only.cells) <= {t1} and len(only.read_cells) == 2
    with pytest.raises(ValueError, match="last frame: cell .* not on this board"):
        reader.read(image, "last frame", only=[parse_address("B300")])


def test_a_frame_too_small_for_the_board_is_a_finding(recorded_game, reader):
    """The recorded frame (1280x960: cells about 40 px apart) reads without it; the same frame at
    half the size (20 px apart) says the cells are too close and what to do."""
    last = len(recorded_game.frames) - 1
    image = recorded_game.image(last)
    assert not [f for f in reader.read(image, "full").findings if "px apart" in f]
    small = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    reading = reader.read(small, "half")
    assert reading.board_found
    said = re.match(r"half: the board's cells are (\d+) px apart in the frame", reading.findings[0])
    assert said and 15 <= int(said[1]) < 26, reading.findings
    assert "--source pi:2560x1920" in reading.findings[0]


def test_board_not_found_is_reported_not_guessed(reader):
    table = np.full((960, 1280, 3), (40, 90, 140), np.uint8)
    reading = reader.read(table, "frame 99")
    assert not reading.board_found and not reading.cells
    assert "frame 99: board not found" in reading.findings[0]


def run_cli(argv):
    parser = argparse.ArgumentParser()
    read_command.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    return args.func(args)


def test_read_command_prints_the_json_contract(recorded_game, tmp_path, capsys):
    last = len(recorded_game.frames) - 1
    image = recorded_game.folder / recorded_game.frames[last]["file"]
    board = str(recorded_game.board_json)
    status = run_cli(["read", str(image), "--board", board, "--modulus", "13", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert status == 0 and doc["board_found"] is True
    assert set(doc["cells"]) == set(recorded_game.frames[last]["cells"])
    assert set(doc["cells"]["A0"]) == {"face", "value", "confidence"} and doc["ms"] > 0
    # the modulus marker on A0 (§8), read as such or as the modulus it shows
    assert doc["cells"]["A0"]["face"] == "marker" and doc["cells"]["A0"]["value"] == 0
    # the opt-in second reader reads the same board (it is asked only for the unsure faces)
    with_tesseract = ["read", str(image), "--board", board, "--modulus", "13", "--ocr", "tesseract", "--json"]
    assert run_cli(with_tesseract) == 0
    assert set(json.loads(capsys.readouterr().out)["cells"]) == set(doc["cells"])
    blank = tmp_path / "table.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 90, np.uint8))
    assert run_cli(["read", str(blank), "--board", board, "--modulus", "13", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["board_found"] is False
    assert run_cli(["read", str(tmp_path / "none.jpg"), "--board", board, "--modulus", "13"]) == 2
    assert "cannot read image" in capsys.readouterr().err


def test_read_command_with_a_tile_set_profile(recorded_game, capsys):
    from calibration.tilesets import load_tileset

    last = len(recorded_game.frames) - 1
    image = str(recorded_game.folder / recorded_game.frames[last]["file"])
    board = str(recorded_game.board_json)
    options = ["--board", board, "--modulus", "13"]
    assert run_cli(["read", image, *options, "--tileset", "rummikub", "--json"]) == 0
    values = load_tileset("rummikub").face_values(13)
    assert values["13"] == 0 and values["joker"] is None
    for address, cell in json.loads(capsys.readouterr().out)["cells"].items():
        assert cell["value"] == values.get(cell["face"]), address
    assert run_cli(["read", image, *options, "--tileset", "nosuchset"]) == 2
    assert "nosuchset" in capsys.readouterr().err
