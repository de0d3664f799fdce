"""Input files as text, and the paths they name: read as UTF-8 or refused, kept inside their folder.

Every text file tilescribe reads (board.json, tile-set profiles, settings, recordings' frames.json
and events.jsonl) goes through :func:`read_text`, and every path such a file names (a recording's
frames and board, a profile's exemplars) through :func:`inside`, so that a file can neither crash
the reader with bytes that are not UTF-8 nor point it at ``../../../../etc/passwd``.
"""

from __future__ import annotations

from pathlib import Path


class InputFileError(ValueError):
    """A file cannot be read as UTF-8 text, or names a path outside its folder; names the file."""


def read_text(path: str | Path) -> str:
    """The whole file as UTF-8 text.

    Raises:
        InputFileError: the file cannot be read (missing, a folder, no permission) or is not UTF-8;
            the message names the file, and the offset of the first bad byte.
    """
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        bad = exc.object[exc.start : exc.start + 1].hex()
        raise InputFileError(f"{path}: not UTF-8 text (byte 0x{bad} at offset {exc.start})") from exc
    except OSError as exc:
        raise InputFileError(f"{path}: cannot read ({exc.strerror or exc})") from exc


def inside(folder: str | Path, name: str, where: str) -> Path:
    """The path ``name`` names relative to ``folder``, when it stays inside the folder.

    Args:
        folder: the folder of the file that names ``name``.
        name: the relative path as written in that file.
        where: the naming file and key, for the message (``"rec/frames.json: frame 3 'file'"``).

    Returns:
        ``folder / name`` (not resolved: links inside the folder keep their names).

    Raises:
        InputFileError: ``name`` is empty, absolute, holds a control character, or leads outside
            ``folder`` (through ``..`` or a symbolic link).
    """
    if not isinstance(name, str) or not name or not name.isprintable():
        raise InputFileError(f"{where}: {name!r} is not a file name")
    base = Path(folder)
    target = base / name
    if Path(name).is_absolute() or not target.resolve().is_relative_to(base.resolve()):
        raise InputFileError(f"{where}: {name!r} leads outside {str(base)!r}")
    return target
