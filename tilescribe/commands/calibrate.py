"""``tilescribe calibrate --board board.json [--source SPEC | IMAGE...] --out FILE``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``calibrate`` to the CLI."""
    p = subparsers.add_parser("calibrate", help="check the camera's view of the empty board and learn it")
    p.add_argument("images", nargs="*", help="images of the empty board (instead of --source)")
    p.add_argument("--board", required=True, help="board.json written by 'tilescribe board print'")
    p.add_argument("--source", help="frame source: 'pi', a camera index, a URL, a video file or a recording")
    p.add_argument("--frames", type=int, default=10, help="frames to take from --source (default 10)")
    p.add_argument("--out", required=True, help="calibration file to write (.npz)")
    p.set_defaults(func=run)


def frames_from(args: argparse.Namespace) -> Iterator[tuple[str, np.ndarray]]:
    """(name, BGR image) pairs from the image arguments or the source.

    Raises:
        CalibrationError: an image cannot be read; neither images nor a source given.
    """
    import cv2

    from calibration.board_calibration import CalibrationError

    if args.images:
        for path in args.images:
            image = cv2.imread(path)
            if image is None:
                raise CalibrationError(f"cannot read image {path!r}")
            yield path, image
        return
    if not args.source:
        raise CalibrationError("give images of the empty board or --source")
    from vision.sources import open_source

    with open_source(args.source) as source:
        for frame in source:
            if frame.index >= args.frames:
                break
            yield f"{args.source} frame {frame.index}", frame.image


def run(args: argparse.Namespace) -> int:
    """Calibrate and save; 0 on success, 1 when calibration fails, 2 for bad input."""
    from calibration.board_calibration import CalibrationError
    from calibration.geometry import BoardFileError, BoardGeometry
    from vision.locate_calibrate import calibrate

    try:
        geometry = BoardGeometry.load(args.board)
    except BoardFileError as exc:
        print(f"tilescribe calibrate: {exc}", file=sys.stderr)
        return 2
    try:
        result = calibrate(geometry, frames_from(args))
    except CalibrationError as exc:
        print(f"tilescribe calibrate: {exc}", file=sys.stderr)
        return 1
    result.save(args.out)
    print(f"calibrated from {result.frames} frames: markers {list(result.markers_seen)} seen, "
          f"reprojection error {result.reprojection_error:.2f} px, all {result.board_cells} cells in view")
    for finding in result.findings:
        print(f"warning: {finding}")
    print(f"wrote {args.out}")
    return 0
