"""``tilescribe calibrate --board board.json [--source SPEC | IMAGE...] --out FILE``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

from tilescribe.options import MAX_CALIBRATION_FRAMES, int_in, new_file, printable

if TYPE_CHECKING:
    import numpy as np


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``calibrate`` to the CLI."""
    p = subparsers.add_parser("calibrate", help="check the camera's view of the empty board and learn it")
    p.add_argument("images", nargs="*", help="images of the empty board (instead of --source)")
    p.add_argument("--board", required=True, help="board.json written by 'tilescribe board print'")
    p.add_argument("--source", type=printable,
                   help="frame source: 'pi', a camera index, a URL, a video file or a recording "
                        "(pi:WIDTHxHEIGHT or INDEX:WIDTHxHEIGHT: a camera's frame size)")
    p.add_argument("--frames", type=int_in(1, MAX_CALIBRATION_FRAMES),
                   help=f"frames to take from --source (default 10, at most {MAX_CALIBRATION_FRAMES})")
    p.add_argument("--out", required=True, type=new_file, help="calibration file to write (.npz)")
    p.set_defaults(func=run)


def frames_from(args: argparse.Namespace) -> Iterator[tuple[str, np.ndarray]]:
    """(name, BGR image) pairs from the image arguments or the source.

    Raises:
        vision.capture.images.ImageError: an image is missing, unreadable or truncated.
        vision.capture.sources.SourceError: the source cannot be opened or read.
    """
    from vision.capture.images import load_image
    from vision.capture.sources import open_source

    if args.images:
        for path in args.images:
            yield path, load_image(path)
        return
    frames = args.frames or 10
    with open_source(args.source) as source:
        for frame in source:
            if frame.index >= frames:
                break
            yield f"{args.source} frame {frame.index}", frame.image


def run(args: argparse.Namespace) -> int:
    """Calibrate and save; 0 on success, 1 when calibration fails.

    Raises:
        ValueError, OSError, vision.capture.sources.SourceError: bad input (tilescribe.cli reports it in
            one line, status 2): board.json, an image, the source, or ``--out`` not writable.
    """
    from calibration.board_calibration import CalibrationError
    from calibration.geometry import BoardGeometry
    from vision.board.locate_calibrate import calibrate

    if bool(args.images) == bool(args.source):
        raise CalibrationError("give either images of the empty board or --source, not both or neither")
    if args.images and args.frames is not None:
        raise CalibrationError(f"--frames {args.frames}: it counts frames of --source; images are all used")
    geometry = BoardGeometry.load(args.board)
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
