"""Command-line value types: every option that sizes work is checked where argparse reads it.

Each factory returns an argparse ``type=`` callable; a bad value becomes argparse's one-line
``tilescribe CMD: argument --OPTION: 'VALUE' ...`` (see tilescribe.cli) naming the option, the value
and the limit. The engine's limits (board order, modulus) live in engine.limits; the ones below
belong to the command line alone.
"""

from __future__ import annotations

import argparse
import math
import os
import re
from collections.abc import Callable
from pathlib import Path

from engine.limits import MAX_NAME, MAX_PLAYERS, parse_bounded_int

#: Playback speed of a recording: past a thousand times its own pace frames come as fast as they
#: are read anyway (headless, leave --speed out for that).
MAX_SPEED = 1000.0

#: Frames a calibration takes from a source: it averages a few; 1,000 is 100 s of a 10 fps camera.
MAX_CALIBRATION_FRAMES = 1000

#: Simulated camera image side (pixels): 4096 covers a 12-megapixel frame; rendering time grows
#: with the pixels (64 is vision.sim's smallest).
SIM_SIDE = (64, 4096)

#: Simulated frames per second: cameras used at the table run 1 to 60 fps.
SIM_FPS = (0.5, 60.0)

#: Knocks of the sheet or jumps of the light in one simulated recording: a handful shows the effect.
MAX_SIM_EVENTS = 50

#: Second readers a user may opt into (``--ocr``) for the faces the glyph reader is unsure of:
#: none (the default), or tesseract (0.1 to 0.3 s a call).
SECOND_READERS = ("none", "tesseract")

#: Random seeds: numpy's generators take 0 to 2**32 - 1 as a plain seed.
MAX_SEED = 2**32 - 1

#: GPIO pins on the Raspberry Pi header, BCM numbering.
GPIO_PINS = (0, 27)

_PROFILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")


def int_in(low: int, high: int) -> Callable[[str], int]:
    """A whole number from ``low`` to ``high`` (argparse type)."""

    def parse(text: str) -> int:
        try:
            return parse_bounded_int(text, "value", low, high)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc).removeprefix("value ")) from None

    return parse


def float_in(low: float, high: float, above_low: bool = False) -> Callable[[str], float]:
    """A finite number from ``low`` (or above it, with ``above_low``) to ``high`` (argparse type)."""
    bound = f"above {low:g}" if above_low else f"{low:g}"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not math.isfinite(value) or value < low or (above_low and value == low) or value > high:
            raise argparse.ArgumentTypeError(f"{text!r} is out of range: {bound} to {high:g}")
        return value

    return parse


def size_in(low: int, high: int) -> Callable[[str], tuple[int, int]]:
    """``WIDTHxHEIGHT`` with both sides from ``low`` to ``high`` pixels (argparse type)."""

    def parse(text: str) -> tuple[int, int]:
        parts = text.lower().split("x")
        if len(parts) != 2:
            raise argparse.ArgumentTypeError(f"{text!r} is not WIDTHxHEIGHT, e.g. 1280x960")
        try:
            w, h = (parse_bounded_int(p, "side", low, high) for p in parts)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r}: width and height must be whole numbers from {low} to {high}"
            ) from None
        return w, h

    return parse


def player_names(text: str) -> list[str]:
    """Comma-separated player names, each non-empty (argparse type; the engine checks the rest)."""
    names = [p.strip() for p in text.split(",")]
    if not any(names):
        raise argparse.ArgumentTypeError(f"{text!r} names no player")
    if not all(names):
        raise argparse.ArgumentTypeError(f"{text!r} has an empty name between commas")
    if len(names) > MAX_PLAYERS or any(len(n) > MAX_NAME or not n.isprintable() for n in names):
        raise argparse.ArgumentTypeError(
            f"{text!r}: at most {MAX_PLAYERS} names of at most {MAX_NAME} printable characters"
        )
    return names


def printable(text: str) -> str:
    """Text without control characters (newlines, tabs, escapes): it may go into a transcript tag."""
    if not text or not text.isprintable():
        raise argparse.ArgumentTypeError(f"{text!r} is empty or holds a control character")
    return text


def new_file(text: str) -> Path:
    """A file to write: its folder must exist and be writable (checked before any work is done)."""
    path = Path(text)
    folder = path.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK) or path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r}: cannot write a file there (no such writable folder)")
    return path


def folder(text: str) -> Path:
    """A folder to keep files in: it may not exist yet, but must not be a file."""
    path = Path(text).expanduser()
    if not text or (path.exists() and not path.is_dir()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a folder")
    return path


def profile_name(text: str) -> str:
    """A tile-set profile's name: it becomes the file names NAME.toml and NAME.npz."""
    if not _PROFILE_NAME.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"{text!r}: a name is 1 to 40 letters, digits, '-' or '_', starting with a letter or digit"
        )
    return text
