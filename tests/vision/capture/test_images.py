"""Image files read whole: truncated, corrupt, forged or oversized images are refused by name."""

from __future__ import annotations

import os
import struct
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from vision.capture.images import MAX_PIXELS, ImageError, load_image


@pytest.fixture(scope="module")
def picture() -> np.ndarray:
    return (np.random.default_rng(3).random((60, 80, 3)) * 255).astype(np.uint8)


@pytest.mark.parametrize("ext", [".jpg", ".png"])
def test_a_whole_image_reads_as_imread_reads_it(tmp_path: Path, picture: np.ndarray, ext: str) -> None:
    path = tmp_path / f"photo{ext}"
    cv2.imwrite(str(path), picture)
    assert np.array_equal(load_image(path), cv2.imread(str(path)))


def test_exif_orientation_is_applied_like_imread(tmp_path: Path, picture: np.ndarray) -> None:
    path = tmp_path / "turned.jpg"
    exif = Image.new("RGB", (1, 1)).getexif()
    exif[0x0112] = 6  # rotate 90 degrees
    Image.fromarray(picture[:, :, ::-1]).save(path, exif=exif)
    image = load_image(path)
    assert image.shape == (80, 60, 3) and np.array_equal(image, cv2.imread(str(path)))


@pytest.mark.parametrize(("ext", "message"), [(".jpg", "truncated JPEG"), (".png", "truncated PNG")])
def test_a_truncated_image_is_refused(tmp_path: Path, picture: np.ndarray, ext: str, message: str) -> None:
    data = cv2.imencode(ext, picture)[1].tobytes()
    path = tmp_path / f"cut{ext}"
    path.write_bytes(data[:-1])
    with pytest.raises(ImageError, match=f"{path}: {message}"):
        load_image(path)
    assert cv2.imread(str(path)) is not None or ext == ".png"  # what OpenCV alone would have accepted


@pytest.mark.parametrize(
    ("damage", "warning"),
    [
        (lambda d, s: d[: s + 40] + bytes(160) + d[s + 200 :], "extraneous bytes"),
        (lambda d, s: d[: s + 300] + d[-2:], "premature end of data segment"),
    ],
    ids=["zeros inside", "middle cut out"],
)
def test_a_jpeg_damaged_inside_is_refused(tmp_path: Path, picture: np.ndarray, damage, warning: str) -> None:
    data = cv2.imencode(".jpg", picture)[1].tobytes()
    path = tmp_path / "damaged.jpg"
    path.write_bytes(damage(data, data.rfind(b"\xff\xda")))
    assert cv2.imread(str(path)) is not None  # OpenCV alone returns a picture
    with pytest.raises(ImageError, match=f"{path}: corrupt image .*{warning}"):
        load_image(path)


def test_a_forged_size_is_refused_before_decoding(tmp_path: Path) -> None:
    png = cv2.imencode(".png", np.zeros((4, 4, 3), np.uint8))[1].tobytes()
    ihdr = b"IHDR" + struct.pack(">II", 9_000, 9_000) + png[24:29]
    path = tmp_path / "huge.png"
    path.write_bytes(png[:12] + ihdr + struct.pack(">I", zlib.crc32(ihdr)) + png[33:])
    with pytest.raises(ImageError, match=f"9000x9000 pixels, more than the {MAX_PIXELS}"):
        load_image(path)


@pytest.mark.parametrize("content", [b"", b"GIF89a...", b"\xff\xd8\xff\xe0 short"])
def test_other_files_are_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "x.jpg"
    path.write_bytes(content)
    with pytest.raises(ImageError, match=str(path)):
        load_image(path)


def test_threads_reading_at_once_each_get_their_own_verdict(tmp_path: Path, picture: np.ndarray) -> None:
    data = cv2.imencode(".jpg", picture)[1].tobytes()
    start = data.rfind(b"\xff\xda")
    good, bad = tmp_path / "good.jpg", tmp_path / "bad.jpg"
    good.write_bytes(data)
    bad.write_bytes(data[: start + 40] + bytes(160) + data[start + 200 :])
    stderr_before = os.fstat(2)

    def verdict(path: Path) -> bool:
        try:
            load_image(path)
        except ImageError:
            return False
        return True

    with ThreadPoolExecutor(8) as pool:
        verdicts = list(pool.map(verdict, [good, bad] * 100))
    assert verdicts == [True, False] * 100
    after = os.fstat(2)  # standard error points where it did
    assert (after.st_dev, after.st_ino) == (stderr_before.st_dev, stderr_before.st_ino)
