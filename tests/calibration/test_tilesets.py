"""Tile-set profiles: the shipped ones, values under a modulus, round trip, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from calibration.tilesets import TileSetError, builtin_tilesets, format_tileset, load_tileset, parse_tileset


def test_builtin_profiles_are_shipped():
    assert {"modlinseq", "rummikub"} <= set(builtin_tilesets())


def test_rummikub_under_modulus_13_is_a_complete_modlinseq_set():
    rummikub = load_tileset("rummikub")
    assert rummikub.value("13", 13) == 0
    assert rummikub.value("7", 13) == 7
    assert rummikub.value("joker", 13) is None
    assert rummikub.tile("joker", 13).is_wild
    assert rummikub.tile("13", 13).value == 0
    assert rummikub.tiles_per_value(13) == {v: 8 for v in range(13)}
    assert sum(rummikub.count(f) for f in rummikub.faces) == 106
    assert rummikub.colours == ("black", "blue", "orange", "red")


def test_modlinseq_set_has_ten_of_each_value_and_no_twelve_under_modulus_12():
    modlinseq = load_tileset("modlinseq")
    assert modlinseq.tiles_per_value(13) == {v: 10 for v in range(13)}
    assert modlinseq.value("12", 12) is None
    assert modlinseq.value("marker", 12) == 0 and modlinseq.tile("marker", 12).is_marker
    assert modlinseq.tile("#", 13).is_wild
    with pytest.raises(TileSetError, match="'12' has no value under modulus 12"):
        modlinseq.tile("12", 12)
    with pytest.raises(TileSetError, match="has no face 'joker'"):
        modlinseq.value("joker", 13)


def test_face_values_map_every_face():
    assert load_tileset("rummikub").face_values(13)["13"] == 0
    assert load_tileset("rummikub").face_values(13)["joker"] is None


def test_format_and_parse_round_trip():
    for name in builtin_tilesets():
        tileset = load_tileset(name)
        assert parse_tileset(format_tileset(tileset), Path(f"{name}.toml")) == tileset


def test_profile_file_by_path_and_errors_name_the_file(tmp_path):
    good = tmp_path / "mine.toml"
    good.write_text('name = "mine"\nfaces = ["1", "2", "#"]\nwild_faces = ["#"]\nshape = "pentagon"\n'
                    '[counts]\n"1" = 3\n', encoding="utf-8")
    mine = load_tileset(good)
    assert mine.faces == ("1", "2", "#") and mine.count("1") == 3 and mine.count("2") == 0
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\nfaces = ["1", "twenty"]\n', encoding="utf-8")
    with pytest.raises(TileSetError, match=r"bad\.toml.*unknown faces \['twenty'\]"):
        load_tileset(bad)
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "x"\nfaces = [\n', encoding="utf-8")
    with pytest.raises(TileSetError, match=r"broken\.toml: not valid TOML"):
        load_tileset(broken)
    missing = tmp_path / "missing.toml"
    missing.write_text('name = "x"\n', encoding="utf-8")
    with pytest.raises(TileSetError, match=r"missing\.toml: missing key 'faces'"):
        load_tileset(missing)
    with pytest.raises(TileSetError, match="unknown tile set 'nosuchset'"):
        load_tileset("nosuchset")
