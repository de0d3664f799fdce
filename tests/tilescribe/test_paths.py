"""The user folders come from platformdirs (the XDG variables move them on Linux), and
``tilescribe run`` reads the settings file found there; tested through the real command line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tilescribe import paths

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="XDG folders are Linux's")


def xdg_env(root: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "XDG_DATA_HOME": str(root / "data"),
        "XDG_CONFIG_HOME": str(root / "config"),
        "XDG_CACHE_HOME": str(root / "cache"),
    }


def tilescribe(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tilescribe.cli", *args],
        capture_output=True,
        text=True,
        env=xdg_env(root),
        cwd=REPO,
        timeout=120,
    )


def test_folders_follow_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in xdg_env(tmp_path).items():
        if key.startswith("XDG_"):
            monkeypatch.setenv(key, value)
    assert paths.games_dir() == tmp_path / "data" / "tilescribe" / "games"
    assert paths.settings_file() == tmp_path / "config" / "tilescribe" / "settings.toml"
    assert paths.cache_dir() == tmp_path / "cache" / "tilescribe"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert paths.data_dir() == Path.home() / ".local" / "share" / "tilescribe"


def test_games_and_run_use_the_user_folders(tmp_path: Path) -> None:
    listed = tilescribe(tmp_path, "games")
    assert (
        listed.returncode == 0
        and listed.stdout.strip() == f"no games in {tmp_path / 'data/tilescribe/games'}"
    )
    settings = tmp_path / "config" / "tilescribe" / "settings.toml"
    settings.parent.mkdir(parents=True)
    settings.write_text("modulus = 11\ncolour = 'red'\n", encoding="utf-8")
    video = tmp_path / "game.mp4"
    video.write_bytes(b"")
    run = tilescribe(tmp_path, "run", "--source", str(video), "--headless", "--resume", "no")
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert f"settings file {str(settings)!r}" in run.stderr and "'colour'" in run.stderr
    given = tmp_path / "other.toml"
    given.write_text("modulus = 'eleven'\n", encoding="utf-8")  # --settings wins over the default file
    run = tilescribe(tmp_path, "run", "--source", str(video), "--headless", "--settings", str(given))
    assert run.returncode == 2 and str(given) in run.stderr and "colour" not in run.stderr
