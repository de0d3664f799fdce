"""The Raspberry Pi deployment files: script syntax, the systemd unit, the settings file."""

from __future__ import annotations

import configparser
import os
import shlex
import subprocess
import sys
from pathlib import Path

from tilescribe.cli import build_parser
from tilescribe.sdl_video import pygame_build
from tilescribe.settings import load_settings

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def test_install_script_is_valid_bash_and_refuses_without_root() -> None:
    script = DEPLOY / "install-pi.sh"
    assert subprocess.run(["bash", "-n", str(script)], capture_output=True).returncode == 0
    text = script.read_text()
    for package in ("python3-picamera2", "tesseract-ocr", "libsdl2-2.0-0"):
        assert package in text
    assert "--system-site-packages" in text and '"numpy<2"' in text  # the system picamera2 needs numpy 1
    help_run = subprocess.run(["bash", str(script), "--help"], capture_output=True, text=True)
    assert help_run.returncode == 0 and "install-pi.sh" in help_run.stdout
    bad = subprocess.run(["bash", str(script), "--bogus"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--bogus" in bad.stderr


def test_systemd_unit_runs_the_kiosk_unprivileged_and_restarts() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(DEPLOY / "tilescribe.service")
    service = unit["Service"]
    assert service["User"] == "@USER@" and service["Restart"] == "on-failure"
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    argv = shlex.split(service["ExecStart"])
    assert argv[0] == "@PREFIX@/bin/tilescribe-kiosk"  # the launcher: `tilescribe run` with SDL's driver
    assert "SDL_VIDEODRIVER" not in service.get("Environment", "")  # the launcher chooses it
    args = build_parser().parse_args(["run", *argv[1:]])  # the real parser accepts the unit's command line
    assert args.command == "run" and args.source == "pi" and args.fullscreen and args.resume == "yes"
    assert args.gpio == 17 and str(args.board) == "/etc/tilescribe/board/board.json"


def test_settings_file_loads() -> None:
    settings = load_settings(DEPLOY / "settings.toml", {})
    assert settings.game.modulus == 13 and settings.game.board.order == 9 and settings.still_seconds == 0.5
    assert len(settings.game.players) == 2


def test_desktop_autostart_runs_the_same_command() -> None:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]
    entry.read(DEPLOY / "tilescribe-kiosk.desktop")
    argv = shlex.split(entry["Desktop Entry"]["Exec"])
    assert argv[0] == "/opt/tilescribe/bin/tilescribe-kiosk"
    args = build_parser().parse_args(["run", *argv[1:]])
    assert args.command == "run" and args.fullscreen and args.resume == "yes"


def _installed_launcher(prefix: Path) -> Path:
    """deploy/tilescribe-kiosk.sh as install-pi.sh installs it, over a venv that runs this checkout."""
    venv = prefix / "venv" / "bin"
    venv.mkdir(parents=True)
    for name, module in (("python", None), ("tilescribe", "tilescribe.cli")):
        run = f'exec {sys.executable} -m {module} "$@"' if module else f'exec {sys.executable} "$@"'
        (venv / name).write_text(f"#!/bin/sh\nPYTHONPATH={DEPLOY.parent} {run}\n")
        (venv / name).chmod(0o755)
    launcher = prefix / "bin" / "tilescribe-kiosk"
    launcher.parent.mkdir()
    launcher.write_text((DEPLOY / "tilescribe-kiosk.sh").read_text().replace("@PREFIX@", str(prefix)))
    launcher.chmod(0o755)
    return launcher


def test_launcher_picks_the_screens_driver_or_says_why_not(tmp_path: Path) -> None:
    launcher = _installed_launcher(tmp_path)
    screens = ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")
    console = {k: v for k, v in os.environ.items() if k not in screens}
    run = subprocess.run([str(launcher), "--help"], capture_output=True, text=True, env=console, timeout=60)
    if "kmsdrm" in (pygame_build().drivers or ()):
        assert run.returncode == 0 and "SDL_VIDEODRIVER=kmsdrm" in run.stderr
        assert "usage: tilescribe run" in run.stdout
    else:  # the pygame wheel: no kmsdrm, and the log says what to install
        assert run.returncode == 1 and "pygame-ce" in run.stderr and "tilescribe doctor" in run.stderr
    desktop = subprocess.run([str(launcher), "--help"], capture_output=True, text=True, timeout=60,
                             env={**console, "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"})
    assert desktop.returncode == 0 and "SDL_VIDEODRIVER=wayland" in desktop.stderr
