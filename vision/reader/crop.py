"""The reader's input: how a tile is cut from an image, the same at the table and in training.

A tile crop is an axis-aligned square of the image centred on the tile (the whole tile, at any
rotation, with a little of what lies around it), resampled to ``INPUT_PX`` x ``INPUT_PX``. Its side
is ``CROP_SCALE`` times the tile's *size*: the diameter of the circle through the tile's corners,
in image pixels. The reader's up network finds which way is up from what the crop shows (a
pentagon's apex, Yushino's underline, where the number sits on a Rummikub tile) and
:func:`upright` turns the crop so before the face is read. A Holominoes tile is read corner by
corner: the crop is centred on one numbered corner's digit and its size is the tile's radius.

The same function cuts crops for training (bench/train_reader.py, vision/sim/) and at the table
(vision/board/, vision/table/), so the model sees at run time what it was trained on.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

#: Side in pixels of a tile crop, the reader's input.
INPUT_PX = 64
#: Side of the up network's view of a crop (:func:`up_view`).
UP_PX = 32
#: Side of the face network's view (:func:`face_view`): the central FACE_WINDOW of the crop turned
#: upright, at the crop's own resolution (64 x 0.75 = 48 px). The window holds a pentagon's or a
#: rectangle's print with room for a finder's error of 8 % of the size; the print of a real Rummikub
#: tile 100 px tall is then about 17 px tall (10 px in the 40 px whole-tile crop read before).
FACE_PX = 48
FACE_WINDOW = 0.75

#: Crop side over the tile's size: the whole tile and a thin ring of its surroundings.
CROP_SCALE = 1.1


def tile_crop(image: np.ndarray, centre: Sequence[float], size: float) -> np.ndarray:
    """Cut one tile crop.

    Args:
        image: BGR uint8, H x W x 3.
        centre: (x, y) of the tile's centre in image pixels.
        size: the tile's size (diameter of its circumscribed circle) in image pixels, > 0.

    Returns:
        BGR uint8 [INPUT_PX, INPUT_PX, 3]; parts outside the image are the nearest edge pixels
        (replicated border).

    Raises:
        ValueError: ``size`` is not positive or ``image`` is not BGR uint8.
    """
    if size <= 0:
        raise ValueError(f"tile size must be positive, got {size!r}")
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"expected a BGR uint8 H x W x 3 image, got {image.dtype} {image.shape}")
    side = CROP_SCALE * float(size)
    scale = INPUT_PX / side
    cx, cy = float(centre[0]), float(centre[1])
    # output pixel u looks at image x = cx - side / 2 + (u + 0.5) / scale - 0.5 (pixel centres)
    matrix = np.array([[scale, 0.0, (side / 2 - cx + 0.5) * scale - 0.5],
                       [0.0, scale, (side / 2 - cy + 0.5) * scale - 0.5]], np.float64)
    if scale < 0.5:  # warpAffine samples points: blur a large tile first so that its strokes do not alias
        sigma = 0.3 / scale
        x0, y0 = int(max(cx - side, 0)), int(max(cy - side, 0))
        x1, y1 = int(min(cx + side + 1, image.shape[1])), int(min(cy + side + 1, image.shape[0]))
        if x1 > x0 and y1 > y0:
            region = cv2.GaussianBlur(image[y0:y1, x0:x1], (0, 0), sigma)
            matrix[0, 2] += x0 * scale
            matrix[1, 2] += y0 * scale
            image = region
    return cv2.warpAffine(image, matrix, (INPUT_PX, INPUT_PX), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def tile_crops(image: np.ndarray, centres: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Cut the crops of many tiles of one image.

    Args:
        image: BGR uint8, H x W x 3.
        centres: float [n, 2], (x, y) image pixels.
        sizes: float [n], image pixels.

    Returns:
        BGR uint8 [n, INPUT_PX, INPUT_PX, 3].
    """
    out = np.empty((len(centres), INPUT_PX, INPUT_PX, 3), np.uint8)
    for i, (c, s) in enumerate(zip(centres, sizes, strict=True)):
        out[i] = tile_crop(image, c, float(s))
    return out


def up_view(crops: np.ndarray) -> np.ndarray:
    """What the up network reads: each crop shrunk to UP_PX x UP_PX (area averaging; finding the up
    from a tile's shape and print needs no more detail).

    Args:
        crops: BGR uint8 [n, INPUT_PX, INPUT_PX, 3].

    Returns:
        BGR uint8 [n, UP_PX, UP_PX, 3].
    """
    out = np.empty((len(crops), UP_PX, UP_PX, 3), np.uint8)
    for i, crop in enumerate(crops):
        out[i] = cv2.resize(crop, (UP_PX, UP_PX), interpolation=cv2.INTER_AREA)
    return out


def face_view(crops: np.ndarray, ups_deg: np.ndarray) -> np.ndarray:
    """What the face network reads: each crop turned about its centre so that its print stands
    upright, and its central FACE_WINDOW share cut at FACE_PX x FACE_PX (the crop's own pixels; the
    print lies within it whatever the tile's shape).

    Args:
        crops: BGR uint8 [n, INPUT_PX, INPUT_PX, 3].
        ups_deg: float [n], which way each crop's print points: degrees counter-clockwise as seen
            from upright (what vision.reader.model.UpFinder.ups finds).

    Returns:
        BGR uint8 [n, FACE_PX, FACE_PX, 3]; corners turned in from outside the crop are its
        nearest edge pixels (replicated border).
    """
    out = np.empty((len(crops), FACE_PX, FACE_PX, 3), np.uint8)
    centre = ((INPUT_PX - 1) / 2, (INPUT_PX - 1) / 2)
    scale = FACE_PX / (FACE_WINDOW * INPUT_PX)
    offset = (FACE_PX - INPUT_PX) / 2  # the crop's centre onto the view's
    for i, (crop, up) in enumerate(zip(crops, ups_deg, strict=True)):
        matrix = np.asarray(cv2.getRotationMatrix2D(centre, -float(up), scale), np.float64)
        matrix[:, 2] += offset
        out[i] = cv2.warpAffine(crop, matrix, (FACE_PX, FACE_PX), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    return out
