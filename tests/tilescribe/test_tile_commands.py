"""``tilescribe read-tiles`` on a real photo of train/, and ``tilescribe tileset``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from calibration.tilesets import load_tileset
from tilescribe.cli import main


def test_read_tiles_prints_its_json(photos_dir, capsys):
    path = next((photos_dir / "train" / "images").glob("rummy-10_*.jpg"))
    assert main(["read-tiles", str(path), "--tileset", "rummikub", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"tiles", "ms"} and out["ms"] > 0
    assert len(out["tiles"]) >= 10
    for tile in out["tiles"]:
        assert set(tile) == {"face", "colour", "joker", "value", "corners", "center", "confidence"}
        assert len(tile["corners"]) == 4 and len(tile["center"]) == 2
        assert tile["colour"] in ("black", "blue", "orange", "red")
        assert tile["joker"] == (tile["face"] == "joker")
        assert tile["value"] == (None if tile["joker"] else int(tile["face"]) % 13)


def test_tesseract_is_needed_only_when_asked_for(photos_dir, tmp_path):
    path = next((photos_dir / "train" / "images").glob("rummy-10_*.jpg"))
    # a PATH without tesseract on it: the default reads, --ocr tesseract names what is missing
    env = {**os.environ, "PATH": str(tmp_path), "PYTHONPATH": str(Path(__file__).resolve().parents[2])}

    def read_tiles(*options, path_env=str(tmp_path)):
        return subprocess.run([sys.executable, "-m", "tilescribe.cli", "read-tiles", str(path), *options],
                              capture_output=True, text=True, env={**env, "PATH": path_env}, timeout=120)

    plain = read_tiles("--json")
    assert plain.returncode == 0 and len(json.loads(plain.stdout)["tiles"]) >= 10
    asked = read_tiles("--ocr", "tesseract")
    assert asked.returncode == 2 and "Traceback" not in asked.stderr
    assert asked.stderr.strip() == (f"tilescribe read-tiles: {path}: tesseract (the second reader asked for) "
                                    "is not on PATH: apt install tesseract-ocr tesseract-ocr-eng")
    with_tesseract = read_tiles("--ocr", "tesseract", "--json", path_env=os.environ["PATH"])
    assert with_tesseract.returncode == 0 and len(json.loads(with_tesseract.stdout)["tiles"]) >= 10


def test_read_tiles_names_a_bad_image_and_tileset(tmp_path, capsys):
    assert main(["read-tiles", str(tmp_path / "none.jpg")]) == 2
    assert "cannot read image" in capsys.readouterr().err
    image = tmp_path / "grey.png"
    cv2.imwrite(str(image), np.full((64, 64, 3), 128, np.uint8))
    assert main(["read-tiles", str(image), "--tileset", "nosuchset"]) == 2
    assert "unknown tile set 'nosuchset'" in capsys.readouterr().err


def test_tileset_list_and_show(capsys):
    assert main(["tileset", "list"]) == 0
    listed = capsys.readouterr().out
    assert "rummikub" in listed and "modlinseq" in listed
    assert main(["tileset", "show", "rummikub"]) == 0
    assert 'wild_faces = ["joker"]' in capsys.readouterr().out
    assert load_tileset("rummikub").name == "rummikub"


def test_tileset_learn_names_bad_input(tmp_path, capsys):
    assert main(["tileset", "learn", str(tmp_path / "none.jpg"), "--board", "b.json", "--name", "x",
                 "--out", str(tmp_path)]) == 2
    assert "cannot read image" in capsys.readouterr().err
    image = tmp_path / "grey.png"
    cv2.imwrite(str(image), np.full((64, 64, 3), 128, np.uint8))
    assert main(["tileset", "learn", str(image), "--board", str(tmp_path / "missing.json"), "--name", "x",
                 "--out", str(tmp_path)]) == 2
    assert "missing.json" in capsys.readouterr().err
