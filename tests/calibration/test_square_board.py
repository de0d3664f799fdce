"""The printed Yushino board: ``tilescribe board print --game yushino`` files read back, its markers
found where board.json says in board.png and in board.pdf (rasterised by poppler), its premium
squares coloured where games.md puts them."""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.geometry import BoardFileError, BoardGeometry
from calibration.palette import PLAIN_RGB, PREMIUM_RGB
from calibration.paper import plan_sheets
from calibration.square_board import SquareSpec, print_square_board
from calibration.square_geometry import SquareBoardGeometry, load_board
from engine.yushino.board import classic_layout, format_square
from tilescribe.commands import board as board_command

PDF_DPI = 300
MAX_PDF_ERROR_MM = 0.1  # a third of a pixel at 300 dpi, with sub-pixel corner refinement


def main(argv: list[str]) -> int:
    """Run the real ``board`` command parser."""
    parser = argparse.ArgumentParser()
    board_command.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    return args.func(args)


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("yushino")
    assert main(["board", "print", "--game", "yushino", "--paper", "A2", "--out", str(out)]) == 0
    return out


def _read(path: Path) -> np.ndarray:
    image = cv2.imread(str(path))
    assert image is not None, path
    return image


def _detector() -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)


def test_board_json_has_every_square_with_its_corners_and_premium(printed: Path) -> None:
    doc = json.loads((printed / "board.json").read_text())
    assert doc["kind"] == "square" and doc["units"] == "mm" and len(doc["squares"]) == 225
    geometry = load_board(printed / "board.json")
    assert isinstance(geometry, SquareBoardGeometry)
    assert SquareBoardGeometry.from_json(geometry.to_json()) == geometry
    s = geometry.square_mm
    assert s == 25.0
    a1 = geometry.squares["A1"].corners[0]
    for address, square in geometry.squares.items():
        col, row = square.square.col, square.square.row
        x, y = a1[0] + col * s, a1[1] + row * s
        assert square.corners == ((x, y), (x + s, y), (x + s, y + s), (x, y + s)), address
        assert geometry.square_at(x + s / 2, y + s / 2) == address  # mm -> address round trip
    premiums = {a: sq.premium for a, sq in geometry.squares.items() if sq.premium}
    assert premiums == {format_square(sq): kind for sq, kind in classic_layout().premiums.items()}
    assert (premiums["H8"], premiums["A1"], premiums["F2"], premiums["D1"]) == ("2X", "3X", "3*", "2*")
    # the markers ring the grid, clear of it
    grid = (a1[0], a1[1], a1[0] + 15 * s, a1[1] + 15 * s)
    assert [m.id for m in geometry.markers] == list(range(10))
    for m in geometry.markers:
        xs, ys = zip(*m.corners, strict=True)
        assert max(xs) < grid[0] or min(xs) > grid[2] or max(ys) < grid[1] or min(ys) > grid[3]


def test_the_hex_reader_refuses_it_and_load_board_reads_both_kinds(printed: Path, tmp_path: Path) -> None:
    with pytest.raises(BoardFileError, match="kind 'square'"):
        BoardGeometry.load(printed / "board.json")
    assert main(["board", "print", "--order", "2", "--dpi", "60", "--out", str(tmp_path)]) == 0
    hex_doc = json.loads((tmp_path / "board.json").read_text())
    assert "kind" not in hex_doc  # the hex board's file is as before
    assert isinstance(load_board(tmp_path / "board.json"), BoardGeometry)


def test_board_png_markers_and_premium_colours_where_board_json_says(printed: Path) -> None:
    geometry = load_board(printed / "board.json")
    assert isinstance(geometry, SquareBoardGeometry)
    image = cv2.imread(str(printed / "board.png"))
    assert image is not None
    assert (image.shape[1], image.shape[0]) == geometry.image_size
    k = geometry.px_per_mm
    corners, ids, _ = _detector().detectMarkers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    assert sorted(ids.ravel()) == list(range(10))
    for c, i in zip(corners, ids.ravel(), strict=True):
        expected = np.array(geometry.marker(int(i)).corners) * k
        assert np.abs(c.reshape(4, 2) + 0.5 - expected).max() < 1.0, i
    for address, square in geometry.squares.items():
        (x0, y0), _, (x1, y1), _ = square.corners
        # a point a fifth of the way in from the top-left corner: clear of the label and the address
        x, y = round((x0 + 0.2 * (x1 - x0)) * k), round((y0 + 0.2 * (y1 - y0)) * k)
        rgb = PREMIUM_RGB[square.premium] if square.premium else PLAIN_RGB
        assert tuple(int(v) for v in image[y, x][::-1]) == rgb, address


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) missing")
def test_board_pdf_is_true_scale_on_tiled_sheets(tmp_path: Path) -> None:
    geometry = print_square_board(SquareSpec(dpi=60), tmp_path, "A3")
    plan = plan_sheets(geometry.size_mm, "A3")
    assert len(plan.sheets) > 1
    subprocess.run(["pdftoppm", "-r", str(PDF_DPI), "-png", str(tmp_path / "board.pdf"), str(tmp_path / "p")],
                   check=True)
    pages = [_read(p) for p in sorted(tmp_path.glob("p-*.png"))]
    assert len(pages) == len(plan.sheets)
    found: dict[int, float] = {}
    colours_checked = 0
    for sheet, page in zip(plan.sheets, pages, strict=True):
        corners, ids, _ = _detector().detectMarkers(cv2.cvtColor(page, cv2.COLOR_BGR2GRAY))
        for c, i in zip(corners, [] if ids is None else ids.ravel(), strict=True):
            page_mm = (c.reshape(4, 2) + 0.5) * 25.4 / PDF_DPI
            board_mm = np.array([sheet.page_to_board_mm(x, y) for x, y in page_mm])
            found[int(i)] = float(np.abs(board_mm - np.array(geometry.marker(int(i)).corners)).max())
        for square in geometry.squares.values():  # premium fills on this sheet, at their board place
            if square.premium is None:
                continue
            (x0, y0), _, (x1, y1), _ = square.corners
            bx, by = x0 + 0.2 * (x1 - x0), y0 + 0.2 * (y1 - y0)
            px = (bx - sheet.origin_mm[0] + 10.0) * PDF_DPI / 25.4  # 10 mm printer margin
            py = (by - sheet.origin_mm[1] + 10.0) * PDF_DPI / 25.4
            uw, uh = plan.printable_mm
            if 0 < bx - sheet.origin_mm[0] < uw - 1 and 0 < by - sheet.origin_mm[1] < uh - 1:
                rgb = tuple(int(v) for v in page[int(py), int(px)][::-1])
                assert max(abs(a - b) for a, b in zip(rgb, PREMIUM_RGB[square.premium], strict=True)) <= 3
                colours_checked += 1
    assert len(found) >= 8  # a marker cut by a seam is whole on neither sheet
    assert max(found.values()) <= MAX_PDF_ERROR_MM
    assert colours_checked >= 61  # every premium square at least once


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) missing")
def test_one_sheet_pdf_labels_every_premium_and_coordinate(tmp_path: Path) -> None:
    geometry = print_square_board(SquareSpec(square_mm=15.0, dpi=50), tmp_path, "A2")
    assert len(plan_sheets(geometry.size_mm, "A2").sheets) == 1
    words = subprocess.run(["pdftotext", str(tmp_path / "board.pdf"), "-"], capture_output=True, text=True,
                           check=True).stdout.split()
    kinds = Counter(w for w in words if w in PREMIUM_RGB)
    assert kinds == {"3X": 8, "2X": 17, "3*": 12, "2*": 24}
    addresses = {w for w in words if w in geometry.squares}
    assert addresses == set(geometry.squares)  # every square's own address
    assert all(Counter(words)[c] >= 2 for c in "ABCDEFGHIJKLMNO")  # columns above and below


def test_a_bad_square_board_json_names_the_key(tmp_path: Path) -> None:
    doc = print_square_board(SquareSpec(dpi=50), tmp_path, "A2").to_json()
    del doc["squares"]["H8"]
    (tmp_path / "board.json").write_text(json.dumps(doc))
    with pytest.raises(BoardFileError, match="board.json: bad board file: a 15 x 15 board has 225 squares"):
        load_board(tmp_path / "board.json")
    doc["squares"]["H8"] = {"corners": [[0, 0]], "premium": None}
    (tmp_path / "board.json").write_text(json.dumps(doc))
    with pytest.raises(BoardFileError, match=r"squares\.H8\.corners: expected 4 corners"):
        load_board(tmp_path / "board.json")


def test_bad_game_and_layout_give_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["board", "print", "--game", "super wild", "--out", str(tmp_path)])
    assert "Super Wild has no board to print; these do: MODLINSEQ, Yushino" in capsys.readouterr().err
    layout = tmp_path / "mine.toml"
    layout.write_text('"2X" = ["H8", "Z99"]\n')
    assert main(["board", "print", "--game", "yushino", "--layout", str(layout), "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tilescribe board print: mine.toml") and "Z99" in err and err.count("\n") == 1
    layout.write_text('name = "tiny"\n"3X" = ["H8"]\n')
    assert main(["board", "print", "--game", "yushino", "--dpi", "50", "--layout", str(layout),
                 "--out", str(tmp_path)]) == 0
    geometry = load_board(tmp_path / "board.json")
    assert isinstance(geometry, SquareBoardGeometry) and geometry.layout == "tiny"
    assert {a for a, s in geometry.squares.items() if s.premium} == {"H8"}
