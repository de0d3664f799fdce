"""``tilescribe simulate TRANSCRIPT --board board.json --out DIR``: a simulated camera recording.

Renders the game of a transcript on the printed board (board.json from ``tilescribe board print``)
as camera frames with hands, light, perspective, blur, noise and JPEG (vision.sim.recording), and
writes DIR/000000.jpg ..., DIR/frames.json and DIR/events.jsonl. Exit status: 0 done, 2 when the
transcript or board cannot be read or a turn cannot be shown (each problem printed on standard
error naming the file and line, ``FILE:LINE:COLUMN: message`` for transcript syntax).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vision.sim.options import SHAPES, SPLITS, TILESETS


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``simulate`` sub-command."""
    parser = subparsers.add_parser(
        "simulate",
        help="render a simulated camera recording of a transcript",
        description="Render camera frames of the printed board with the tiles of a transcript, "
        "hands and arms, light, perspective, blur, noise and JPEG; write frames, frames.json "
        "(true cells per frame) and events.jsonl (end-of-turn moments). Deterministic per --seed.",
    )
    parser.add_argument("transcript", type=Path, help="the transcript file")
    parser.add_argument("--board", type=Path, required=True, help="board.json of the printed board")
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fps", type=float, default=10.0)
    parser.add_argument("--size", default="1280x960", help="image WIDTHxHEIGHT (default 1280x960)")
    parser.add_argument("--styles", choices=SPLITS, default="train", help="tile styles: train or held_out")
    parser.add_argument(
        "--shapes", default="pentagon", help=f"comma-separated tile shapes from {', '.join(SHAPES)}"
    )
    parser.add_argument("--tileset", choices=TILESETS, default="modlinseq", help="faces printed on tiles")
    parser.add_argument("--per-tile-styles", action="store_true", help="a new style for every tile")
    parser.add_argument("--any-rotation", action="store_true", help="tiles at any angle")
    parser.add_argument("--no-hands", action="store_true", help="no hands: tiles just appear")
    parser.add_argument("--pauses", type=float, default=0.0, help="chance of a mid-turn pause per turn")
    parser.add_argument("--bumps", type=int, default=0, help="times the sheet is knocked")
    parser.add_argument("--light-jumps", type=int, default=0, help="sudden changes of light")
    parser.add_argument("--quality", type=int, default=90, help="JPEG quality")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError as exc:
        raise ValueError(f"--size {text!r}: expected WIDTHxHEIGHT, e.g. 1280x960") from exc
    return (w, h)


def run(args: argparse.Namespace) -> int:
    """Write the recording; see the module docstring for the exit status."""
    from calibration.geometry import BoardFileError
    from engine.transcript import parse_transcript
    from vision.sim.recording import SimOptions, make_recording
    from vision.sim.timeline import Pacing
    from vision.sim.transcripts import plan_game

    try:
        text = args.transcript.read_text(encoding="utf-8")
    except OSError as exc:
        print(f"{args.transcript}: cannot read transcript ({exc.strerror})", file=sys.stderr)
        return 2
    transcript, errors = parse_transcript(text)
    for e in errors:
        print(f"{args.transcript}:{e.line}:{e.column}: {e.message}", file=sys.stderr)
    if errors:
        return 2
    try:
        plan = plan_game(transcript, args.tileset)
        shapes = tuple(s.strip() for s in args.shapes.split(",") if s.strip())
        if args.tileset == "rummikub" and args.shapes == "pentagon":
            shapes = ("photo",)
        options = SimOptions(
            seed=args.seed,
            size=_size(args.size),
            fps=args.fps,
            players=plan.players,
            hands=not args.no_hands,
            pacing=Pacing(pause_chance=args.pauses),
            split=args.styles,
            shapes=shapes,
            per_tile_styles=args.per_tile_styles,
            any_rotation=args.any_rotation,
            bumps=args.bumps,
            light_jumps=args.light_jumps,
            jpeg_quality=args.quality,
            modulus=transcript.settings.modulus,
        )
        info = make_recording(
            plan.turns, args.board, args.out, options, initial=plan.initial, progress=not args.quiet
        )
    except BoardFileError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"{args.transcript}: {exc}", file=sys.stderr)
        return 2
    print(f"{info.out_dir}: {info.frames} frames, {info.turn_ends} turns, {info.duration:.1f} s")
    return 0
