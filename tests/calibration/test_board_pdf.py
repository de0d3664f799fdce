"""board.pdf is vector and true to scale: rasterised by poppler at 600 dpi, its markers lie where
board.json says within 0.05 mm, on one sheet and on a board tiled over several."""

from __future__ import annotations

import re
import shutil
import subprocess
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.board_pdf import board_size_mm, marker_modules
from calibration.board_print import SheetSpec, print_board
from calibration.geometry import BoardGeometry
from calibration.paper import PAPER_MM, plan_sheets

DPI = 600
MAX_ERROR_MM = 0.05

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) missing")


def rasterise(pdf: Path, out: Path) -> list[np.ndarray]:
    """Every page of ``pdf`` as a grey image at DPI (poppler's pdftoppm)."""
    subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", str(pdf), str(out / "page")], check=True)
    return [cv2.imread(str(p), cv2.IMREAD_GRAYSCALE) for p in sorted(out.glob("page-*.pgm"))]


def pdf_text(pdf: Path) -> str:
    """The text of ``pdf`` (poppler's pdftotext)."""
    return subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def drawn_addresses(pdf: Path) -> list[set[str]]:
    """Per page, the cell addresses its (zlib-compressed) content stream draws, off the page too
    (pdftotext leaves out text outside the page)."""
    pages = []
    for stream in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", pdf.read_bytes(), re.S):
        try:
            content = zlib.decompress(stream)
        except zlib.error:  # a font or other binary stream
            continue
        pages.append({a.decode() for a in re.findall(rb"\(([A-Z]\d+)\) Tj", content)})
    return pages


def detected_markers_mm(
    pdf: Path, geometry: BoardGeometry, paper: str, tmp: Path
) -> list[tuple[int, np.ndarray]]:
    """(marker id, 4 x 2 corners in board millimetres) for every marker found on every page."""
    plan = plan_sheets(board_size_mm(geometry), paper)
    pages = rasterise(pdf, tmp)
    assert len(pages) == len(plan.sheets)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)
    found = []
    for sheet, page in zip(plan.sheets, pages, strict=True):
        corners, ids, _ = detector.detectMarkers(page)
        for c, i in zip(corners, [] if ids is None else ids.ravel(), strict=True):
            # pixel centres lie at +0.5 of a pixel on the page; OpenCV counts them from 0
            page_mm = (c.reshape(4, 2) + 0.5) * 25.4 / DPI
            found.append((int(i), np.array([sheet.page_to_board_mm(x, y) for x, y in page_mm])))
    return found


def errors_mm(found: list[tuple[int, np.ndarray]], geometry: BoardGeometry) -> list[float]:
    return [
        float(np.abs(corners - np.array(geometry.marker(i).corners) / geometry.px_per_mm).max())
        for i, corners in found
    ]


def test_one_sheet_markers_where_board_json_says(tmp_path):
    geometry = print_board(SheetSpec(order=2), tmp_path, "A3")
    assert len(plan_sheets(board_size_mm(geometry), "A3").sheets) == 1
    found = detected_markers_mm(tmp_path / "board.pdf", geometry, "A3", tmp_path)
    assert sorted(i for i, _ in found) == [m.id for m in geometry.markers]
    assert max(errors_mm(found, geometry)) <= MAX_ERROR_MM


def test_tiled_sheets_markers_where_board_json_says(tmp_path):
    geometry = print_board(SheetSpec(order=2), tmp_path, "A4")
    plan = plan_sheets(board_size_mm(geometry), "A4")
    assert (plan.cols, plan.rows) == (2, 1)
    found = detected_markers_mm(tmp_path / "board.pdf", geometry, "A4", tmp_path)
    # a marker across the seam is whole on neither sheet; all the others are found
    assert len({i for i, _ in found}) >= len(geometry.markers) - 2
    assert {i for i, _ in found if i in (0, 9, 8)} == {0, 9, 8}  # the left column, on sheet 1
    assert max(errors_mm(found, geometry)) <= MAX_ERROR_MM
    text = pdf_text(tmp_path / "board.pdf")
    assert "sheet row 1/1 column 1/2" in text and "sheet row 1/1 column 2/2" in text
    # each sheet draws the cells that reach into it, not the whole board again; together every cell
    pages = drawn_addresses(tmp_path / "board.pdf")
    assert len(pages) == 2 and len(pages[0]) + len(pages[1]) < 2 * len(geometry.cells)
    assert pages[0] | pages[1] == set(geometry.cells)


def test_pdf_is_vector_with_text_and_no_image(tmp_path):
    print_board(SheetSpec(order=2), tmp_path, "A3")
    pdf = (tmp_path / "board.pdf").read_bytes()
    assert b"/Subtype /Image" not in pdf and b"/XObject" not in pdf
    text = pdf_text(tmp_path / "board.pdf")
    assert {"A0", "B1", "T2", "P3"} <= set(text.split())
    assert "order 2" in text
    assert (tmp_path / "board.png").is_file()


@pytest.mark.parametrize("paper", sorted(PAPER_MM))
def test_every_paper_size_prints_at_its_page_size(tmp_path, paper):
    geometry = print_board(SheetSpec(order=3), tmp_path, paper)
    plan = plan_sheets(board_size_mm(geometry), paper)
    info = subprocess.run(
        ["pdfinfo", "-f", "1", "-l", "1", str(tmp_path / "board.pdf")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    w_pt, h_pt = (float(v) for v in re.search(r"Page\s+1 size:\s+([\d.]+) x ([\d.]+)", info).groups())
    assert pages == plan.cols * plan.rows
    assert sorted((w_pt / 72 * 25.4, h_pt / 72 * 25.4)) == pytest.approx(sorted(PAPER_MM[paper]), abs=0.1)


def test_marker_modules_follow_the_dictionary():
    bits = marker_modules("DICT_4X4_50", 0)
    assert len(bits) == 6 and all(len(row) == 6 for row in bits)
    assert all(bits[0]) and all(bits[-1]) and all(row[0] and row[-1] for row in bits)  # black border
    with pytest.raises(ValueError, match="marker id 50 is not in DICT_4X4_50"):
        marker_modules("DICT_4X4_50", 50)
    with pytest.raises(ValueError, match="unknown ArUco dictionary 'DICT_9X9'"):
        marker_modules("DICT_9X9", 0)
