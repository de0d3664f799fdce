"""The printed board: files written by ``tilescribe board print`` and read back."""

from __future__ import annotations

import argparse
import json
import re

import cv2
import numpy as np
import pytest

from calibration.board_print import SheetSpec, design_board, render_board
from calibration.geometry import BoardFileError, BoardGeometry
from calibration.paper import plan_sheets
from tilescribe.commands import board as board_command


def main(argv):
    """Run the real ``board`` command parser (independent of other teams' commands)."""
    parser = argparse.ArgumentParser()
    board_command.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    return args.func(args)


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    out = tmp_path_factory.mktemp("board")
    assert main(["board", "print", "--order", "9", "--dpi", "60", "--out", str(out)]) == 0
    return out


def test_board_files_follow_the_documented_format(printed):
    doc = json.loads((printed / "board.json").read_text())
    assert doc["order"] == 9 and doc["cell_mm"] == 32
    assert len(doc["cells"]) == 271
    assert len(doc["cells"]["A0"]["corners"]) == 6
    assert all(len(m["corners"]) == 4 for m in doc["markers"])
    png = cv2.imread(str(printed / "board.png"))
    assert [png.shape[1], png.shape[0]] == doc["image_size"]
    pdf = (printed / "board.pdf").read_bytes()
    assert pdf.startswith(b"%PDF")
    # 720 x 650 mm does not fit an A3 sheet: tiled over 3 x 2 sheets
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)) == 6


def test_geometry_load_round_trip(printed):
    geometry = BoardGeometry.load(printed / "board.json")
    assert geometry.to_json() == json.loads((printed / "board.json").read_text())
    a0 = geometry.cells["A0"]
    assert geometry.layout.pixel_to_hex(*a0.center) == a0.cell
    # 32 mm between neighbouring centres at 60 dpi
    b1 = geometry.cells["B1"]
    assert a0.center[0] - b1.center[0] == pytest.approx(32 / 25.4 * 60, abs=0.02)


def test_markers_in_board_png_are_detected_with_their_ids_and_corners(printed):
    geometry = BoardGeometry.load(printed / "board.json")
    png = cv2.imread(str(printed / "board.png"), cv2.IMREAD_GRAYSCALE)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    corners, ids, _ = cv2.aruco.ArucoDetector(dictionary).detectMarkers(png)
    assert sorted(ids.ravel().tolist()) == [m.id for m in geometry.markers]
    for c, i in zip(corners, ids.ravel(), strict=True):
        assert np.abs(c.reshape(4, 2) - np.array(geometry.marker(int(i)).corners)).max() < 2.0


def test_cells_fit_25mm_tiles_and_markers_stay_off_the_cells():
    geometry = design_board(SheetSpec(order=9, dpi=100))
    inner_mm = geometry.layout.pitch / geometry.px_per_mm / 2
    assert 2 * inner_mm >= 27  # a 25 mm tile inside the flats, with paper to spare
    image = render_board(geometry)
    for m in geometry.markers:
        (x0, y0), _, (x1, y1), _ = m.corners
        for c in geometry.cells.values():
            assert not (x0 - 5 < c.center[0] < x1 + 5 and y0 - 5 < c.center[1] < y1 + 5)
    # the centre of every cell is plain paper (presence relies on it)
    for c in geometry.cells.values():
        x, y = (round(v) for v in c.center)
        assert image[y - 8:y + 8, x - 8:x + 8].min() == 255


def test_large_board_is_tiled_over_several_sheets():
    big = plan_sheets((720.0, 650.0), "A3")
    assert (big.cols, big.rows) == (3, 2)
    assert len(plan_sheets((250.0, 200.0), "A3").sheets) == 1


def test_neighbouring_sheets_print_their_crosses_at_the_same_board_points():
    plan = plan_sheets((720.0, 650.0), "A4")
    at = {(s.row, s.col): s for s in plan.sheets}
    uw, uh = plan.printable_mm
    shared = 0
    for (row, col), sheet in at.items():
        for other in (at.get((row, col + 1)), at.get((row + 1, col))):
            if other is None:
                continue
            mine = {tuple(np.round(sheet.page_to_board_mm(x, y), 6)) for x, y in plan.crosses(sheet)}
            theirs = {tuple(np.round(other.page_to_board_mm(x, y), 6)) for x, y in plan.crosses(other)}
            common = mine & theirs
            assert len(common) == 3, (sheet, other)
            for board_point in common:  # inside both sheets' printable areas, in their overlap strip
                for s in (sheet, other):
                    x, y = board_point[0] - s.origin_mm[0], board_point[1] - s.origin_mm[1]
                    assert 0 < x < uw and 0 < y < uh
            shared += 1
    assert shared == (plan.cols - 1) * plan.rows + (plan.rows - 1) * plan.cols


def test_bad_options_give_clear_errors(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["board", "print", "--cell-mm", "20", "--out", str(tmp_path)])
    assert "argument --cell-mm: '20' is out of range: 27 to 100" in capsys.readouterr().err
    with pytest.raises(ValueError, match="cell_mm 20.0 must be 27"):
        SheetSpec(cell_mm=20.0)
    with pytest.raises(ValueError, match="lower the dpi"):
        SheetSpec(order=30, dpi=150)
    bad = tmp_path / "board.json"
    bad.write_text('{"order": 9, "cell_mm": 32}')
    with pytest.raises(BoardFileError, match=r"board.json.*'image_size'"):
        BoardGeometry.load(bad)
    with pytest.raises(BoardFileError, match="cannot read"):
        BoardGeometry.load(tmp_path / "missing.json")
