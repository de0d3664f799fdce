"""``tilescribe read-tiles`` on a real photo of train/, and ``tilescribe tileset``."""

from __future__ import annotations

import json

import cv2
import numpy as np

from calibration.tilesets import load_tileset
from tilescribe.cli import main


def test_read_tiles_prints_the_issue_4_json(photos_dir, capsys):
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
