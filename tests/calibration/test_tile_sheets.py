"""Print-and-play tile sheets: ``tilescribe tiles print`` read back from tiles.json, from the PDF's
text (pdftotext) and from its pixels (pdftoppm): every tile of the set, its cut line where
tiles.json puts it, Yushino's up mark under the digit, Holominoes' bites, MODLINSEQ's apex."""

from __future__ import annotations

import argparse
import json
import math
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.tile_sheets import HOLO_BITE, HOLO_RADIUS_MM, PENTAGON_WIDTH_MM, YUSHINO_PLAY_MM
from engine.holominoes import format_tile, tile_set
from engine.yushino import DISTRIBUTION
from tilescribe.commands import tiles as tiles_command

DPI = 150
pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils missing")


def main(argv: list[str]) -> int:
    """Run the real ``tiles`` command parser."""
    parser = argparse.ArgumentParser()
    tiles_command.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    return args.func(args)


def printed(tmp_path: Path, *options: str) -> tuple[dict, list[np.ndarray], list[str]]:
    """Print a set; tiles.json, every page as grey pixels at DPI, every page's text."""
    assert main(["tiles", "print", *options, "--out", str(tmp_path)]) == 0
    doc = json.loads((tmp_path / "tiles.json").read_text())
    pdf = tmp_path / "tiles.pdf"
    subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", str(pdf), str(tmp_path / "p")], check=True)
    pages = [cv2.imread(str(p), cv2.IMREAD_GRAYSCALE) for p in sorted(tmp_path.glob("p-*.pgm"))]
    assert pages and all(page is not None for page in pages)
    texts = []
    for n in range(1, len(pages) + 1):
        texts.append(subprocess.run(["pdftotext", "-f", str(n), "-l", str(n), str(pdf), "-"],
                                    capture_output=True, text=True, check=True).stdout)
    return doc, [np.asarray(page) for page in pages], texts


def px(point_mm: tuple[float, float]) -> tuple[int, int]:
    """(column, row) of a page point in millimetres."""
    return int(point_mm[0] * DPI / 25.4), int(point_mm[1] * DPI / 25.4)


def darkest(page: np.ndarray, point_mm: tuple[float, float], reach: int = 2) -> int:
    """The darkest grey within ``reach`` pixels of a page point."""
    x, y = px(point_mm)
    return int(page[y - reach : y + reach + 1, x - reach : x + reach + 1].min())


def body_text(texts: list[str]) -> str:
    """The faces printed on the tiles: every page's text less its title line."""
    return "".join("\n".join(t.splitlines()[1:]) for t in texts)


def test_yushino_sheet_has_the_96_tiles_of_section_6_each_with_its_up_mark(tmp_path: Path) -> None:
    doc, pages, texts = printed(tmp_path, "--game", "yushino")
    faces = Counter(t["face"] for t in doc["tiles"])
    assert faces == Counter(DISTRIBUTION) and sum(faces.values()) == 96
    printed_chars = Counter(ch for ch in body_text(texts) if not ch.isspace())
    assert printed_chars == Counter(DISTRIBUTION)
    side = 25.0 - YUSHINO_PLAY_MM
    assert doc["tile_mm"] == [side, side]
    for tile in doc["tiles"]:
        page = pages[tile["page"] - 1]
        cx, cy = tile["center"]
        for edge in ((cx - side / 2, cy), (cx + side / 2, cy), (cx, cy - side / 2), (cx, cy + side / 2)):
            assert darkest(page, edge) < 100, (tile, edge)  # the cut line
        # the bar under the digit is dark; the same place above the digit is paper: up is readable
        bar = (cx, cy + side * 0.33)
        assert darkest(page, bar, 1) < 80, tile
        assert darkest(page, (cx, cy - side * 0.33), 1) > 200, tile


def test_holominoes_sheet_has_the_40_tiles_as_bitten_hexagons(tmp_path: Path) -> None:
    doc, pages, texts = printed(tmp_path, "--game", "holominoes", "--paper", "letter")
    assert sorted(t["face"] for t in doc["tiles"]) == sorted(format_tile(t) for t in tile_set(6))
    assert len(doc["tiles"]) == 40
    digits = Counter(ch for ch in body_text(texts) if not ch.isspace())
    assert digits == {str(d): 20 for d in range(1, 7)}  # each number is on 10 triplets, two tiles each
    r = HOLO_RADIUS_MM
    for tile in doc["tiles"]:
        page = pages[tile["page"] - 1]
        cx, cy = tile["center"]
        for i in range(6):  # E, SE, SW, W, NW, NE (y down)
            a = math.radians(60 * i)
            corner = (cx + r * math.cos(a), cy + r * math.sin(a))
            if i % 2 == 0:  # numbered corner: the cut line passes through it
                assert darkest(page, corner) < 100, (tile, i)
            else:  # bitten: the corner itself is cut away, the bite's rim is drawn
                assert darkest(page, corner) > 200, (tile, i)
                rim = (corner[0] - HOLO_BITE * r * math.cos(a), corner[1] - HOLO_BITE * r * math.sin(a))
                assert darkest(page, rim) < 100, (tile, i)


def test_modlinseq_set_for_a_modulus_as_pentagons_apex_up(tmp_path: Path) -> None:
    doc, pages, texts = printed(tmp_path, "--game", "modlinseq", "--modulus", "7", "--paper", "A3")
    faces = Counter(t["face"] for t in doc["tiles"])
    assert faces == {**{str(v): 10 for v in range(7)}, "marker": 1} and doc["modulus"] == 7
    assert "mod 7" in body_text(texts)
    width, height = doc["tile_mm"]
    assert width == PENTAGON_WIDTH_MM and height == pytest.approx(width * 0.951, abs=0.01)
    for tile in doc["tiles"]:
        page = pages[tile["page"] - 1]
        cx, cy = tile["center"]
        assert darkest(page, (cx, cy - height / 2)) < 100, tile  # the apex, up
        assert darkest(page, (cx, cy + height / 2)) < 100, tile  # the flat bottom edge
        assert darkest(page, (cx - width / 2 + 1, cy - height / 2 + 1), 1) > 200, tile  # no corner there


def test_bad_options_give_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv, words in (
        (["--game", "super-wild"], "Super Wild has no tile sheet"),
        (["--game", "modlinseq", "--modulus", "20"], "'20' is out of range: 2 to 13"),
        (["--game", "chess"], "unknown game 'chess'"),
    ):
        with pytest.raises(SystemExit):
            main(["tiles", "print", *argv, "--out", str(tmp_path)])
        assert words in capsys.readouterr().err
