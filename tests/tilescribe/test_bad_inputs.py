"""Every sub-command given bad input, run as a real process: one line naming the input, no traceback.

Each case runs ``python -m tilescribe.cli ...`` and must end with a non-zero status, no
``Traceback`` on standard error, and a first line of standard error ``tilescribe CMD: ...`` that
names the bad input, within 30 s. The table of all cases (input -> status -> first line) is
written to bad_inputs.md in the test's temporary folder and printed (``pytest -s`` shows it).
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.board_print import SheetSpec, design_board
from engine.game import Game
from engine.settings import Settings
from engine.tiles import parse_placements
from tilescribe.journal import Journal
from tilescribe.settings import TableSettings

REPO = Path(__file__).resolve().parents[2]
GAME = '[Game "MODLINSEQ"]\n[Modulus "11"]\n[Order "4"]\n[Players "Ana, Bo"]\n1. Ana: 4B2, 7B1, 10A0\n'


@dataclass(frozen=True)
class Case:
    """A command line with one bad input, and the text its error line must hold."""

    what: str
    argv: tuple[str, ...]
    named: str


@dataclass(frozen=True)
class Outcome:
    case: Case
    status: int
    stderr: str
    seconds: float

    @property
    def first_line(self) -> str:
        return next((line for line in self.stderr.splitlines() if line.strip()), "")


def _files(folder: Path) -> dict[str, Path]:
    """Good and bad input files in ``folder``."""
    f = {
        name: folder / name
        for name in (
            "board.json",
            "game.txt",
            "latin1.txt",
            "photo.jpg",
            "cut.jpg",
            "huge.png",
            "latin1.json",
            "latin1.toml",
            "outside.toml",
            "bad.toml",
            "modulus.toml",
            "junk.npz",
            "a file",
            "rec",
            "escape",
            "order100000.txt",
            "modulus10.txt",
            "farcell.txt",
            "wildB31.txt",
            "digits5000.txt",
            "games",
            "games-nophoto",
            "games-bad",
        )
    }
    board = design_board(SheetSpec(order=2))
    board.save(f["board.json"])
    f["game.txt"].write_text(GAME, encoding="utf-8")
    f["latin1.txt"].write_bytes('[Players "Zoë"]\n'.encode("latin-1"))
    f["latin1.json"].write_bytes(b'{"order": 2, "name": "\xe9"}')
    f["latin1.toml"].write_bytes(b'name = "s\xe9t"\n')
    f["outside.toml"].write_text('name = "x"\nfaces = ["1"]\nexemplars = "../../../../etc/passwd"\n')
    f["bad.toml"].write_text('players = ["Ana"\n')
    f["modulus.toml"].write_text("modulus = 1000\n")
    f["junk.npz"].write_bytes(b"PK\x03\x04 not a zip")
    f["a file"].write_text("x")
    picture = cv2.imencode(".jpg", np.full((480, 640, 3), 128, np.uint8))[1].tobytes()
    f["photo.jpg"].write_bytes(picture)
    f["cut.jpg"].write_bytes(picture[: len(picture) * 2 // 3])
    png = cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))[1].tobytes()
    ihdr = b"IHDR" + struct.pack(">II", 100_000, 100_000) + png[24:29]
    f["huge.png"].write_bytes(png[:12] + ihdr + struct.pack(">I", zlib.crc32(ihdr)) + png[33:])
    for name, frames_file, board_file in (
        ("rec", "000000.jpg", "board.json"),
        ("escape", "../../../../etc/passwd", "board.json"),
    ):
        f[name].mkdir()
        board.save(f[name] / "board.json")
        (f[name] / "000000.jpg").write_bytes(picture)
        doc = {"board": board_file, "fps": 10, "frames": [{"file": frames_file, "t": 0.0, "cells": {}}]}
        (f[name] / "frames.json").write_text(json.dumps(doc))
    header = '[Modulus "11"]\n[Players "Ana, Bo"]\n'
    f["order100000.txt"].write_text('[Order "100000"]\n' + header + "1. Ana: 4A0\n")
    f["modulus10.txt"].write_text('[Modulus "9999999999"]\n[Players "Ana, Bo"]\n1. Ana: 4A0\n')
    f["farcell.txt"].write_text(header + "1. Ana: 1T100000000000000\n")
    wild_b = '"]\n[Wild "B"]\n[Players "Ana, Bo"]\n1. Ana: 4A0\n'
    f["wildB31.txt"].write_text('[Modulus "' + "7" * 31 + wild_b)
    f["digits5000.txt"].write_text(header + "1. Ana: " + "9" * 5000 + "A0\n")
    for name in ("games", "games-nophoto"):
        settings = TableSettings(game=Settings(modulus=7, players=("Ana", "Bo")))
        with Journal.create(f[name], settings) as journal:
            game = Game(settings.game)
            game.play(parse_placements("4B2 6B1 1A0 3M1"))
            journal.record(game.history[-1], photo=np.full((20, 20, 3), 128, np.uint8))
    (photo_file,) = f["games-nophoto"].glob("*/photos/turn-001.jpg")
    photo_file.unlink()
    f["photo-missing"] = photo_file
    (f["games-bad"] / "20260101-000000").mkdir(parents=True)
    return f


def _cases(f: dict[str, Path], tmp: Path) -> list[Case]:
    board, cut, photo = str(f["board.json"]), str(f["cut.jpg"]), str(f["photo.jpg"])
    missing = str(tmp / "missing.mp4")
    run = (
        "run",
        "--headless",
        "--games",
        str(tmp / "games"),
        "--cache",
        str(tmp / "cache"),
        "--resume",
        "no",
    )
    c = [
        Case("missing transcript", ("score", str(tmp / "missing.txt")), "missing.txt"),
        Case("transcript not UTF-8", ("score", str(f["latin1.txt"])), str(f["latin1.txt"])),
        Case("a folder as transcript", ("score", str(tmp)), str(tmp)),
        Case('[Order "100000"]', ("score", str(f["order100000.txt"])), "'100000'"),
        Case('[Modulus "9999999999"]', ("score", str(f["modulus10.txt"])), "'9999999999'"),
        Case("cell 1T100000000000000", ("score", str(f["farcell.txt"])), "1T100000000000000"),
        Case("31-digit modulus, wild B", ("score", str(f["wildB31.txt"])), str(f["wildB31.txt"])),
        Case("5,000-digit value", ("score", str(f["digits5000.txt"])), str(f["digits5000.txt"])),
        Case("--games is a file", ("games", "--games", str(f["a file"])), str(f["a file"])),
        Case("missing transcript", ("hint", str(tmp / "missing.txt")), "missing.txt"),
        Case("transcript not UTF-8", ("hint", str(f["latin1.txt"])), str(f["latin1.txt"])),
        Case("--top 0", ("hint", str(f["game.txt"]), "--top", "0"), "--top"),
        Case("--top abc", ("hint", str(f["game.txt"]), "--top", "abc"), "'abc'"),
        Case("unknown game", ("export", "7", "--out", str(tmp / "g.zip"), "--games", str(f["games"])), "'7'"),
        Case(
            "--out in no folder",
            ("export", "1", "--out", "/proc/x/g.zip", "--games", str(f["games"])),
            "/proc/x/g.zip",
        ),
        Case("--out a folder", ("export", "1", "--out", str(tmp), "--games", str(f["games"])), str(tmp)),
        Case(
            "a game without settings.json",
            ("export", "1", "--out", str(tmp / "g.zip"), "--games", str(f["games-bad"])),
            "settings.json",
        ),
        Case(
            "a photo the index names is gone",
            ("export", "1", "--out", str(tmp / "g.zip"), "--games", str(f["games-nophoto"])),
            str(f["photo-missing"]),
        ),
        Case("a rack of 5,000 tiles", ("hint", str(f["game.txt"]), "--rack", "1 " * 5000), "--rack"),
        Case("--order 60", ("board", "print", "--order", "60", "--out", str(tmp / "b")), "'60'"),
        Case(
            "--order 30 (too many pixels)",
            ("board", "print", "--order", "30", "--out", str(tmp / "b")),
            "order 30",
        ),
        Case("--cell-mm 1e9", ("board", "print", "--cell-mm", "1e9", "--out", str(tmp / "b")), "'1e9'"),
        Case("--dpi nan", ("board", "print", "--dpi", "nan", "--out", str(tmp / "b")), "'nan'"),
        Case("--out /proc/x", ("board", "print", "--out", "/proc/x/board"), "/proc/x"),
        Case(
            "--source missing.mp4",
            ("calibrate", "--board", board, "--source", missing, "--out", str(tmp / "c.npz")),
            missing,
        ),
        Case(
            "--out /proc/x/cal.npz",
            ("calibrate", photo, "--board", board, "--out", "/proc/x/cal.npz"),
            "/proc/x/cal.npz",
        ),
        Case(
            "board.json not UTF-8",
            ("calibrate", photo, "--board", str(f["latin1.json"]), "--out", str(tmp / "c.npz")),
            str(f["latin1.json"]),
        ),
        Case("truncated JPEG", ("calibrate", cut, "--board", board, "--out", str(tmp / "c.npz")), cut),
        Case(
            "--frames 0",
            ("calibrate", "--board", board, "--source", "0", "--frames", "0", "--out", str(tmp / "c.npz")),
            "'0'",
        ),
        Case(
            "no images, no --source", ("calibrate", "--board", board, "--out", str(tmp / "c.npz")), "--source"
        ),
        Case(
            "--frames with images",
            ("calibrate", photo, "--board", board, "--frames", "3", "--out", str(tmp / "c.npz")),
            "--frames 3",
        ),
        Case("truncated JPEG", ("read", cut, "--board", board, "--modulus", "13"), cut),
        Case(
            "missing image", ("read", str(tmp / "none.jpg"), "--board", board, "--modulus", "13"), "none.jpg"
        ),
        Case("--modulus 0", ("read", photo, "--board", board, "--modulus", "0"), "'0'"),
        Case(
            "board.json not UTF-8",
            ("read", photo, "--board", str(f["latin1.json"]), "--modulus", "13"),
            str(f["latin1.json"]),
        ),
        Case(
            "--calibration not a zip",
            ("read", photo, "--board", board, "--modulus", "13", "--calibration", str(f["junk.npz"])),
            str(f["junk.npz"]),
        ),
        Case(
            "--tileset not UTF-8",
            ("read", photo, "--board", board, "--modulus", "13", "--tileset", str(f["latin1.toml"])),
            str(f["latin1.toml"]),
        ),
        Case("--ocr easyocr", ("read", photo, "--board", board, "--modulus", "13", "--ocr", "easyocr"),
             "'easyocr'"),
        Case("--ocr for Yushino", ("read", photo, "--game", "yushino", "--ocr", "tesseract"), "--ocr"),
        Case("truncated JPEG", ("read-tiles", cut), cut),
        Case("PNG claiming 100000x100000", ("read-tiles", str(f["huge.png"])), str(f["huge.png"])),
        Case(
            "--tileset not UTF-8",
            ("read-tiles", photo, "--tileset", str(f["latin1.toml"])),
            str(f["latin1.toml"]),
        ),
        Case("--modulus 1000", ("read-tiles", photo, "--modulus", "1000"), "'1000'"),
        Case("profile not UTF-8", ("tileset", "show", str(f["latin1.toml"])), str(f["latin1.toml"])),
        Case("unknown profile", ("tileset", "show", "nosuchset"), "'nosuchset'"),
        Case(
            "exemplars outside its folder",
            ("tileset", "show", str(f["outside.toml"])),
            "../../../../etc/passwd",
        ),
        Case("an extra argument", ("tileset", "list", "extra"), "extra"),
        Case(
            "--name ../x",
            ("tileset", "learn", photo, "--board", board, "--name", "../x", "--out", str(tmp / "t")),
            "'../x'",
        ),
        Case(
            "truncated JPEG",
            ("tileset", "learn", cut, "--board", board, "--name", "x", "--out", str(tmp / "t")),
            cut,
        ),
        Case(
            "--size 100000x100000",
            (
                "simulate",
                str(f["game.txt"]),
                "--board",
                board,
                "--out",
                str(tmp / "s"),
                "--size",
                "100000x100000",
            ),
            "'100000x100000'",
        ),
        Case(
            "transcript not UTF-8",
            ("simulate", str(f["latin1.txt"]), "--board", board, "--out", str(tmp / "s")),
            str(f["latin1.txt"]),
        ),
        Case(
            "--fps 0",
            ("simulate", str(f["game.txt"]), "--board", board, "--out", str(tmp / "s"), "--fps", "0"),
            "'0'",
        ),
        Case(
            "missing board",
            ("simulate", str(f["game.txt"]), "--board", str(tmp / "nob.json"), "--out", str(tmp / "s")),
            "nob.json",
        ),
        Case(
            "--shapes bogus",
            ("simulate", str(f["game.txt"]), "--board", board, "--out", str(tmp / "s"), "--shapes", "bogus"),
            "'bogus'",
        ),
        Case("--speed 0", (*run, "--source", str(f["rec"]), "--speed", "0"), "'0'"),
        Case(
            "--order 1 with a board of order 2",
            (*run, "--source", str(f["rec"]), "--order", "1"),
            "--order 1",
        ),
        Case('--players ""', (*run, "--source", str(f["rec"]), "--players", ""), "--players"),
        Case(
            "--players with an empty name",
            (*run, "--source", str(f["rec"]), "--players", "Ana,,Bo"),
            "'Ana,,Bo'",
        ),
        Case("newline in --source", (*run, "--source", str(f["rec"]) + "\nx"), repr(str(f["rec"]) + "\nx")),
        Case("--source missing.mp4", (*run, "--source", missing), missing),
        Case("--source pi:99999x1", (*run, "--source", "pi:99999x1"), "'pi:99999x1'"),
        Case(
            "frames.json naming ../../../../etc/passwd",
            (*run, "--source", str(f["escape"])),
            "../../../../etc/passwd",
        ),
        Case(
            "--settings not UTF-8",
            (*run, "--source", str(f["rec"]), "--settings", str(f["latin1.toml"])),
            str(f["latin1.toml"]),
        ),
        Case(
            "--settings bad TOML",
            (*run, "--source", str(f["rec"]), "--settings", str(f["bad.toml"])),
            str(f["bad.toml"]),
        ),
        Case(
            "--settings modulus 1000",
            (*run, "--source", str(f["rec"]), "--settings", str(f["modulus.toml"])),
            "1000",
        ),
        Case("--speed with a live camera", (*run, "--source", "0", "--speed", "2"), "--speed 2"),
        Case("--gpio 99", (*run, "--source", str(f["rec"]), "--gpio", "99"), "'99'"),
        Case("--modulus 0", (*run, "--source", str(f["rec"]), "--modulus", "0"), "'0'"),
        Case(
            "--games is a file",
            (*run, "--source", str(f["rec"]), "--games", str(f["a file"])),
            str(f["a file"]),
        ),
    ]
    return c


def _cli(argv: tuple[str, ...], driver: str = "dummy") -> subprocess.CompletedProcess[str]:
    """``python -m tilescribe.cli ARGV`` in a new process with SDL's video driver ``driver``."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "SDL_VIDEODRIVER": driver, "SDL_AUDIODRIVER": "dummy"}
    return subprocess.run(
        [sys.executable, "-m", "tilescribe.cli", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env=env,
        stdin=subprocess.DEVNULL,
    )


def _run(case: Case) -> Outcome:
    start = time.perf_counter()
    done = _cli(case.argv)
    return Outcome(case, done.returncode, done.stderr, time.perf_counter() - start)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "\\n")


def test_every_command_names_its_bad_input_in_one_line(tmp_path: Path) -> None:
    cases = _cases(_files(tmp_path), tmp_path)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        outcomes = list(pool.map(_run, cases))
    table = ["| command | bad input | exit | seconds | first line of stderr |", "|---|---|---|---|---|"]
    for o in outcomes:
        table.append(
            f"| {o.case.argv[0]} | {_cell(o.case.what)} | {o.status} | {o.seconds:.1f} | "
            f"{_cell(o.first_line)} |"
        )
    report = tmp_path / "bad_inputs.md"
    report.write_text("\n".join(table) + "\n", encoding="utf-8")
    print(f"\n{report}:\n" + "\n".join(table))
    for o in outcomes:
        where = f"{' '.join(o.case.argv)!r}:\n{o.stderr[-3000:]}"
        assert o.status != 0, where
        assert "Traceback" not in o.stderr, where
        assert o.first_line.startswith(f"tilescribe {o.case.argv[0]}"), where
        assert o.case.named in o.first_line, where
        assert o.seconds < 30, where


@pytest.mark.parametrize("value", ["a\nb", "a\rb", "a\x1bb", "a\x00b"])
def test_control_characters_never_reach_a_transcript_tag(tmp_path: Path, value: str) -> None:
    """The session's --source becomes a transcript tag: a value with a control character is refused."""
    from tilescribe.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(["run", "--headless", "--games", str(tmp_path), "--source", value])
    assert stopped.value.code == 2


def test_a_window_sdl_cannot_open_is_one_line(tmp_path: Path) -> None:
    """A screen whose SDL video driver is not there: one line saying so, exit 1, no traceback."""
    f = _files(tmp_path)
    argv = ("run", "--source", str(f["rec"]), "--games", str(tmp_path / "games"), "--resume", "no")
    done = _cli((*argv, "--truth", "--no-sound"), driver="nosuchdriver")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines() == [
        "tilescribe run: the kiosk's window cannot be opened (nosuchdriver not available; SDL_VIDEODRIVER "
        "nosuchdriver): `tilescribe doctor` says which driver this screen needs"
    ]
