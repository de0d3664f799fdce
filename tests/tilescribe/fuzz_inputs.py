"""Hypothesis strategies for every file tilescribe reads, and how each is read.

Each :class:`Target` pairs a strategy of file contents (valid seeds mutated: numbers swapped for
huge, negative or non-ASCII ones, hostile tokens and tags inserted, lines cut or repeated, bytes
that are not UTF-8, JSON values replaced, images truncated or their sizes forged) with the
function that reads such a file and the exceptions that function documents. Used by
tests/tilescribe/test_input_fuzz.py (a few hundred cases per target) and bench/bench_fuzz.py (ten
thousand and more).
"""

from __future__ import annotations

import contextlib
import copy
import json
import struct
import tempfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from hypothesis import strategies as st

from calibration.board_print import SheetSpec, design_board
from calibration.geometry import BoardFileError, BoardGeometry
from calibration.tilesets import TileSetError, load_tileset
from engine.record import COORDINATE_TOKENS, read_record
from engine.transcript import parse_transcript, replay
from tilescribe.settings import SettingsError, load_settings
from vision.capture.images import ImageError, load_image
from vision.capture.sources import RecordingSource, SourceError

TRANSCRIPTS = (
    '[Game "MODLINSEQ"]\n[Modulus "11"]\n[Order "9"]\n[Players "Ana, Bo"]\n'
    "1. Ana: 4B2, 7B1, 10A0, 2M1, 5M2 {+6}\n2. Bo: 1B4, 8M4 {+15}\n3. Ana: pass\n4. Bo: freeze\n",
    '[Modulus "11"]\n[Order "4"]\n[Wild "B"]\n[HashSwap "yes"]\n[Marker "yes"]\n[Bonus "9B"]\n'
    '[TilesPerValue "10"]\n[Dropped "B10 M7"]\n[Players "Ana, Bo, Cy"]\n'
    "1. Ana: #B1, 3M1\n2. Bo: #=8B2 4M2\n3. Cy: pass\n4. 5T1\n",
    '[Modulus "18"]\n[Board "rect 12x8"]\n[Wrap "yes"]\n[Diagonals "yes"]\n[LoopBonus "10"]\n'
    '[Players "Ana, Bo"]\n1. Ana: 4F5, 5G5, 6H5\n2. Bo: 7I5 8J5\n',
    '[Modulus "17"]\n[Sequence "multiplicative"]\n[Wild "A"]\n[Players "Ana, Bo"]\n1. Ana: 1A0, 2M1\n',
)

#: Numbers that break naive readers: too long for Python's int, far beyond every limit, negative,
#: not ASCII, not whole.
NUMBERS = (
    "0",
    "-1",
    "1",
    "31",
    "101",
    "100000",
    "9999999999",
    "1" + "0" * 30,
    "9" * 5000,
    "3.5",
    "1e9",
    "\u0663",
    "+7",
    " ",
    "",
)

#: Hostile text: tags with huge numbers, far addresses, unclosed comments, control characters.
TOKENS = (
    '[Order "100000"]\n',
    '[Modulus "9999999999"]\n',
    '[Wild "B"]\n',
    '[Modulus "' + "7" * 31 + '"]\n',
    '[TilesPerValue "1000000000"]\n',
    '[Dropped "T99999999"]\n',
    "1T100000000000000",
    "#=99999999B2",
    "{",
    "}",
    "[",
    '"',
    "\\",
    ":",
    ",",
    "\n",
    "\r",
    "\x00",
    "\x0b",
    "\u2028",
    "\x85",
    "\ufeff",
    "x" * 20_000,
    "1. ",
    "Ana: ",
    "pass",
    "freeze",
    '[Board "rect 12x8"]\n',
    '[Board "rect 100000x100000"]\n',
    '[Wrap "yes"]\n',
    '[Diagonals "yes"]\n',
    '[Sequence "fibonacci"]\n',
    '[Sequence "multiplicative"]\n',
    '[Composite "yes"]\n',
    '[LoopBonus "99999"]\n',
    "4A1",
    "#L8",
)

#: JSON values for a field of a board, recording or settings document.
JSON_VALUES: tuple[Any, ...] = (
    None,
    True,
    -1,
    0,
    10**400,
    1e308,
    float("nan"),
    "",
    "x",
    "../../../../etc/passwd",
    "/etc/passwd",
    "a\nb",
    [],
    {},
    [[1, 2]] * 3,
    {"A0": {"center": [1, 2]}},
    "9" * 5000,
)


@st.composite
def mutated_text(draw: st.DrawFn, seeds: tuple[str, ...]) -> str:
    """One of ``seeds`` after up to eight random edits (insert, delete, swap a number, repeat a line)."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(0, 8))):
        op = draw(st.sampled_from(("insert", "insert", "delete", "number", "line")))
        pos = draw(st.integers(0, len(text)))
        if op == "insert":
            piece = draw(st.one_of(st.sampled_from(TOKENS), st.sampled_from(NUMBERS), st.text(max_size=12)))
            text = text[:pos] + piece + text[pos:]
        elif op == "delete":
            text = text[:pos] + text[pos + draw(st.integers(1, 40)) :]
        elif op == "number":
            start = next((i for i in range(pos, len(text)) if text[i].isdigit()), None)
            if start is not None:
                end = start
                while end < len(text) and text[end].isdigit():
                    end += 1
                text = text[:start] + draw(st.sampled_from(NUMBERS)) + text[end:]
        else:
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(draw(st.integers(0, len(lines))), lines[i] * draw(st.integers(1, 3)))
            text = "\n".join(lines)
    return text


@st.composite
def mutated_bytes(draw: st.DrawFn, seeds: tuple[str, ...]) -> bytes:
    """A mutated text as UTF-8, sometimes with bytes that are not UTF-8 put in."""
    data = draw(mutated_text(seeds)).encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 4)) == 0:
        pos = draw(st.integers(0, len(data)))
        data = data[:pos] + draw(st.sampled_from((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"))) + data[pos:]
    return data


@st.composite
def mutated_json(draw: st.DrawFn, seed: Any) -> bytes:
    """``seed`` with fields replaced or removed (JSON_VALUES), or its text mutated, or nested deep."""
    doc = json.loads(json.dumps(seed))
    for _ in range(draw(st.integers(1, 4))):
        node, key = doc, None
        while isinstance(node, dict | list) and node and draw(st.booleans()):
            key = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node))))
            if not isinstance(node[key], dict | list) or not node[key]:
                break
            node = node[key]
        if isinstance(node, dict | list) and node:
            key = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node))))
            if isinstance(node, dict) and draw(st.integers(0, 3)) == 0:
                del node[key]
            else:
                node[key] = copy.deepcopy(draw(st.sampled_from(JSON_VALUES)))
    text = json.dumps(doc)
    kind = draw(st.integers(0, 5))
    if kind == 0:
        return draw(mutated_bytes((text,)))
    if kind == 1:
        return ("[" * 5_000 + "]" * 5_000).encode()
    return text.encode()


def _image_seeds() -> tuple[bytes, ...]:
    rng = np.random.default_rng(0)
    picture = (rng.random((48, 64, 3)) * 255).astype(np.uint8)
    return tuple(cv2.imencode(ext, picture)[1].tobytes() for ext in (".jpg", ".png"))


IMAGES = _image_seeds()


def _forge_size(data: bytes, width: int, height: int) -> bytes:
    """The image with its header claiming ``width`` x ``height`` (PNG: IHDR with a good checksum)."""
    if data.startswith(b"\x89PNG"):
        ihdr = b"IHDR" + struct.pack(">II", width, height) + data[24:29]
        return data[:12] + ihdr + struct.pack(">I", zlib.crc32(ihdr)) + data[33:]
    sof = data.find(b"\xff\xc0")
    return data[: sof + 5] + struct.pack(">HH", height % 65536, width % 65536) + data[sof + 9 :]


@st.composite
def mutated_image(draw: st.DrawFn) -> bytes:
    """A small JPEG or PNG cut short, with bytes changed, with a forged size, or random bytes."""
    data = draw(st.sampled_from(IMAGES))
    kind = draw(st.sampled_from(("cut", "flip", "size", "random", "whole")))
    if kind == "cut":
        return data[: draw(st.integers(0, len(data) - 1))]
    if kind == "flip":
        out = bytearray(data)
        for _ in range(draw(st.integers(1, 8))):
            out[draw(st.integers(0, len(out) - 1))] = draw(st.integers(0, 255))
        return bytes(out)
    if kind == "size":
        return _forge_size(data, draw(st.integers(0, 70_000)), draw(st.integers(0, 70_000)))
    if kind == "random":
        start = draw(st.sampled_from((b"", b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n")))
        return start + draw(st.binary(max_size=200))
    return data


BOARD = design_board(SheetSpec(order=2)).to_json()
RECORDING = {
    "board": "board.json",
    "fps": 10,
    "frames": [
        {"file": "000000.jpg", "t": 0.0, "cells": {}, "hand": False},
        {"file": "000001.jpg", "t": 0.1, "cells": {"A0": "5"}, "hand": True},
    ],
}
SETTINGS = (
    'players = ["Ana", "Bo"]\nmodulus = 13\nboard_order = 9\nwild = "A"\nhash_swap = true\n'
    'marker = true\nbonus = "9A"\ntiles_per_value = 10\nstill_seconds = 0.5\nauto_end_seconds = 4.0\n'
    'dropped = ["B10"]\ntileset = "rummikub"\n',
)
TILESETS = (
    (Path(__file__).resolve().parents[2] / "calibration" / "tilesets_data" / "rummikub.toml").read_text(
        encoding="utf-8"
    ),
)


def _read_transcript(case: str, folder: Path) -> None:
    transcript, _errors = parse_transcript(case)
    with contextlib.suppress(ValueError):  # documented: the settings name an unknown game
        replay(transcript)


def _read_record(case: str, folder: Path) -> None:
    read_record(case)
    read_record(case, COORDINATE_TOKENS)


def _file(name: str, reader: Callable[[Path], object]) -> Callable[[bytes, Path], None]:
    def read(case: bytes, folder: Path) -> None:
        (folder / name).write_bytes(case)
        reader(folder / name)

    return read


def _read_recording(case: bytes, folder: Path) -> None:
    for i, image in enumerate(IMAGES[:1] * 2):
        (folder / f"{i:06d}.jpg").write_bytes(image)
    (folder / "board.json").write_text(json.dumps(BOARD), encoding="utf-8")
    (folder / "frames.json").write_bytes(case)
    (folder / "events.jsonl").write_text('{"t": 0.1, "frame": 1, "type": "end_turn", "turn": 1}\n')
    source = RecordingSource(folder)
    if source.recording.board is not None:
        BoardGeometry.load(source.recording.board)
    for _frame in source:
        pass


@dataclass(frozen=True)
class Target:
    """One kind of input file: its cases, its reader ``read(case, scratch_folder)``, its errors."""

    name: str
    cases: st.SearchStrategy[Any]
    read: Callable[[Any, Path], None]
    documented: tuple[type[BaseException], ...]

    def run(self, case: Any) -> None:
        """Read ``case`` in a fresh scratch folder (its errors propagate)."""
        with tempfile.TemporaryDirectory() as scratch:
            self.read(case, Path(scratch))

    def check(self, case: Any) -> None:
        """Read ``case``; a documented error is the expected refusal, any other propagates."""
        with contextlib.suppress(*self.documented):
            self.run(case)


TARGETS: tuple[Target, ...] = (
    Target("transcript", mutated_text(TRANSCRIPTS), _read_transcript, ()),
    Target("record", mutated_text(TRANSCRIPTS), _read_record, ()),
    Target(
        "settings.toml",
        mutated_bytes(SETTINGS),
        _file("settings.toml", lambda p: load_settings(p, {})),
        (SettingsError,),
    ),
    Target("tile set", mutated_bytes(TILESETS), _file("set.toml", load_tileset), (TileSetError,)),
    Target("board.json", mutated_json(BOARD), _file("board.json", BoardGeometry.load), (BoardFileError,)),
    Target("frames.json", mutated_json(RECORDING), _read_recording, (SourceError, BoardFileError)),
    Target("image", mutated_image(), _file("photo.img", load_image), (ImageError,)),
)
