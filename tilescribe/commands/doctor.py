"""``tilescribe doctor``: check the camera, the display, fonts, tesseract, the shipped models, the
games folder and the settings file; one line per check (OK, WARN or FAIL, and what to fix).

Exit status: 0 when nothing failed (warnings allowed), 1 when a check failed.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tilescribe.paths import games_dir, settings_file


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``doctor`` sub-command."""
    p = subparsers.add_parser(
        "doctor",
        help="check camera, display, fonts, tesseract, models, games folder",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--settings", type=Path, help=f"settings file to check (default {settings_file()})")
    p.add_argument("--games", type=Path, default=games_dir(), help=f"games folder (default {games_dir()})")
    p.add_argument("--source", help="frame source to open (default: the Pi camera, else the first webcam)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print every check; 1 when one failed, else 0."""
    from tilescribe.doctor import run_checks

    settings = args.settings or settings_file()
    checks = run_checks(settings, args.settings is not None, args.games.expanduser(), args.source)
    for check in checks:
        print(check.format(), flush=True)
    failed = [c.name for c in checks if c.status == "FAIL"]
    warned = sum(c.status == "WARN" for c in checks)
    if failed:
        print(f"{len(failed)} failed ({', '.join(failed)}), {warned} warning(s)")
        return 1
    print(f"all {len(checks)} checks passed" + (f", {warned} with a warning" if warned else ""))
    return 0
