"""The game journal: one folder per game, written so that a kill or a power cut loses no committed turn.

A game folder (``GAMES/<yyyymmdd-hhmmss>[-N]/``) holds:

- ``transcript.txt``: the record, and the one source of truth: the engine's transcript format
  (engine.transcript) with PGN's habits (design/style.md, Records). Its header carries the settings
  tags and Event, Site, Date, Time (the start), Round, Result (``*`` until the game ends, then the
  points, ``"Ana 34, Bo 21"``) and Source. Every committed turn is one line with its points and
  the time of day it was committed as a clock comment (``%time``: PGN's ``%clk`` is a player's
  remaining clock time, which a MODLINSEQ table does not keep)::

      3. Ana: 4B2, 7B1 {+6} {[%time 20:14:03]}

  A Yushino, Super Wild or Holominoes game writes its own transcript the same way: its header
  starts with its Game, Players and own tags (tilescribe.settings.GAME_TAGS; no Round, which is
  Super Wild's round number), and each line holds the moves in its notation
  (``4. Bo: R7@3,0>3,1, R8@4,0 {+1} {[%time 20:14:03]}``).

  Nothing committed is erased: an undone turn stays as a comment line, and a corrected turn keeps
  its old line as a comment just before the amended one, each with the time of the change::

      {[%time 20:15:10] undone: 3. Ana: 4B2, 7B1 +6 [%time 20:14:03]}
      {[%time 20:16:40] corrected: 2. Bo: 9M1 +3 [%time 20:12:55]}
      {[%time 20:17:02] corrected: B2 is 7}

  (the last: a misread cell corrected before its turn was committed).

  Comment lines are skipped by the transcript reader, so ``tilescribe score`` replays the file.
- ``turns.jsonl``: the index of the committed turns, ``{"turn", "kind", "frame", "photo"}`` (the
  frame lets a recording resume after its last committed frame).
- ``photos/turn-001.jpg``...: the board at every committed play.
- ``settings.json``: the table settings (tilescribe.settings).
- ``lock``: the session writing the game holds a lock on it (tilescribe.locks; it names its pid).

Every file is replaced atomically (tilescribe.durable.write_atomic). A turn writes its photo, then
the index, then the transcript: the transcript's replacement is the commit. A kill before it
leaves a photo and an index entry ahead of the transcript, which the recovery at the next start
(tilescribe.recovery) drops; a kill after it loses nothing. Reading a game folder without writing it,
and listing the games: tilescribe.game_folder.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol

from engine.game import PLAY, Game, TurnRecord
from engine.record import format_tags, read_record
from engine.transcript import Transcript, TranscriptTurn, format_transcript, format_turn
from tilescribe.durable import kill_point, remove, write_atomic
from tilescribe.game_folder import (
    CLOCK,
    GAMES_LOCK,
    GAMES_LOCK_WAIT,
    LOCK,
    PHOTOS,
    SETTINGS,
    TRANSCRIPT,
    TURNS,
    UNFINISHED,
    JournalError,
    has_ended,
    index_text,
    read_game,
    replayed,
    result_row,
)
from tilescribe.locks import Lock, LockedError, holder_text
from tilescribe.settings import TableSettings
from tilescribe.transcript_game import TableRecord

if TYPE_CHECKING:
    import numpy as np


class GameInUseError(JournalError):
    """Another process holds the game (its session is running).

    Attributes:
        folder: the game folder.
        pid: the holder's process id (None when unknown).
    """

    def __init__(self, folder: Path, pid: int | None) -> None:
        super().__init__(f"game {folder.name} ({folder}) is in use by {holder_text(pid)}")
        self.folder = folder
        self.pid = pid


#: A committed turn as the journal writes it: MODLINSEQ's engine record or another game's line.
JournalTurn = TurnRecord | TableRecord


class CommittedGame(Protocol):
    """What the journal needs of a game: its committed turns and points."""

    @property
    def history(self) -> Sequence[JournalTurn]:
        """The committed turns in order."""
        ...

    @property
    def scores(self) -> Mapping[str, int]:
        """Points by player, in turn order."""
        ...


def now_clock() -> str:
    """The wall-clock time of day as the clock comments write it, ``HH:MM:SS``."""
    return time.strftime("%H:%M:%S")


def turn_line(record: JournalTurn, clock: str) -> str:
    """A committed turn's line: ``3. Ana: 4B2, 7B1 {+6} {[%time 20:14:03]}``."""
    if isinstance(record, TableRecord):
        text = record.text()
    else:
        comment = f"+{record.score}" if record.kind == PLAY else None
        turn = TranscriptTurn(record.number, record.player, record.kind, record.placements, comment)
        text = format_turn(turn)
    return f"{text} {{[%time {clock}]}}"


def comment_line(line: str, note: str, clock: str) -> str:
    """A taken-back turn line kept as a comment line: ``{[%time T] undone: 3. Ana: 4B2 +6 ...}``."""
    flat = " ".join(line.replace("{", " ").replace("}", " ").split())
    return f"{{[%time {clock}] {note}: {flat}}}"


def _turn_rows(lines: list[str]) -> list[int]:
    """The 0-based indices of the committed turns' lines."""
    _, records, _ = read_record("\n".join(lines) + "\n")
    return [r.line - 1 for r in records]


def _new_folder(games_dir: Path) -> Path:
    """Make a new, empty game folder named by the time (``-2``, ``-3``... when taken): exclusive."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(1, 1000):
        folder = games_dir / (stamp if n == 1 else f"{stamp}-{n}")
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        return folder
    raise FileExistsError(f"{games_dir}: no free folder name for {stamp}")


class Journal:
    """The journal of one game, held by this process (use :meth:`create` or :meth:`open`; :meth:`close`).

    Attributes:
        folder: the game folder.
        settings: the table settings the game was started with.
    """

    def __init__(
        self, folder: Path, settings: TableSettings, lock: Lock, lines: list[str], index: list[dict[str, Any]]
    ) -> None:
        self.folder = folder
        self.settings = settings
        self._lock = lock
        self._lines = lines
        self._index = index

    @property
    def transcript_path(self) -> Path:
        """The transcript file."""
        return self.folder / TRANSCRIPT

    @property
    def is_finished(self) -> bool:
        """True once the game ended (its Result tag is written)."""
        return has_ended(self.folder)

    @classmethod
    def create(
        cls, games_dir: Path, settings: TableSettings, tags: tuple[tuple[str, str], ...] = ()
    ) -> Journal:
        """Start the journal of a new game in a new folder under ``games_dir`` (made if missing).

        Args:
            games_dir: the folder holding every game's folder.
            settings: the table settings.
            tags: extra header tags (e.g. ``("Source", "pi")``) after Event, Site, Date, Time,
                Round and Result.

        Raises:
            JournalError: the folder cannot be made or written, or the games folder stays busy.
        """
        try:
            games_dir.mkdir(parents=True, exist_ok=True)
            with Lock(games_dir / GAMES_LOCK, wait=GAMES_LOCK_WAIT):
                folder = _new_folder(games_dir)
                lock = Lock(folder / LOCK)
                kill_point()
                write_atomic(folder / SETTINGS, json.dumps(settings.to_dict(), indent=2) + "\n")
                (folder / PHOTOS).mkdir()
                write_atomic(folder / TURNS, "")
                record = (
                    ("Event", "Casual game"),
                    ("Site", socket.gethostname()),
                    ("Date", time.strftime("%Y.%m.%d")),
                    ("Time", now_clock()),
                    ("Round", "-"),
                    ("Result", UNFINISHED),
                    *tags,
                )
                if settings.table_game is None:
                    text = format_transcript(Transcript(settings.game, (), record))
                else:
                    pairs = [*settings.header_tags, *(t for t in record if t[0] != "Round")]
                    text = "\n".join(format_tags(pairs)) + "\n\n"
                write_atomic(folder / TRANSCRIPT, text)  # the game exists from here on
        except LockedError as exc:
            raise JournalError(f"games folder {games_dir} stays busy: {exc}") from exc
        except OSError as exc:
            raise JournalError(f"cannot start a game journal under {str(games_dir)!r}: {exc}") from exc
        return cls(folder, settings, lock, text.splitlines(), [])

    @classmethod
    def open(cls, folder: Path) -> Journal:
        """Open an existing game to go on with it, locking it. The lock is taken while the games folder's
        lock is held, so that a recovery of the folder (which holds each game's lock a moment) is
        waited for rather than taken for a session playing the game.

        Raises:
            GameInUseError: another process holds it.
            JournalError: it cannot be read (see :func:`read_game`), or the games folder stays busy.
        """
        try:
            with Lock(folder.parent / GAMES_LOCK, wait=GAMES_LOCK_WAIT):
                try:
                    lock = Lock(folder / LOCK)
                except LockedError as exc:
                    raise GameInUseError(folder, exc.pid) from exc
        except LockedError as exc:
            raise JournalError(f"games folder {folder.parent} stays busy: {exc}") from exc
        except OSError as exc:
            raise JournalError(f"{folder / LOCK}: cannot be opened ({exc.strerror or exc})") from exc
        try:
            record = read_game(folder)
        except JournalError:
            lock.release()
            raise
        index = list(record.index[: len(record.game.history)])
        return cls(folder, record.settings, lock, record.text.splitlines(), index)

    def close(self) -> None:
        """Give the game up (another session may open it)."""
        self._lock.release()

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- writing ----------------------------------------------------------------------------
    def record(self, record: JournalTurn, frame: int = -1, photo: np.ndarray | None = None) -> None:
        """Commit one turn: its photo, its index entry, then its transcript line (the commit).

        Args:
            record: the turn as the engine committed it (the next turn of the journal).
            frame: index of the frame whose reading was committed (-1 when none).
            photo: the board at the commit, BGR uint8 H x W x 3, or None.

        Raises:
            JournalError: the turn is not the journal's next one, or a file cannot be written.
        """
        committed = len(_turn_rows(self._lines))
        if record.number != committed + 1:
            raise JournalError(f"{self.transcript_path}: turn {record.number} after {committed} turns")
        photo_name = None
        try:
            if photo is not None:
                import cv2  # only where photos are taken: listing and exporting games stay light

                photo_name = f"{PHOTOS}/turn-{record.number:03d}.jpg"
                ok, jpeg = cv2.imencode(".jpg", photo)
                if not ok:
                    raise OSError(f"cannot encode the photo of turn {record.number} as JPEG")
                write_atomic(self.folder / photo_name, jpeg.tobytes())
            entry = {"turn": record.number, "kind": record.kind, "frame": frame, "photo": photo_name}
            index = [*self._index[: record.number - 1], entry]
            self._write_index(index)
            self._write_transcript([*self._lines, turn_line(record, now_clock())])
        except OSError as exc:
            raise JournalError(f"{self.folder}: cannot record turn {record.number}: {exc}") from exc

    def rewrite(self, game: CommittedGame, note: str) -> None:
        """Bring the record in line with ``game`` after an undo or a correction, erasing nothing.

        A committed turn line that ``game`` no longer holds (undone) or holds otherwise (amended)
        becomes a comment line with ``note`` and the time; an amended turn's new line follows it,
        with the time the turn was first committed. Photos of undone turns are removed.

        Args:
            game: the game as it now stands.
            note: what happened, e.g. ``"undone"`` or ``"corrected"``.

        Raises:
            JournalError: a file cannot be written.
        """
        clock = now_clock()
        lines = list(self._lines)
        history = game.history
        for i, row in reversed(list(enumerate(_turn_rows(lines)))):
            old = lines[row]
            found = CLOCK.search(old)
            played = found.group(1) if found else clock
            if i < len(history) and turn_line(history[i], played) == old:
                continue
            replacement = [comment_line(old, note, clock)]
            if i < len(history):
                replacement.append(turn_line(history[i], played))
            lines[row : row + 1] = replacement
        lines += [turn_line(r, clock) for r in history[len(_turn_rows(lines)) :]]
        n = len(history)
        try:
            self._write_transcript(lines)
            if len(self._index) > n:
                stale = [e["photo"] for e in self._index[n:] if e.get("photo")]
                self._write_index(self._index[:n])
                for name in stale:
                    remove(self.folder / name)
        except OSError as exc:
            raise JournalError(f"{self.folder}: cannot rewrite the journal: {exc}") from exc

    def note(self, text: str) -> None:
        """Add a comment line with the time, e.g. a misread cell corrected before its turn was committed.

        Raises:
            JournalError: the transcript cannot be written.
        """
        flat = " ".join(text.replace("{", "(").replace("}", ")").split())
        try:
            self._write_transcript([*self._lines, f"{{[%time {now_clock()}] {flat}}}"])
        except OSError as exc:
            raise JournalError(f"{self.folder}: cannot write a note: {exc}") from exc

    def finish(self, game: CommittedGame) -> None:
        """Write the Result tag: the final points in turn order (``"Ana 34, Bo 21"``).

        Raises:
            JournalError: the transcript cannot be written.
        """
        result = ", ".join(f"{p} {s}" for p, s in game.scores.items())
        tag = format_tags([("Result", result)])[0]
        lines = list(self._lines)
        at = result_row(lines)
        if at is None:  # a record begun without one
            lines.insert(lines.index("") if "" in lines else 0, tag)
        else:
            lines[at] = tag
        try:
            self._write_transcript(lines)
        except OSError as exc:
            raise JournalError(f"{self.folder}: cannot mark the game finished: {exc}") from exc

    def _write_transcript(self, lines: list[str]) -> None:
        write_atomic(self.transcript_path, "\n".join(lines) + "\n")
        self._lines = lines

    def _write_index(self, index: list[dict[str, Any]]) -> None:
        write_atomic(self.folder / TURNS, index_text(index))
        self._index = index

    # -- reading ----------------------------------------------------------------------------
    def restore(self) -> Game:
        """The MODLINSEQ game as it stood at the last committed turn (replaying the transcript).

        Raises:
            JournalError: a turn does not replay.
        """
        return replayed(self.transcript_path, self.text())[1]

    def text(self) -> str:
        """The transcript as written so far (a game of any kind resumes from it)."""
        return "\n".join(self._lines) + "\n"

    def last_frame(self) -> int:
        """Index of the last frame a committed turn came from (-1 when none)."""
        return max((int(e.get("frame", -1)) for e in self._index), default=-1)
