"""Locks on the games folder and on each game, so that two sessions never write one journal.

An advisory ``flock`` on a lock file, taken without waiting (or waiting a bounded time for the
games folder's short sections): the kernel drops it when its process ends, however it ends, so a
killed session never leaves a game locked. The holder writes its process id into the lock file;
a process refused names the holder from it.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path
from types import TracebackType


class LockedError(Exception):
    """The lock is held by another process.

    Attributes:
        path: the lock file.
        pid: the holder's process id, None when it could not be read.
    """

    def __init__(self, path: Path, pid: int | None) -> None:
        super().__init__(f"{path} is held by {holder_text(pid)}")
        self.path = path
        self.pid = pid


def holder_text(pid: int | None) -> str:
    """``process 1234``: the holder as the messages name it."""
    return "another process" if pid is None else f"process {pid}"


class Lock:
    """An exclusive lock on ``path`` held by this process (a context manager; :meth:`release` ends it).

    Args:
        path: the lock file (made when missing).
        wait: seconds to wait for a held lock (0: refuse at once).

    Raises:
        LockedError: another process holds it (still, after ``wait`` seconds).
        OSError: the lock file cannot be opened.
    """

    def __init__(self, path: Path, wait: float = 0.0) -> None:
        self.path = path
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            deadline = time.monotonic() + wait
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise LockedError(path, _read_pid(fd)) from None
                    time.sleep(0.02)
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except BaseException:  # refused, or the lock file cannot be written (a full disk): not held
            os.close(fd)
            raise
        self._fd: int | None = fd

    def release(self) -> None:
        """Give the lock up (the file stays: removing it would race with a process taking it)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> Lock:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()


def _read_pid(fd: int) -> int | None:
    """The holder's pid from the lock file (it writes it just after taking the lock)."""
    for _ in range(10):
        text = os.pread(fd, 32, 0).decode(errors="replace").strip()
        if text.isdigit():
            return int(text)
        time.sleep(0.01)
    return None
