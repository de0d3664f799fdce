"""Durable file writes for the game journal: every file replaced atomically, so a kill or a power cut
leaves either the old or the new file, never a torn one.

:func:`write_atomic` writes a temporary file beside the target (``NAME.tmp``), flushes and fsyncs
it, renames it over the target (``os.replace``, atomic on POSIX) and fsyncs the folder so that the
rename itself survives a power cut. A kill leaves at most a stale ``*.tmp``, which the journal's
recovery (tilescribe.recovery) removes.

Kill points, for the reliability tests (tests/reliability/) and bench/bench_reliability.py: with
the environment variable ``TILESCRIBE_KILL_AT=N`` the process ends at once (``os._exit(137)``, as
a SIGKILL would: no clean-up, no flush of Python's buffers) at the N-th write point (1-based).
Each :func:`write_atomic` has three: the temporary file half written, the temporary file complete
and fsynced, and the target replaced before the folder's fsync; :func:`kill_point` marks others,
and :func:`passed_points` counts them (a run with a kill point past its last counts its points).
Without the variable a write point costs one dictionary look-up.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

#: The environment variable naming the write point at which the process is killed.
KILL_AT = "TILESCRIBE_KILL_AT"
#: The suffix of a temporary file.
TMP_SUFFIX = ".tmp"

_passed = 0


def kill_point() -> None:
    """One write point: ends the process here when it is the one ``TILESCRIBE_KILL_AT`` names."""
    global _passed
    target = os.environ.get(KILL_AT)
    if target is None:
        return
    _passed += 1
    if _passed == int(target):
        os._exit(137)


def passed_points() -> int:
    """The write points this process has passed (counted only while ``TILESCRIBE_KILL_AT`` is set)."""
    return _passed


def fsync_dir(folder: Path) -> None:
    """Make the entries of ``folder`` (files made, renamed or removed there) durable."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes | str) -> None:
    """Replace ``path`` with ``data`` (text is written as UTF-8), atomically and durably; a write that
    fails leaves ``path`` as it was and no temporary file.

    Raises:
        OSError: the file cannot be written.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    tmp = path.with_name(path.name + TMP_SUFFIX)
    try:
        with tmp.open("wb") as f:
            half = len(raw) // 2
            f.write(raw[:half])
            f.flush()
            kill_point()
            f.write(raw[half:])
            f.flush()
            os.fsync(f.fileno())
        kill_point()
        os.replace(tmp, path)
    except BaseException:  # a write that failed (a full disk, a folder in the way) leaves no temporary
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise
    kill_point()
    fsync_dir(path.parent)


def remove(path: Path) -> None:
    """Remove a file (gone already is fine) and make its removal durable.

    Raises:
        OSError: the file cannot be removed.
    """
    try:
        path.unlink()
    except FileNotFoundError:
        return
    fsync_dir(path.parent)
