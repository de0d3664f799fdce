"""Yushino's square board read from simulated camera frames written to disk and read back: the
sheet, locating, presence, the learned reader's faces, and ``tilescribe read --game yushino``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.board_print import SheetSpec, design_board
from calibration.square_board import SquareSpec, print_square_board
from calibration.square_geometry import SquareBoardGeometry
from engine.yushino.board import parse_square
from tilescribe.cli import main as cli
from vision.board.board_reader import read_board
from vision.board.locate import BoardLocator
from vision.board.sheet import board_sheet
from vision.board.square_lines import SEQUENCE_PENALTY
from vision.board.square_reader import RULE, YUSHINO_FACES, SquareBoardReader, SquareReadConfig
from vision.reader.faces import NOT_A_FACE
from vision.reader.model import TileReader
from vision.sim.square_scene import game_faces, render_square_frame
from vision.sim.tile_crops import rendered_crops

REPO = Path(__file__).resolve().parents[3]
#: Seeds of the held-out frames (and the turns of their random games): a few tiles to a crowded board.
FRAMES: tuple[tuple[int, int], ...] = ((1, 4), (2, 12), (3, 20), (4, 28))
#: Gaussian blur (sigma, px) of a camera out of focus: the held-out frames read almost without
#: fault when sharp, so the readers' fallbacks are measured on them blurred.
DEFOCUS_SIGMA = 2.5
#: The defocused frames (seed, turns): FRAMES and eight more alike, 480 tiles, enough that the
#: figures below are rates rather than the readings of a few tiles.
DEFOCUSED: tuple[tuple[int, int], ...] = (
    *FRAMES, *((seed, FRAMES[(seed - 1) % 4][1]) for seed in range(5, 13)))
#: The frames the rules' prior is measured on: DEFOCUSED and as many again four times over, blurred
#: alike (2,300 tiles): the prior mends or misreads whole lines, so a dozen frames give a figure
#: that swings with a few lines.
PRIOR_FRAMES: tuple[tuple[int, int], ...] = (
    *DEFOCUSED, *((seed, FRAMES[(seed - 1) % 4][1]) for seed in range(13, 61)))
#: Held-out Yushino tile crops read at one view and at four.
VIEW_CROPS = 1200
# The bounds below are set so that a reader 1.25 times as bad as the shipped one (a retrain of
# equal quality: tile_reader.md) exceeds each with probability 2% at most (binomial).

#: Most crops read wrong at four views. Shipped: 43 (59 at one view: 23 crops right only at four, 7
#: only at one); bound 69: a reader twice as bad stays within it with probability 3%.
MOST_CROPS_WRONG = 69
#: Most tiles of the defocused frames missed or misread at four views without the prior. Shipped:
#: 63 of 480 (76 at one view), 7 of them missed where presence at 24 px a square missed none but
#: took 11 more empty squares for tiles, which this count leaves out; bound 96: twice as bad,
#: 99.9%.
MOST_DEFOCUSED_WRONG = 96
#: Most tiles of the PRIOR_FRAMES missed or misread with the rules' prior. Shipped: 105 of 2,313
#: (245 without it); these come by lines (a line decoded wrongly misreads several tiles), so counted
#: with twice the binomial variance (negative binomial): bound 166, which a reader 1.25 times as bad
#: exceeds with probability 1.9%; twice as bad, 99%.
MOST_WRONG_WITH_PRIOR = 166
#: Least ratio of those tiles without the prior to with it. Shipped: 245 / 105 = 2.3; the reader
#: retrained from a fresh clone by the same plan: 235 / 127 = 1.85 (its networks differ from the
#: shipped ones); bound 1.5: the prior still mends a third of them (the tiles presence misses it
#: cannot mend).
LEAST_PRIOR_RATIO = 1.5
#: Seeds of empty held-out frames (camera pose, light, table): a square taken for a tile is rare
#: (the held-out benchmark's 5 in 100 frames), so it is counted over many empty boards.
EMPTY_BOARDS = range(100, 125)
#: Most of their 5,625 squares taken for tiles. Shipped: none; bound 5, at the held-out benchmark's
#: rate (6 squares in 72,000: 0.5 expected, 0.6 for a reader 1.25 times as bad; exceeds with 0.01%).
MOST_TAKEN_FOR_TILES = 5
#: Seeds of held-out frames with BLANKS blanks each (white on white squares, what presence misses):
#: how many presence misses varies from frame to frame with the light, so it is counted over many.
BLANK_FRAMES = range(3, 27)
BLANKS = 60
#: Most blanks missed. Shipped: 13 of 1,440; bound 25: twice as bad, 53%.
MOST_BLANKS_MISSED = 25
#: Most squares of the blank frames taken for tiles or read as digits. Shipped: none of 5,400 (3
#: with presence at 24 px a square); bound 8.
MOST_READ_OTHERWISE = 8
#: Seeds of the held-out frames with BLANKS blanks each read against an empty board that shows them
#: too, so that presence finds them empty and the reader's reads of such squares alone keep them.
BLIND_FRAMES = range(3, 9)
#: Least share of those blanks the reader keeps. Shipped: 297 of 360 (29 to 60 of a frame's 60);
#: bound 1/2, wide since the share swings from frame to frame.
LEAST_KEPT_SHARE = 1 / 2


@dataclass(frozen=True)
class Frame:
    """A rendered frame as a JPEG file and the faces on its squares."""

    path: Path
    faces: dict[str, str]


@pytest.fixture(scope="module")
def square_board(tmp_path_factory) -> tuple[Path, SquareBoardGeometry]:
    """board.json and board.png of the default Yushino board, as ``tilescribe board print`` writes them."""
    out = tmp_path_factory.mktemp("yushino_board")
    return out, print_square_board(SquareSpec(), out)


@pytest.fixture(scope="module")
def frames(square_board, tmp_path_factory) -> list[Frame]:
    """Held-out-font frames of mid-game boards, written as JPEG (quality 90)."""
    _, geometry = square_board
    out = tmp_path_factory.mktemp("yushino_frames")
    made = []
    for seed, turns in FRAMES:
        rng = np.random.default_rng(seed)
        frame = render_square_frame(geometry, game_faces(seed, turns), "held_out", rng)
        path = out / f"frame{seed}.jpg"
        assert cv2.imwrite(str(path), frame.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        made.append(Frame(path, dict(frame.faces)))
    return made


@pytest.fixture(scope="module")
def defocused(frames, square_board, tmp_path_factory) -> list[Frame]:
    """The held-out DEFOCUSED frames (FRAMES first) blurred by DEFOCUS_SIGMA, written as JPEG (quality 90)."""
    _, geometry = square_board
    out = tmp_path_factory.mktemp("yushino_defocused")
    made = []
    for k, (seed, turns) in enumerate(DEFOCUSED):
        if k < len(frames):
            image, faces = cv2.imread(str(frames[k].path)), frames[k].faces
        else:
            rng = np.random.default_rng(seed)
            frame = render_square_frame(geometry, game_faces(seed, turns), "held_out", rng)
            image, faces = frame.image, dict(frame.faces)
        assert image is not None
        made.append(defocused_frame(image, faces, out / f"frame{seed}.jpg"))
    return made


@pytest.fixture(scope="module")
def prior_frames(defocused, square_board, tmp_path_factory) -> list[Frame]:
    """The PRIOR_FRAMES: the defocused frames, then more held-out frames blurred by DEFOCUS_SIGMA and
    written as JPEG (quality 90)."""
    _, geometry = square_board
    out = tmp_path_factory.mktemp("yushino_prior")
    made = list(defocused)
    for seed, turns in PRIOR_FRAMES[len(defocused):]:
        rng = np.random.default_rng(seed)
        frame = render_square_frame(geometry, game_faces(seed, turns), "held_out", rng)
        made.append(defocused_frame(frame.image, dict(frame.faces), out / f"frame{seed}.jpg"))
    return made


def defocused_frame(image: np.ndarray, faces: dict[str, str], path: Path) -> Frame:
    """``image`` blurred by DEFOCUS_SIGMA and written to ``path`` as JPEG (quality 90)."""
    assert cv2.imwrite(str(path), cv2.GaussianBlur(image, (0, 0), DEFOCUS_SIGMA),
                       [cv2.IMWRITE_JPEG_QUALITY, 90])
    return Frame(path, faces)


def written(image: np.ndarray, path: Path) -> np.ndarray:
    """``image`` written as JPEG (quality 90) and read back."""
    assert cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    back = cv2.imread(str(path))
    assert back is not None
    return back


def read_json(capsys, *argv: str) -> tuple[int, dict]:
    """``tilescribe read ARGV --game yushino --json``: its status and its document."""
    capsys.readouterr()  # what came before (pygame's greeting when a render first loads its fonts)
    status = cli(["read", *argv, "--game", "yushino", "--json"])
    return status, json.loads(capsys.readouterr().out)


def misread(frames: list[Frame], config: SquareReadConfig) -> set[tuple[int, str]]:
    """Tiles of the frames missed or read with a wrong face: (frame's index, address)."""
    wrong = set()
    for k, frame in enumerate(frames):
        image = cv2.imread(str(frame.path))
        assert image is not None
        read = {str(c): r.face for c, r in read_board(config, image).cells.items()}
        wrong |= {(k, a) for a, f in frame.faces.items() if read.get(a) != f}
    return wrong


def test_the_square_sheet_is_board_png_in_pixels(square_board):
    """board.json's millimetres, in board.png pixels, locate the board on board.png itself."""
    folder, geometry = square_board
    sheet = board_sheet(geometry)
    assert sheet.kind == "square" and len(sheet.addresses) == 225 and sheet.corners.shape == (225, 4, 2)
    assert sheet.pitch == pytest.approx(25 * 150 / 25.4)
    location = BoardLocator(geometry).locate(cv2.imread(str(folder / "board.png")), "board.png")
    assert len(location.marker_ids) == len(geometry.markers) and location.reprojection_error < 1.0
    # within a pixel: a marker is drawn from the pixel its corner names, so its edge lies half a
    # pixel before that pixel's centre (the hex board's markers alike)
    np.testing.assert_allclose(location.board_to_frame(sheet.centres), sheet.centres, atol=1.0)
    h8 = sheet.addresses.index("H8")
    np.testing.assert_allclose(sheet.centres[h8], sheet.middle)
    assert sheet.steps(h8, sheet.addresses.index("I9")) == 1
    assert sheet.steps(h8, sheet.addresses.index("J8")) == 2


def test_the_hex_sheet_keeps_the_hex_boards_geometry():
    geometry = design_board(SheetSpec(order=3))
    sheet = board_sheet(geometry)
    assert sheet.kind == "hex" and sheet.addresses == tuple(geometry.cells)
    assert sheet.middle == geometry.layout.origin and sheet.pitch == geometry.layout.pitch
    a0 = sheet.addresses.index("A0")
    rings = Counter(sheet.steps(a0, j) for j in range(len(sheet.addresses)) if j != a0)
    assert rings == {1: 6, 2: 12, 3: 18}


def test_held_out_frames_are_read_through_the_cli(frames, square_board, capsys):
    folder, _ = square_board
    tiles = missed = extra = wrong = 0
    for frame in frames:
        status, doc = read_json(capsys, str(frame.path), "--board", str(folder / "board.json"))
        assert status == 0 and doc["board_found"] is True and doc["ms"] > 0
        cells = doc["cells"]
        assert list(cells) == sorted(cells, key=lambda a: (parse_square(a).row, parse_square(a).col))
        for address, cell in cells.items():
            assert set(cell) == {"face", "value", "confidence"} and 0 < cell["confidence"] <= 1
            assert cell["face"] in YUSHINO_FACES, address
            assert cell["value"] == (None if cell["face"] == "#" else int(cell["face"])), address
        tiles += len(frame.faces)
        missed += sum(a not in cells for a in frame.faces)
        extra += sum(a not in frame.faces for a in cells)
        misread = sum(a in cells and cells[a]["face"] != f for a, f in frame.faces.items())
        wrong += misread
        # the games are legal: a broken line is a misread one (each misread tile breaks at most two)
        assert len(doc["findings"]) <= 2 * misread
        assert all("is not a Yushino sequence (§2)" in finding for finding in doc["findings"])
    # measured with the shipped reader and presence model: 160 tiles, 0 missed or extra, 0 wrong
    # faces (none without the rules' prior either)
    assert tiles == 160
    assert missed + extra <= 1
    assert wrong <= 1


def test_the_default_board_needs_no_board_file(frames, capsys):
    status, doc = read_json(capsys, str(frames[0].path))
    assert status == 0 and doc["board_found"] is True
    # the squares read are the tiles laid, but for at most one (the held-out figures: 7 of 9,000
    # squares missed or extra)
    assert len(set(doc["cells"]) ^ set(frames[0].faces)) <= 1 and len(doc["cells"]) >= 10


def test_empty_boards_have_next_to_no_tiles(square_board, tmp_path):
    """Every square of each empty board is read, and hardly any is taken for a tile."""
    _, geometry = square_board
    config = SquareReadConfig(geometry, TileReader())
    taken = 0
    for seed in EMPTY_BOARDS:
        frame = render_square_frame(geometry, {}, "held_out", np.random.default_rng(seed))
        reading = read_board(config, written(frame.image, tmp_path / f"empty{seed}.jpg"))
        assert reading.board_found and len(reading.read_cells) == 225, seed
        taken += len(reading.cells)
    assert taken <= MOST_TAKEN_FOR_TILES, taken


def test_blank_tiles_are_read(square_board, tmp_path):
    """Blank tiles, white on white squares, are the tiles hardest to see: few are missed, and no
    square is taken for one."""
    _, geometry = square_board
    reader = SquareBoardReader(SquareReadConfig(geometry, TileReader()))
    addresses = reader.sheet.addresses
    blanks = missed = extra = wrong = 0
    for seed in BLANK_FRAMES:
        rng = np.random.default_rng(seed)
        faces = {addresses[i]: "#" for i in rng.choice(len(addresses), BLANKS, replace=False)}
        frame = render_square_frame(geometry, faces, "held_out", rng)
        image = written(frame.image, tmp_path / f"blank{seed}.jpg")
        read = {str(c): r.face for c, r in reader.read(image).cells.items()}
        blanks += len(faces)
        missed += len(set(faces) - set(read))
        extra += len(set(read) - set(faces))
        wrong += sum(f != "#" for a, f in read.items() if a in faces)
    assert blanks == len(BLANK_FRAMES) * BLANKS
    assert missed <= MOST_BLANKS_MISSED and extra + wrong <= MOST_READ_OTHERWISE, (missed, extra, wrong)


def test_blank_tiles_presence_finds_empty_are_read(square_board, tmp_path):
    """Where presence finds a blank tile's square empty (here: its empty board shows the blanks too),
    the reader reads the square all the same and keeps the tile where it surely reads one."""
    _, geometry = square_board
    config = SquareReadConfig(geometry, TileReader())
    plain = SquareBoardReader(config)
    addresses = plain.sheet.addresses
    empty_to_presence = kept = extra = 0
    for seed in BLIND_FRAMES:
        rng = np.random.default_rng(seed)
        faces = {addresses[i]: "#" for i in rng.choice(len(addresses), BLANKS, replace=False)}
        frame = render_square_frame(geometry, faces, "held_out", rng)
        image = written(frame.image, tmp_path / f"blind{seed}.jpg")
        location = plain.locator.locate(image, "frame")
        blind = SquareBoardReader(replace(config, empty_board=plain.presence_view.rectify(image, location)))
        p = blind.presence.measure(blind.presence_view.rectify(image, location)).probability
        empty = {a for a, q in zip(addresses, p.tolist(), strict=True) if a in faces and q <= RULE.low}
        read = {str(c) for c in blind.read(image, location=location).cells}
        empty_to_presence += len(empty)
        kept += len(empty & read)
        extra += len(read - set(faces))
    assert empty_to_presence >= len(BLIND_FRAMES) * BLANKS * 0.9, empty_to_presence
    assert kept >= LEAST_KEPT_SHARE * empty_to_presence, (kept, empty_to_presence)
    assert extra <= MOST_READ_OTHERWISE, extra


def test_four_quarter_turns_of_each_crop_read_better_than_one(defocused, square_board):
    """Held-out Yushino tile crops read at one view and at four, and the defocused held-out frames
    read so without the rules' prior: four views read the crops better, and the frames no worse."""
    reader = TileReader()
    crops = rendered_crops("held_out", VIEW_CROPS, 11, ("yushino",))
    read = {views: reader.probabilities(crops.images, views=views)[0].argmax(axis=1) for views in (1, 4)}
    wrong = {views: int((faces != crops.faces).sum()) for views, faces in read.items()}
    _, geometry = square_board
    one, four = (misread(defocused, SquareReadConfig(geometry, reader, views=views, sequence_penalty=0.0))
                 for views in (1, 4))
    assert wrong[4] < wrong[1] and wrong[4] <= MOST_CROPS_WRONG, wrong
    assert len(four) <= len(one) and len(four) <= MOST_DEFOCUSED_WRONG, (len(one), len(four))


def test_a_line_that_breaks_the_rules_is_a_finding(square_board, tmp_path, capsys):
    """Five 1s in a row (a line no reading mends cheaply) beside a legal column."""
    folder, geometry = square_board
    faces = {**{f"{c}8": "1" for c in "GHIJK"}, "H9": "2", "H10": "3"}
    frame = render_square_frame(geometry, faces, "held_out", np.random.default_rng(9))
    path = tmp_path / "broken.png"
    cv2.imwrite(str(path), frame.image)
    status, doc = read_json(capsys, str(path))
    assert status == 0 and set(doc["cells"]) == set(faces)
    assert doc["findings"] == [f"{path}: G8-K8: 1 1 1 1 1 is not a Yushino sequence (§2)"]


def test_a_line_read_backwards_is_a_sequence_when_the_game_says_so(square_board, tmp_path, capsys):
    """8 3 5 reads right to left (5 + 3 = 8): a sequence with [Direction "either"], not forward."""
    _, geometry = square_board
    faces = {"G8": "8", "H8": "3", "I8": "5"}
    frame = render_square_frame(geometry, faces, "held_out", np.random.default_rng(10))
    path = tmp_path / "back.png"
    cv2.imwrite(str(path), frame.image)
    _, either = read_json(capsys, str(path), "--direction", "either")
    assert {a: c["face"] for a, c in either["cells"].items()} == faces and either["findings"] == []
    _, forward = read_json(capsys, str(path))
    read = " ".join(forward["cells"][a]["face"] for a in faces)
    assert forward["findings"] == [f"{path}: G8-I8: {read} is not a Yushino sequence (§2)"] or read == "8 3 1"


def test_a_frame_without_the_board_is_reported(tmp_path, capsys):
    table = tmp_path / "table.png"
    cv2.imwrite(str(table), np.full((480, 640, 3), (40, 90, 140), np.uint8))
    status, doc = read_json(capsys, str(table))
    assert status == 1 and doc["board_found"] is False and doc["cells"] == {}
    assert "board not found" in doc["findings"][0]


@pytest.mark.parametrize("case", ["no image", "hex board", "modulus", "broken board"])
def test_bad_input_is_one_line_naming_it(case, frames, tmp_path):
    hex_board = tmp_path / "hex.json"
    design_board(SheetSpec(order=3)).save(hex_board)
    broken = tmp_path / "broken.json"
    broken.write_text('{"kind": "square", "columns": 15}', encoding="utf-8")
    image = str(frames[0].path)
    argv, named = {
        "no image": ([str(tmp_path / "none.jpg")], "none.jpg"),
        "hex board": ([image, "--board", str(hex_board)], "hex.json"),
        "modulus": ([image, "--modulus", "13"], "--modulus"),
        "broken board": ([image, "--board", str(broken)], "broken.json"),
    }[case]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "tilescribe.cli", "read", *argv, "--game", "yushino"],
                          capture_output=True, text=True, timeout=120, cwd=REPO, env=env)
    lines = [line for line in done.stderr.splitlines() if line.strip() and not line.startswith("pygame")]
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith("tilescribe read: ") and named in lines[0]


def test_the_rules_prior_mends_unsure_faces(prior_frames, square_board):
    """The defocused held-out frames read without and with the rules' prior: the prior mends many
    of the faces misread."""
    _, geometry = square_board
    reader = TileReader()
    without, with_prior = (len(misread(prior_frames, SquareReadConfig(geometry, reader, sequence_penalty=p)))
                           for p in (0.0, SEQUENCE_PENALTY))
    assert with_prior <= MOST_WRONG_WITH_PRIOR, (without, with_prior)
    assert without >= LEAST_PRIOR_RATIO * with_prior, (without, with_prior)


def test_each_square_read_weighs_its_faces_and_no_tile(defocused, square_board):
    """A square's alternatives are one distribution over its faces and "none" (no tile there),
    likeliest first: on the defocused frames some squares read as tiles are unsure of being tiles."""
    _, geometry = square_board
    reader = SquareBoardReader(SquareReadConfig(geometry, TileReader()))
    unsure = 0
    for frame in defocused:
        image = cv2.imread(str(frame.path))
        assert image is not None
        for address, cell in reader.read(image, frame.path.name).cells.items():
            probs = [p for _, p in cell.alternatives]
            assert probs == sorted(probs, reverse=True) and 0 < sum(probs) <= 1 + 1e-6, address
            assert {f for f, _ in cell.alternatives} <= {*YUSHINO_FACES, NOT_A_FACE}, address
            unsure += dict(cell.alternatives).get(NOT_A_FACE, 0.0) >= 0.05
    assert unsure > 0
