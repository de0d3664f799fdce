"""``tilescribe doctor`` run for real on this machine, and the SDL driver choice it reports."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from tilescribe.doctor import (
    Check,
    check_games_writable,
    check_learned_reader,
    check_npz_model,
    check_service,
    check_settings,
    check_tesseract,
    check_tile_finder,
    check_video_devices,
)
from tilescribe.sdl_video import NoDriverError, choose_driver, pygame_build

REPO = Path(__file__).resolve().parents[2]
STATUS_LINE = r"^(OK  |WARN|FAIL) [a-z][^:]*: .+$"


def doctor(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "tilescribe.cli", "doctor", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=120,
    )


def lines_by_name(out: str) -> dict[str, str]:
    """check name -> its whole line."""
    return {_name(line): line for line in out.splitlines()[:-1]}


def _name(line: str) -> str:
    """The check's name in a line ``STATUS name: message``."""
    body = line[5:]
    head, _, _ = body.partition(": ")
    if head in ("camera", "display", "model", "games", "service"):  # two-part names: "camera: devices"
        head += ": " + body[len(head) + 2 :].partition(": ")[0]
    return head


def test_doctor_names_each_failure_and_exits_1(tmp_path):
    bad = tmp_path / "settings.toml"
    bad.write_text('players = ["Ana", "Bo"]\nmodulus = = 13\n')
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    run = doctor(
        "--settings", str(bad), "--games", str(blocker / "games"), "--source", str(tmp_path / "none.mp4")
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    body = run.stdout.splitlines()[:-1]
    assert all(re.match(STATUS_LINE, line) for line in body), body
    lines = lines_by_name(run.stdout)
    assert (
        lines["settings"].startswith("FAIL")
        and str(bad) in lines["settings"]
        and "line 2" in lines["settings"]
    )
    assert lines["games: writable"].startswith("FAIL") and str(blocker) in lines["games: writable"]
    assert lines["camera: source '" + str(tmp_path / "none.mp4") + "'"].startswith("FAIL")
    summary = run.stdout.splitlines()[-1]
    assert summary.startswith(("3 failed", "4 failed"))  # 4 where this pygame lacks kmsdrm
    for name in ("settings", "games: writable"):
        assert name in summary


def test_doctor_reports_every_area_and_passes_good_settings(tmp_path):
    run = doctor("--settings", str(REPO / "deploy" / "settings.toml"), "--games", str(tmp_path / "games"))
    lines = lines_by_name(run.stdout)
    for name in (
        "settings",
        "camera: picamera2",
        "camera: devices",
        "display: pygame",
        "display: console (systemd unit)",
        "display: desktop (autostart)",
        "fonts",
        "tesseract",
        "model: tile reader",
        "model: learned reader",
        "model: tile finder",
        "model: presence",
        "model: ink_hues.npz",
        "games: disk space",
        "games: writable",
        "service: tilescribe.service",
    ):
        assert name in lines, f"no line for {name}: {run.stdout}"
    assert lines["settings"].startswith("OK") and "modulus 13" in lines["settings"]
    assert lines["games: writable"].startswith("OK")
    for name in ("model: tile reader", "model: learned reader", "model: tile finder", "model: presence",
                 "tesseract", "games: disk space"):
        assert lines[name].startswith("OK"), lines[name]
    build = pygame_build()
    assert f"{build.flavour} {build.version}" in lines["display: pygame"]
    console = lines["display: console (systemd unit)"]
    assert console.startswith("OK   display: console (systemd unit): SDL_VIDEODRIVER=kmsdrm") == (
        "kmsdrm" in build.drivers
    )
    failed = any(line.startswith("FAIL") for line in run.stdout.splitlines())
    assert run.returncode == (1 if failed else 0)


def test_installed_pygame_lists_its_drivers_and_the_dummy_driver_opens():
    build = pygame_build()
    assert build.drivers is not None and "dummy" in build.drivers and "x11" in build.drivers
    assert build.flavour == ("pygame-ce" if getattr(pygame, "IS_CE", False) else "pygame")
    os.environ["SDL_VIDEODRIVER"] = "dummy"  # as conftest sets it
    pygame.display.init()
    try:
        assert pygame.display.get_driver() == "dummy"
        assert pygame.display.set_mode((80, 48)).get_size() == (80, 48)
    finally:
        pygame.display.quit()


@pytest.mark.parametrize(
    ("environ", "drivers", "chosen"),
    [
        ({}, ("x11", "wayland", "kmsdrm", "dummy"), "kmsdrm"),  # the console: the systemd unit
        ({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}, ("x11", "wayland", "kmsdrm"), "wayland"),  # labwc
        ({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}, ("x11", "kmsdrm"), "x11"),  # Xwayland
        ({"DISPLAY": ":0"}, ("x11", "wayland"), "x11"),
        ({"SDL_VIDEODRIVER": "dummy"}, ("x11", "dummy"), "dummy"),
    ],
)
def test_driver_choice(environ, drivers, chosen):
    assert choose_driver(environ, drivers) == chosen


def test_driver_choice_explains_a_missing_driver():
    with pytest.raises(NoDriverError, match="console SDL needs its kmsdrm driver.*x11, wayland.*pygame-ce"):
        choose_driver({}, ("x11", "wayland", "offscreen", "dummy"))
    with pytest.raises(NoDriverError, match="SDL_VIDEODRIVER=kmsdrm but this SDL offers only x11"):
        choose_driver({"SDL_VIDEODRIVER": "KMSDRM"}, ("x11",))


def test_sdl_video_module_prints_the_driver_or_the_reason():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    run = subprocess.run(
        [sys.executable, "-m", "tilescribe.sdl_video"],
        capture_output=True,
        text=True,
        env={**env, "PYTHONPATH": str(REPO)},
        cwd=REPO,
        timeout=60,
    )
    if "kmsdrm" in pygame_build().drivers:
        assert (run.returncode, run.stdout.strip()) == (0, "kmsdrm")
    else:
        assert run.returncode == 1 and "kmsdrm" in run.stderr and "pygame-ce" in run.stderr
    assert "Traceback" not in run.stderr


def test_small_checks_on_real_folders(tmp_path):
    assert check_video_devices(tmp_path).status == "WARN"
    (tmp_path / "video0").touch()
    (tmp_path / "video10").touch()
    assert check_video_devices(tmp_path) == Check(
        "camera: devices", "OK", f"{tmp_path}/video0, {tmp_path}/video10"
    )
    assert check_settings(tmp_path / "absent.toml", given=False).status == "OK"
    missing = check_settings(tmp_path / "absent.toml", given=True)
    assert missing.status == "FAIL" and "absent.toml" in missing.message
    assert check_settings(tmp_path, given=True).status == "FAIL"  # a folder, not a file
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"modulus = 13\n\xff\xfe\n")
    garbled = check_settings(binary, given=True)
    assert garbled.status == "FAIL" and "binary.toml" in garbled.message
    assert "utf-8" in garbled.message.lower()
    assert check_games_writable(tmp_path / "new" / "games").status == "OK"
    with pytest.raises(ValueError, match="status must be one of"):
        Check("x", "BAD", "y")  # type: ignore[arg-type]


def test_tesseract_missing_is_a_warning_naming_the_option_that_needs_it(tmp_path, monkeypatch):
    assert check_tesseract().status == "OK"
    monkeypatch.setenv("PATH", str(tmp_path))  # a PATH without tesseract on it
    missing = check_tesseract()
    assert missing.status == "WARN" and "--ocr tesseract" in missing.message
    assert "apt install tesseract-ocr" in missing.message


def test_a_truncated_model_fails_its_check(tmp_path):
    keys = ("colours", "mean", "inverse", "logdet")
    shipped = check_npz_model("ink_hues.npz", keys)
    assert shipped.status == "OK"
    whole = (REPO / "vision" / "models" / "ink_hues.npz").read_bytes()
    (tmp_path / "ink_hues.npz").write_bytes(whole[: len(whole) // 2])
    cut = check_npz_model("ink_hues.npz", keys, models=tmp_path)
    assert cut.status == "FAIL" and "ink_hues.npz does not load" in cut.message


def test_a_damaged_tile_finder_fails_its_check_naming_the_file(tmp_path):
    assert check_tile_finder().status == "OK"
    cut = tmp_path / "tile_finder.onnx"
    cut.write_bytes((REPO / "vision" / "table" / "tile_finder.onnx").read_bytes()[:5000])
    damaged = check_tile_finder(cut)
    assert damaged.status == "FAIL" and str(cut) in damaged.message, damaged


def test_a_damaged_learned_reader_fails_its_check_naming_the_file(tmp_path):
    up = REPO / "vision" / "reader" / "tile_up.onnx"
    assert check_learned_reader().status == "OK"
    cut = tmp_path / "tile_reader.onnx"
    cut.write_bytes((REPO / "vision" / "reader" / "tile_reader.onnx").read_bytes()[:5000])
    damaged = check_learned_reader(cut, up)
    assert damaged.status == "FAIL" and str(cut) in damaged.message, damaged
    missing = check_learned_reader(tmp_path / "absent.onnx", up)
    assert missing.status == "FAIL" and "absent.onnx: tile reader model not found" in missing.message


def test_a_service_that_systemd_stopped_restarting_names_its_last_error():
    stopped = "LoadState=loaded\nActiveState=failed\nSubState=failed\nResult=start-limit-hit\nNRestarts=5\n"
    check = check_service(stopped, lambda: "tilescribe run: /var/lib/pi/games/x: not UTF-8 text")
    assert check.status == "FAIL" and "after 5 failed starts" in check.message
    assert "not UTF-8 text" in check.message and "systemctl reset-failed tilescribe" in check.message
    restarting = "ActiveState=activating\nSubState=auto-restart\nResult=exit-code\nNRestarts=2"
    assert check_service(restarting, lambda: "").status == "WARN"
    running = "LoadState=loaded\nActiveState=active\nSubState=running\nResult=success\nNRestarts=0"
    assert check_service(running).format() == "OK   service: tilescribe.service: active (running)"
    assert check_service("LoadState=not-found\nActiveState=inactive").status == "OK"
    assert check_service(None).status == "OK"
