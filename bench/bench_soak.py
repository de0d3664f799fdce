"""Soak benchmark: a recorded game played through ``tilescribe run`` over and over in one process for a
given stretch of table time, its resident memory sampled; prints the growth after the warm-up.

Each loop is one whole ``tilescribe run`` (recovery of the games folder, a new game in its journal,
the session with the kiosk headless, the Result written) over the recording, its frames paced
``--speed`` times faster than recorded (time-compressed: 2 hours of table time in 2 minutes at
``--speed 60``; ``--speed 0`` as fast as frames are processed). The resident set size (RSS, from
/proc/self/statm) is sampled after every game; the warm-up is the first tenth of the stretch (at
least two games). Target: growth after warm-up < 5 MB.

    .venv/bin/python bench/bench_soak.py                     # 2 h of table time at --speed 60
    .venv/bin/python bench/bench_soak.py --minutes 10 --speed 0
    .venv/bin/python bench/bench_soak.py --recording DIR --vision   # read the frames, not the truth
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tilescribe.progress import add_quiet_option, progress  # noqa: E402 - after the path

MB = 1024 * 1024


def rss() -> int:
    """This process's resident set size, bytes."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hours", type=float, default=2.0, help="table time to play (default 2)")
    parser.add_argument("--minutes", type=float, help="table time in minutes instead (short runs)")
    parser.add_argument(
        "--speed",
        type=float,
        default=60.0,
        help="frames paced this many times faster than recorded (0: as fast as possible)",
    )
    parser.add_argument("--recording", type=Path, help="a recording folder (default: a small simulated game)")
    parser.add_argument("--vision", action="store_true", help="read the frames (default: the recorded truth)")
    add_quiet_option(parser)
    args = parser.parse_args(argv)
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    from tests.reliability.harness import small_recording
    from tilescribe.cli import main as tilescribe
    from vision.capture.sources import Recording

    stretch = 60.0 * (args.minutes if args.minutes is not None else 60.0 * args.hours)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        recording = args.recording or small_recording(root, hands=True)
        length = Recording.load(recording).frames[-1].t
        games = max(1, round(stretch / length))
        warm = max(2, games // 10)
        command = [
            "run",
            "--source",
            str(recording),
            "--headless",
            "--no-sound",
            "--games",
            str(root / "games"),
            "--resume",
            "no",
        ]
        command += [] if args.vision else ["--truth"]
        command += ["--speed", str(args.speed)] if args.speed > 0 else []
        print(
            f"{games} games of {length:.1f} s table time ({stretch / 60:.0f} min), "
            f"{'as fast as possible' if args.speed <= 0 else f'{args.speed:g}x faster than recorded'}"
        )
        samples, start = [], time.monotonic()
        for n in progress(range(games), quiet=args.quiet, desc="soak", unit="game"):
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                status = tilescribe(command)
            if status != 0:
                print(f"game {n + 1}: tilescribe run exited {status}")
                return 1
            samples.append(rss())
        wall = time.monotonic() - start
    after_warm = samples[warm - 1]
    growth = samples[-1] - after_warm
    print(
        f"wall {wall:.0f} s; RSS after game 1 {samples[0] / MB:.1f} MB, after warm-up (game {warm}) "
        f"{after_warm / MB:.1f} MB, at the end {samples[-1] / MB:.1f} MB, peak {max(samples) / MB:.1f} MB"
    )
    print(f"growth after warm-up: {growth / MB:+.2f} MB over {games - warm} games (target < 5 MB)")
    return 0 if growth < 5 * MB else 1


if __name__ == "__main__":
    sys.exit(main())
