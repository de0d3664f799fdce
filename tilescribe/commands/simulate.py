"""``tilescribe simulate TRANSCRIPT --board board.json --out DIR``: a simulated camera recording.

Renders the game of a transcript on the printed board (board.json from ``tilescribe board print``)
as camera frames with hands, light, perspective, blur, noise and JPEG (vision.sim.recording), and
writes DIR/000000.jpg ..., DIR/frames.json and DIR/events.jsonl. Exit status: 0 done, 2 when the
transcript or board cannot be read or a turn cannot be shown (each problem printed on standard
error naming the file and line, ``FILE:LINE:COLUMN: message`` for transcript syntax).
``--game yushino`` renders a Yushino transcript on the square board (``--board`` optional: the
default sheet of ``tilescribe board print --game yushino``) with Yushino's tiles.
``--game superwild|holominoes`` renders the transcript on the bare table, no board
(vision.sim.table_recording; 960x720 at 6 frames a second unless ``--size``/``--fps`` say otherwise).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.errors import TranscriptError
from engine.games import TABLE_GAMES
from tilescribe.commands.board import BOARD_GAMES, game_among
from tilescribe.options import MAX_SEED, MAX_SIM_EVENTS, SIM_FPS, SIM_SIDE, float_in, int_in, size_in
from vision.sim.options import SHAPES, SPLITS, TILESETS


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``simulate`` sub-command."""
    parser = subparsers.add_parser(
        "simulate",
        help="render a simulated camera recording of a transcript",
        description="Render camera frames of the printed board (Super Wild and Holominoes: the bare "
        "table) with the tiles of a transcript, hands and arms, light, perspective, blur, noise and "
        "JPEG; write frames, frames.json (true cells or layout per frame) and events.jsonl "
        "(end-of-turn moments). Deterministic per --seed.",
    )
    parser.add_argument("transcript", type=Path, help="the transcript file")
    parser.add_argument("--game", type=game_among(BOARD_GAMES + TABLE_GAMES, "simulation"),
                        default="MODLINSEQ",
                        help="the transcript's game: MODLINSEQ (default), Yushino, Super Wild or Holominoes")
    parser.add_argument("--board", type=Path, help="board.json of the printed board (needed for MODLINSEQ; "
                                                   "Yushino: the default square board when left out)")
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--seed", type=int_in(0, MAX_SEED), default=0, help=f"0 to {MAX_SEED}")
    parser.add_argument("--fps", type=float_in(*SIM_FPS),
                        help=f"frames per second (default 10, table games 6; "
                             f"{SIM_FPS[0]:g} to {SIM_FPS[1]:g})")
    parser.add_argument("--size", type=size_in(*SIM_SIDE),
                        help=f"image WIDTHxHEIGHT (default 1280x960, table games 960x720; "
                             f"sides {SIM_SIDE[0]} to {SIM_SIDE[1]})")
    parser.add_argument("--styles", choices=SPLITS, default="train", help="tile styles: train or held_out")
    parser.add_argument(
        "--shapes", default="pentagon", help=f"MODLINSEQ's tile shapes, comma-separated: {', '.join(SHAPES)}"
    )
    parser.add_argument("--tileset", choices=TILESETS, default="modlinseq",
                        help="faces printed on MODLINSEQ's tiles")
    parser.add_argument("--per-tile-styles", action="store_true", help="a new style for every tile")
    parser.add_argument("--any-rotation", action="store_true", help="tiles at any angle")
    parser.add_argument("--no-hands", action="store_true", help="no hands: tiles just appear")
    parser.add_argument("--pauses", type=float_in(0.0, 1.0), default=0.0,
                        help="chance of a mid-turn pause per turn (0 to 1)")
    parser.add_argument("--bumps", type=int_in(0, MAX_SIM_EVENTS), default=0,
                        help="times the sheet is knocked")
    parser.add_argument("--light-jumps", type=int_in(0, MAX_SIM_EVENTS), default=0,
                        help="sudden changes of light")
    parser.add_argument("--quality", type=int_in(1, 100), default=90, help="JPEG quality (1 to 100)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Write the recording; see the module docstring for the exit status."""
    from calibration.files import InputFileError, read_text
    from calibration.geometry import BoardFileError
    from calibration.square_board import SquareSpec, design_square_board
    from engine.transcript import parse_transcript
    from engine.yushino.transcript import parse_transcript as parse_yushino
    from vision.sim.recording import SimOptions, make_recording
    from vision.sim.timeline import Pacing
    from vision.sim.transcripts import plan_game, plan_yushino

    if args.game in TABLE_GAMES:
        return _table(args)
    args.fps = 10.0 if args.fps is None else args.fps
    args.size = (1280, 960) if args.size is None else args.size
    try:
        text = read_text(args.transcript)
        if args.game == "MODLINSEQ" and args.board is None:
            raise ValueError("MODLINSEQ needs --board")
        if args.game == "Yushino" and args.tileset != "modlinseq":
            raise ValueError("--tileset: not for Yushino (MODLINSEQ's tile sets)")
    except (InputFileError, ValueError) as exc:
        print(f"tilescribe simulate: {exc}", file=sys.stderr)
        return 2
    transcript = _parsed(args.transcript, text, parse_yushino if args.game == "Yushino" else parse_transcript)
    if transcript is None:
        return 2
    try:
        if args.game == "Yushino":
            plan, modulus = plan_yushino(transcript), SimOptions().modulus  # no modulus marker in Yushino
        else:
            plan, modulus = plan_game(transcript, args.tileset), transcript.settings.modulus
        shapes = tuple(s.strip() for s in args.shapes.split(",") if s.strip())
        if args.tileset == "rummikub" and args.shapes == "pentagon":
            shapes = ("photo",)
        options = SimOptions(
            seed=args.seed,
            size=args.size,
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
            modulus=modulus,
            game=args.game.lower(),
        )
        board = design_square_board(SquareSpec()) if args.board is None else args.board
        info = make_recording(plan.turns, board, args.out, options, initial=plan.initial,
                              progress=not args.quiet, transcript=text if args.game == "Yushino" else None)
    except BoardFileError as exc:
        print(f"tilescribe simulate: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"tilescribe simulate: {args.transcript}: {exc}", file=sys.stderr)
        return 2
    print(f"{info.out_dir}: {info.frames} frames, {info.turn_ends} turns, {info.duration:.1f} s")
    return 0


#: Options of the printed board's recordings that a bare table has not: (attribute, default, flag).
_BOARD_ONLY = (
    ("board", None, "--board"), ("shapes", "pentagon", "--shapes"), ("tileset", "modlinseq", "--tileset"),
    ("per_tile_styles", False, "--per-tile-styles"), ("any_rotation", False, "--any-rotation"),
    ("pauses", 0.0, "--pauses"), ("bumps", 0, "--bumps"), ("light_jumps", 0, "--light-jumps"),
)


def _table(args: argparse.Namespace) -> int:
    """A Super Wild or Holominoes recording on the bare table (vision.sim.table_recording)."""
    from calibration.files import InputFileError, read_text
    from engine.games import canonical_name
    from engine.record import game_tag
    from vision.sim.table_recording import record_table_game

    try:
        text = read_text(args.transcript)
        for name, default, flag in _BOARD_ONLY:
            if getattr(args, name) != default:
                raise ValueError(f"{flag}: not for {args.game} (no board on a bare table)")
    except (InputFileError, ValueError) as exc:
        print(f"tilescribe simulate: {exc}", file=sys.stderr)
        return 2
    try:
        named = canonical_name(game_tag(text))
        if named != args.game:
            raise ValueError(f"a {named} transcript, not {args.game}")
        out = record_table_game(text, args.out, args.seed, args.styles, progress=not args.quiet,
                                size=args.size or (960, 720), fps=args.fps or 6.0, hands=not args.no_hands,
                                jpeg_quality=args.quality)
    except TranscriptError as exc:
        where = f"{args.transcript}:{exc.line}:{exc.column}"
        print(f"tilescribe simulate: {where}: {exc.message}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"tilescribe simulate: {args.transcript}: {exc}", file=sys.stderr)
        return 2
    frames = sorted(out.glob("*.jpg"))
    turns = sum(1 for _ in (out / "events.jsonl").open(encoding="utf-8"))
    print(f"{out}: {len(frames)} frames, {turns} turns")
    return 0


def _parsed(path: Path, text: str, parse: Callable[[str], tuple[Any, list[TranscriptError]]]) -> Any:
    """The transcript read by ``parse``, or None after printing each error (``FILE:LINE:COLUMN: message``)."""
    try:
        transcript, errors = parse(text)
    except TranscriptError as exc:  # a header that cannot make a game
        transcript, errors = None, [exc]
    for e in errors:
        print(f"tilescribe simulate: {path}:{e.line}:{e.column}: {e.message}", file=sys.stderr)
    return None if errors else transcript
