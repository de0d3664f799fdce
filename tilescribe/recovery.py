"""Recovery of the games folder at start: repairs what a kill can leave, and says what it did.

Run by ``tilescribe run`` before it resumes or starts a game, holding the games folder's lock;
games held by a running session are left alone, and so is every folder that holds anything but a
game's files (``--games`` may name a folder that holds other things too: they are not games to
repair). Per game folder, one line per repair:

- a stale temporary file (``*.tmp``: a write cut short) is removed (in a finished game, the only
  thing a kill can leave: its other checks are skipped, so a start stays quick with many games);
- a folder without a transcript (a game killed while it was being made: no turn was committed)
  is removed when it holds no photo, else moved aside;
- a torn last line of the transcript (a journal written before every file was replaced
  atomically) is cut off;
- the turns index is brought in line with the transcript: entries ahead of it (a turn killed
  before its commit) dropped, missing ones (behind it) added with the photo found on disk;
- photos of no committed turn are removed;
- a game that cannot be read (not UTF-8, malformed, a turn that does not replay, unreadable
  settings) is moved into ``damaged/`` under the games folder, with the reason.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

from tilescribe.durable import TMP_SUFFIX, fsync_dir, remove, write_atomic
from tilescribe.game_folder import (
    DAMAGED,
    GAMES_LOCK,
    GAMES_LOCK_WAIT,
    LEGACY_FINISHED,
    LOCK,
    PHOTOS,
    SETTINGS,
    TRANSCRIPT,
    TURNS,
    JournalError,
    game_folders,
    has_ended,
    index_text,
    read_game,
    read_index,
)
from tilescribe.locks import Lock, LockedError

#: The entries of a game folder.
_GAME_FILES = frozenset({TRANSCRIPT, TURNS, SETTINGS, PHOTOS, LOCK, LEGACY_FINISHED})
#: A turn's photo in ``photos/`` (or its temporary).
_TURN_PHOTO = re.compile(r"turn-\d{3,}\.jpg(\.tmp)?")


def recover(games_dir: Path) -> list[str]:
    """Repair every game folder under ``games_dir`` that no running session holds.

    Returns:
        One line per repair, naming the folder (empty when all was sound).

    Raises:
        JournalError: the games folder stays busy or cannot be written.
    """
    if not games_dir.is_dir():
        return []
    said: list[str] = []
    try:
        with Lock(games_dir / GAMES_LOCK, wait=GAMES_LOCK_WAIT):
            for folder in game_folders(games_dir):
                if not _is_game(folder):
                    continue
                try:
                    lock = Lock(folder / LOCK)
                except LockedError:
                    continue  # a running session's game
                with lock:
                    said += _recover_game(folder)
    except LockedError as exc:
        raise JournalError(f"games folder {games_dir} stays busy: {exc}") from exc
    except OSError as exc:
        raise JournalError(f"games folder {games_dir}: cannot be repaired: {exc}") from exc
    return said


def _is_game(folder: Path) -> bool:
    """True when every entry of ``folder`` is one of a game's files (tilescribe.journal's), or the
    temporary of one, and every photo is a turn's."""
    try:
        if not {p.name.removesuffix(TMP_SUFFIX) for p in folder.iterdir()} <= _GAME_FILES:
            return False
        photos = folder / PHOTOS
        return not photos.exists() or all(_TURN_PHOTO.fullmatch(p.name) for p in photos.iterdir())
    except OSError:  # a folder that cannot be listed is no game of ours
        return False


def move_aside(folder: Path, reason: str) -> str:
    """Move an unreadable game into ``damaged/`` beside it; returns the line that says so."""
    damaged = folder.parent / DAMAGED
    damaged.mkdir(exist_ok=True)
    target = damaged / folder.name
    n = 1
    while target.exists():
        n += 1
        target = damaged / f"{folder.name}-{n}"
    reason = reason.replace(f"{folder}{os.sep}", "")
    os.rename(folder, target)
    fsync_dir(damaged)
    fsync_dir(folder.parent)
    return f"{folder}: cannot be read ({reason}); moved to {target}, a new game starts instead"


def _recover_game(folder: Path) -> list[str]:
    said = []
    for tmp in sorted([*folder.glob("*" + TMP_SUFFIX), *(folder / PHOTOS).glob("*" + TMP_SUFFIX)]):
        remove(tmp)
        said.append(f"{folder}: removed {tmp.relative_to(folder)} (a write cut short)")
    if not (folder / TRANSCRIPT).is_file():
        if any((folder / PHOTOS).glob("*")):
            return [*said, move_aside(folder, f"no {TRANSCRIPT}")]
        shutil.rmtree(folder)
        fsync_dir(folder.parent)
        return [*said, f"{folder}: removed (a game killed while it was being made, with no turn)"]
    if has_ended(folder):  # every turn was whole before the Result was written: nothing else to mend
        return said
    raw = (folder / TRANSCRIPT).read_bytes()
    if raw and not raw.endswith(b"\n"):
        write_atomic(folder / TRANSCRIPT, raw[: raw.rfind(b"\n") + 1])
        said.append(f"{folder}: cut off the torn last line of {TRANSCRIPT} (never committed)")
    try:
        record = read_game(folder)
    except JournalError as exc:
        return [*said, move_aside(folder, str(exc))]
    turns = len(record.game.history)
    index = _repaired_index(folder, read_index(folder), [r.kind for r in record.game.history])
    raw_index = (folder / TURNS).read_bytes() if (folder / TURNS).is_file() else b""
    if raw_index != index_text(index).encode():
        write_atomic(folder / TURNS, index_text(index))
        said.append(f"{folder}: {TURNS} brought in line with the transcript's {turns} turns")
    kept = {folder / e["photo"] for e in index if e.get("photo")}
    for photo in sorted((folder / PHOTOS).glob("*")):
        if photo not in kept and photo.is_file():
            remove(photo)
            said.append(f"{folder}: removed {photo.relative_to(folder)} (no committed turn has it)")
    return said


def _repaired_index(folder: Path, index: list[dict[str, Any]], kinds: list[str]) -> list[dict[str, Any]]:
    """The index with one entry per committed turn: entries ahead of the transcript dropped, an entry
    whose kind disagrees replaced, missing ones added (their frame unknown: -1)."""
    out = []
    for turn, kind in enumerate(kinds, start=1):
        entry = index[turn - 1] if turn <= len(index) and index[turn - 1].get("kind") == kind else None
        if entry is None:
            photo = f"{PHOTOS}/turn-{turn:03d}.jpg"
            entry = {
                "turn": turn,
                "kind": kind,
                "frame": -1,
                "photo": photo if (folder / photo).is_file() else None,
            }
        elif entry.get("photo") and not (folder / entry["photo"]).is_file():
            entry = {**entry, "photo": None}
        out.append(entry)
    return out
