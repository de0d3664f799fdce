"""Where tilescribe keeps its files: the platform's user folders (platformdirs), app name "tilescribe".

On Linux (XDG; ``XDG_DATA_HOME``, ``XDG_CONFIG_HOME`` and ``XDG_CACHE_HOME`` move them):

- data: ``~/.local/share/tilescribe``; the game journals in its ``games/``;
- config: ``~/.config/tilescribe``; the settings file ``settings.toml``, read by ``tilescribe run``
  when no ``--settings`` is given and the file exists;
- cache: ``~/.cache/tilescribe``; the demo recording, made on first use.

macOS and Windows get their own conventions (``~/Library/Application Support/tilescribe``,
``%LOCALAPPDATA%\\tilescribe``, ...). Nothing is created here: the callers create what they write.
"""

from __future__ import annotations

from pathlib import Path

import platformdirs

APP = "tilescribe"


def data_dir() -> Path:
    """The user's data folder for tilescribe."""
    return Path(platformdirs.user_data_dir(APP))


def config_dir() -> Path:
    """The user's configuration folder for tilescribe."""
    return Path(platformdirs.user_config_dir(APP))


def cache_dir() -> Path:
    """The user's cache folder for tilescribe (safe to delete)."""
    return Path(platformdirs.user_cache_dir(APP))


def games_dir() -> Path:
    """The default folder of the game journals: ``data_dir() / "games"``."""
    return data_dir() / "games"


def settings_file() -> Path:
    """The default settings file: ``config_dir() / "settings.toml"`` (it may not exist)."""
    return config_dir() / "settings.toml"
