"""Input files read as UTF-8, and paths named by files kept inside their folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from calibration.files import InputFileError, inside, read_text


def test_read_text_names_the_file_and_the_bad_byte(tmp_path: Path) -> None:
    path = tmp_path / "board.json"
    path.write_bytes(b'{"name": "caf\xe9"}')
    with pytest.raises(InputFileError, match=rf"{path}: not UTF-8 text \(byte 0xe9 at offset 13\)"):
        read_text(path)
    with pytest.raises(InputFileError, match=rf"{tmp_path / 'none'}: cannot read \(No such file"):
        read_text(tmp_path / "none")
    with pytest.raises(InputFileError, match="Is a directory"):
        read_text(tmp_path)


@pytest.mark.parametrize(
    "name", ["../../../../etc/passwd", "/etc/passwd", "a/../../x", "link/passwd", "", "a\nb", "link"]
)
def test_paths_leading_outside_their_folder_are_refused(tmp_path: Path, name: str) -> None:
    (tmp_path / "link").symlink_to("/etc")
    with pytest.raises(InputFileError, match="frames.json"):
        inside(tmp_path, name, "frames.json: 'file'")


def test_paths_inside_their_folder_are_kept(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "inner").symlink_to(tmp_path / "sub")
    assert inside(tmp_path, "sub/../000001.jpg", "x") == tmp_path / "sub/../000001.jpg"
    assert inside(tmp_path, "inner/a.jpg", "x") == tmp_path / "inner/a.jpg"
