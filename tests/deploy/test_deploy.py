"""The Raspberry Pi deployment files: script syntax, the systemd unit, the settings file."""

from __future__ import annotations

import configparser
import os
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

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


def _installed_unit(tmp_path: Path) -> Path:
    """The unit as install-pi.sh writes it (placeholders filled in), in a folder of its own."""
    text = (DEPLOY / "tilescribe.service").read_text()
    unit = tmp_path / "tilescribe.service"
    unit.write_text(text.replace("@USER@", "tilescribe").replace("@PREFIX@", "/opt/tilescribe"))
    return unit


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed (Debian package systemd)")
def test_systemd_unit_exposure_is_at_most_3(tmp_path: Path) -> None:
    unit = _installed_unit(tmp_path)
    done = subprocess.run(["systemd-analyze", "security", "--offline=yes", unit.name], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    if "--offline" in done.stderr and "unrecognized" in done.stderr:
        pytest.skip(f"this systemd-analyze has no --offline (systemd < 252): {done.stderr.strip()}")
    found = re.search(r"Overall exposure level for tilescribe\.service: (\d+\.\d+)", done.stdout)
    assert found, done.stdout + done.stderr
    assert float(found.group(1)) <= 3.0, done.stdout
    assert "fatal error" not in done.stderr and "bad unit file setting" not in done.stderr, done.stderr
    unit_text = unit.read_text()
    assert "ReadWritePaths=/var/lib/tilescribe" in unit_text and "StartLimitBurst=" in unit_text


def test_unit_memory_deny_write_execute_holds_for_the_stack(tmp_path: Path) -> None:
    """MemoryDenyWriteExecute=yes: the kernel's own switch (PR_SET_MDWE, Linux 6.3) refuses a
    writable and executable mapping, and numpy, OpenCV's board reading and pygame still work."""
    code = textwrap.dedent("""
        import ctypes, mmap, os, sys
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(65, 1, 0, 0, 0) != 0:  # PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN
            print("no PR_SET_MDWE"); sys.exit(3)
        try:
            mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
            sys.exit("a writable executable mapping was allowed")
        except OSError:
            pass
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        import pygame
        pygame.display.init(); pygame.font.init()
        text = pygame.font.Font(None, 24).render("7", True, (0, 0, 0))
        pygame.display.set_mode((800, 480)).blit(text, (0, 0))
        from tilescribe.cli import main
        sys.exit(main(["board", "print", "--order", "3", "--out", sys.argv[1]]) or
                 main(["read", sys.argv[1] + "/board.png", "--board", sys.argv[1] + "/board.json",
                       "--modulus", "13", "--json"]))
    """)
    env = {**os.environ, "PYTHONPATH": str(DEPLOY.parent)}
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True,
                          timeout=120, cwd=DEPLOY.parent, env=env)
    if done.returncode == 3:
        pytest.skip("this kernel has no PR_SET_MDWE (Linux 6.3 or later needed)")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert '"board_found": true' in done.stdout


@pytest.mark.parametrize(("args", "named"), [
    (["--user", "a|b"], "'a|b'"),
    (["--user", "Root"], "'Root'"),
    (["--user", "x" * 33], "'" + "x" * 33 + "'"),
    (["--user"], "--user needs a value"),
    (["--prefix", "opt/tilescribe"], "'opt/tilescribe'"),
    (["--prefix", "/opt/a|b"], "'/opt/a|b'"),
    (["--prefix", "/opt/a&b"], "'/opt/a&b'"),
    (["--prefix", "/opt/../etc"], "'/opt/../etc'"),
    (["--prefix", "/opt/a b"], "'/opt/a b'"),
    (["--prefix", "/opt/x\ny"], "--prefix"),
    (["--prefix", "/"], "'/'"),
])
def test_installer_refuses_bad_user_and_prefix_before_doing_anything(args: list[str], named: str) -> None:
    done = subprocess.run(["bash", str(DEPLOY / "install-pi.sh"), "--dry-run", *args],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and named in done.stderr and done.stdout == "", done.stderr


def test_installer_dry_run_accepts_good_values() -> None:
    done = subprocess.run(["bash", str(DEPLOY / "install-pi.sh"), "--dry-run", "--user", "kiosk_1",
                           "--prefix", "/opt/tile-scribe.2/"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert "user kiosk_1, virtual environment /opt/tile-scribe.2/venv" in done.stdout


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
