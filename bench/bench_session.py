"""Benchmark of the table session: frames per second on one core, and still-to-shown delay.

Runs the whole session loop (observer -> table -> kiosk at 800x480 with the dummy video driver ->
journal) over a 1280x960 recording, pinned to one CPU core with OpenCV single-threaded and glibc
keeping freed memory as the application does (tilescribe/allocator.py), and prints:

- fps: frames processed per second of wall time (median per-frame time -> fps; and overall);
- still-to-shown delay per change of the board: from the first frame of a still spell (the truth in
  frames.json: no hand, cells unchanged from then on until the next hand) to the moment the kiosk
  shows those cells, in stream time plus the processing time of the frame that showed them.

Targets: >= 15 fps; <= 1 s delay.

With ``--game yushino|superwild|holominoes``, whole games of that game instead: ``--count`` seeded
random games of two players (Super Wild's chosen among those that rearrange the table), each
recorded by the game's scene simulator where it is installed (else from its true layouts,
tilescribe.layout_recording) and played through the session; prints per game and in all the turns
recorded right (the table after the turn and its points equal the truth's), the phantom turns (a
lay where the truth laid nothing, or turns beyond the truth's) and the final scores.
Targets: turns recorded right 100%, phantom turns 0.

    .venv/bin/python bench/bench_session.py                     # the demo recording (made if missing)
    .venv/bin/python bench/bench_session.py --recording DIR --truth
    .venv/bin/python bench/bench_session.py --game superwild --truth --count 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from display.replay import transcript_prefix
from engine.games import TableRules
from tilescribe.allocator import keep_freed_memory
from tilescribe.options import int_in
from tilescribe.paths import cache_dir
from tilescribe.progress import add_quiet_option, progress
from vision.capture.sources import Recording


def _still_spells(recording: Recording) -> list[tuple[int, dict[str, str]]]:
    """(first frame index, cells) of each still spell whose cells differ from the previous spell's."""
    spells, previous, start = [], None, None
    frames = recording.frames
    for i, frame in enumerate(frames):
        quiet = not frame.hand and (i == 0 or frames[i - 1].cells == frame.cells)
        if not quiet:
            start = None
            continue
        if start is None:
            start = i
            if frame.cells != previous:
                spells.append((i, dict(frame.cells)))
                previous = frame.cells
    return spells


def _game_seeds(rules: TableRules, count: int, turns: int) -> list[int]:
    """The first ``count`` seeds from 1 whose random game suits the benchmark: any for Yushino and
    Holominoes; for Super Wild one that moves a tile on the table (a rearrangement)."""
    seeds: list[int] = []
    seed = 0
    while len(seeds) < count:
        seed += 1
        if rules.name != "Super Wild" or ">" in rules.random_transcript(seed, 2, turns):
            seeds.append(seed)
    return seeds


def _turns_right(rules: TableRules, truth: str, written: str) -> tuple[int, int, int]:
    """(turns recorded right, phantom turns, true turns) of a written transcript against the truth."""
    true_turns, got = rules.replay_text(truth).turns, rules.replay_text(written).turns
    right = phantom = 0
    for k, turn in enumerate(got, start=1):
        if k > len(true_turns):
            phantom += 1
            continue
        same = (rules.layout(transcript_prefix(written, k)) == rules.layout(transcript_prefix(truth, k))
                and turn.score == true_turns[k - 1].score and turn.legal)
        right += same
        laid = rules.layout(transcript_prefix(written, k)) != rules.layout(transcript_prefix(written, k - 1))
        truly = rules.layout(transcript_prefix(truth, k)) != rules.layout(transcript_prefix(truth, k - 1))
        phantom += laid and not truly
    return right, phantom, len(true_turns)


def bench_game(game: str, count: int, turns: int, truth: bool, work: Path) -> int:
    """Whole games of ``game`` through the session (module docstring); the exit status."""
    from engine.games import rules_for
    from tilescribe.commands.run import observer_for
    from tilescribe.demo import game_renderer
    from tilescribe.game_table import GameTable
    from tilescribe.journal import Journal
    from tilescribe.layout_recording import write_layout_recording
    from tilescribe.observe import Observer, TruthObserver
    from tilescribe.session import Session
    from tilescribe.settings import TableSettings
    from vision.capture.sources import RecordingSource

    rules: TableRules = rules_for(game)  # type: ignore[assignment]
    render = game_renderer(rules.name)
    total = [0, 0, 0]
    for seed in _game_seeds(rules, count, turns):
        text = rules.random_transcript(seed, 2, turns)
        out = work / f"{rules.name.replace(' ', '')}-{seed}"
        folder = render(text, out, seed) if render is not None else write_layout_recording(rules, text, out)
        settings = TableSettings.of_transcript(text)
        source = RecordingSource(folder)
        table = GameTable(settings)
        observer: Observer | None = TruthObserver(source.recording, settings.still_seconds)
        if not truth:  # the game's camera observer, as tilescribe run picks it
            observer = observer_for(rules.name, source, settings, None)
        assert observer is not None  # a layout-read game's
        with Journal.create(work / "games", settings) as journal, source:
            result = Session(source, observer, table, journal).run()
        written = result.transcript.read_text(encoding="utf-8")
        right, phantom, n = _turns_right(rules, text, written)
        total = [total[0] + right, total[1] + phantom, total[2] + n]
        kind = "rendered" if render is not None else "true layouts"
        true_scores = dict(rules.replay_text(text).scores)
        read = "truth read" if truth else "read by the camera reader"
        print(f"{rules.name} seed {seed} ({kind}, {read}): {right}/{n} turns recorded right, "
              f"{phantom} phantom; scores {dict(result.scores)} (true {true_scores})")
    print(f"{rules.name}: {count} games, turns recorded right {total[0]}/{total[2]} "
          f"({100 * total[0] / max(total[2], 1):.1f}%), phantom turns {total[1]}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--recording", type=Path, help="a recording folder (default: the demo recording)")
    parser.add_argument("--cache", type=Path, default=cache_dir())
    parser.add_argument("--truth", action="store_true", help="read the recording's truth (no vision)")
    parser.add_argument("--game", choices=["yushino", "superwild", "holominoes"],
                        help="whole games of this game instead (module docstring)")
    parser.add_argument("--count", type=int_in(3, 100), default=3, help="games to play with --game (3)")
    parser.add_argument("--turns", type=int_in(1, 200), default=14, help="turns per game with --game (14)")
    add_quiet_option(parser)
    args = parser.parse_args(argv)
    keep_freed_memory()
    if args.game is not None:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        with tempfile.TemporaryDirectory() as tmp:
            return bench_game(args.game, args.count, args.turns, args.truth, Path(tmp))

    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    import cv2

    cv2.setNumThreads(1)

    from display.kiosk import Kiosk
    from engine.hexgrid import format_address
    from tilescribe.demo import demo_recording, recording_settings
    from tilescribe.faces import FaceMap
    from tilescribe.journal import Journal
    from tilescribe.observe import Observer, TruthObserver
    from tilescribe.session import Session
    from tilescribe.table import Table
    from vision.capture.sources import Frame, RecordingSource

    folder = args.recording or demo_recording(args.cache)
    source = RecordingSource(folder)
    settings = recording_settings(folder)
    if settings is None:
        print(f"{folder}: no settings in frames.json (record it with tilescribe.demo)", file=sys.stderr)
        return 2
    table = Table(settings)
    observer: Observer
    if args.truth:
        observer = TruthObserver(source.recording, settings.still_seconds)
    else:
        from tilescribe.vision_observer import VisionObserver

        board = source.recording.board
        if board is None:
            print(f"{folder}: frames.json names no board", file=sys.stderr)
            return 2
        faces = FaceMap(settings.tileset, settings.game.modulus)
        observer = VisionObserver(board, faces, settings.still_seconds, table.game.legal_values)

    spells = _still_spells(source.recording)
    pending = list(spells)
    delays: list[float] = []
    waits: list[float] = []  # the stream-time part of each delay (the settle time and the frame rate)
    per_frame: list[float] = []
    last = [time.perf_counter()]

    bar = progress(total=len(source.recording.frames), unit="frame", quiet=args.quiet)

    def on_frame(frame: Frame) -> None:
        bar.update()
        now = time.perf_counter()
        per_frame.append(now - last[0])
        view = table.view()
        shown = {format_address(c) for c in {**view.tiles, **view.provisional, **view.restore}}
        while pending and pending[0][0] <= frame.index:
            start, cells = pending[0]
            if set(shown) == set(cells):
                t_still = source.recording.frames[start].t
                delays.append(frame.t - t_still + per_frame[-1])
                waits.append(frame.t - t_still)
                pending.pop(0)
            elif len(pending) > 1 and pending[1][0] <= frame.index:
                pending.pop(0)  # superseded before it was shown: counted as missed
            else:
                break
        last[0] = time.perf_counter()

    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal.create(Path(tmp), settings)
        kiosk = Kiosk((800, 480), sound=False)
        wall = time.perf_counter()
        with kiosk, source:
            result = Session(source, observer, table, journal, kiosk, on_frame=on_frame).run()
        wall = time.perf_counter() - wall
    bar.close()

    frame_ms = sorted(1000 * t for t in per_frame)
    first = next(iter(RecordingSource(folder)))
    height, width = first.image.shape[:2]
    mode = "truth, no vision" if args.truth else "vision"
    print(f"recording: {folder} ({mode}), {result.frames} frames of {width}x{height}")
    print(f"frames per second (one core): {1000 / statistics.median(frame_ms):.1f} from the median "
          f"{statistics.median(frame_ms):.1f} ms/frame (p90 {frame_ms[int(0.9 * len(frame_ms))]:.1f} ms); "
          f"overall {result.frames / wall:.1f} fps")
    if delays:
        print(f"still-to-shown delay: median {statistics.median(delays):.2f} s, max {max(delays):.2f} s "
              f"over {len(delays)} of {len(spells)} board changes (of which waiting for the still "
              f"frames: median {statistics.median(waits):.2f} s, max {max(waits):.2f} s; the rest is "
              f"processing)")
    else:
        print(f"still-to-shown delay: no board change was shown ({len(spells)} changes)")
    print(f"turns committed: {result.turns}; scores: {result.scores}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
