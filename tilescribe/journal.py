"""The game journal: one folder per game, written so that a crash or power cut loses nothing.

Issue 5, "The game journal". A game folder (``GAMES/<yyyymmdd-hhmmss>/``) holds:

- ``transcript.txt``: the engine's transcript format (engine.transcript); the header is written
  when the game starts and every committed turn is appended as one line and flushed to disk
  (fsync) before the kiosk shows it. An undo rewrites the file atomically (temporary file, fsync,
  rename).
- ``turns.jsonl``: per committed turn ``{"turn", "kind", "frame", "photo"}`` (the frame index lets a
  recording resume after its last committed frame), appended and fsynced like the transcript.
- ``photos/turn-001.jpg``...: the board at every committed play.
- ``settings.json``: the table settings (tilescribe.settings).
- ``finished.json``: written when the game ends, with the final scores; a folder without it is an
  unfinished game that ``tilescribe run`` offers to resume.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engine.game import PLAY, Game, TurnRecord
from engine.transcript import (
    Transcript,
    TranscriptTurn,
    format_transcript,
    format_turn,
    parse_transcript,
    replay,
)
from tilescribe.settings import SettingsError, TableSettings

TRANSCRIPT = "transcript.txt"
TURNS = "turns.jsonl"
SETTINGS = "settings.json"
FINISHED = "finished.json"
PHOTOS = "photos"


class JournalError(Exception):
    """A game folder is missing a file or holds something unreadable; the message names the file."""


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _append_line(path: Path, line: str) -> None:
    """Append one line and make it durable (flush + fsync)."""
    with path.open("a", encoding="utf-8") as f:
        f.write(line + "\n")
        f.flush()
        os.fsync(f.fileno())


def _write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a crash leaves either the old or the new file."""
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def _turn_line(record: TurnRecord) -> str:
    comment = f"+{record.score}" if record.kind == PLAY else None
    return format_turn(TranscriptTurn(record.number, record.player, record.kind, record.placements, comment))


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One recorded game, as ``tilescribe games`` lists it.

    Attributes:
        folder: the game folder.
        players: player names in turn order.
        scores: points per player after the last committed turn.
        turns: committed turns.
        is_finished: True once the game ended; False for a game that can be resumed.
        problems: transcript errors found while reading (empty for a sound journal).
    """

    folder: Path
    players: tuple[str, ...]
    scores: dict[str, int]
    turns: int
    is_finished: bool
    problems: tuple[str, ...] = ()


class Journal:
    """The journal of one game (use :meth:`create` or :meth:`open`).

    Attributes:
        folder: the game folder.
        settings: the table settings the game was started with.
    """

    def __init__(self, folder: Path, settings: TableSettings) -> None:
        self.folder = folder
        self.settings = settings

    @property
    def transcript_path(self) -> Path:
        """The transcript file."""
        return self.folder / TRANSCRIPT

    @property
    def is_finished(self) -> bool:
        """True once the game ended."""
        return (self.folder / FINISHED).is_file()

    @classmethod
    def create(cls, games_dir: Path, settings: TableSettings,
               tags: tuple[tuple[str, str], ...] = ()) -> Journal:
        """Start the journal of a new game in a new folder under ``games_dir``.

        Args:
            games_dir: the folder holding every game's folder (made if missing).
            settings: the table settings.
            tags: extra transcript header tags (e.g. ``("Source", "pi")``); a Date tag is added.

        Raises:
            JournalError: the folder cannot be made or written.
        """
        stamp = time.strftime("%Y%m%d-%H%M%S")
        try:
            games_dir.mkdir(parents=True, exist_ok=True)
            folder = games_dir / stamp
            n = 1
            while folder.exists():
                n += 1
                folder = games_dir / f"{stamp}-{n}"
            (folder / PHOTOS).mkdir(parents=True)
            _write_atomic(folder / SETTINGS, json.dumps(settings.to_dict(), indent=2) + "\n")
            header = Transcript(settings.game, (), (("Date", time.strftime("%Y.%m.%d")), *tags))
            _write_atomic(folder / TRANSCRIPT, format_transcript(header))
            _write_atomic(folder / TURNS, "")
            _fsync_dir(games_dir)
        except OSError as exc:
            raise JournalError(f"cannot start a game journal under {str(games_dir)!r}: {exc}") from exc
        return cls(folder, settings)

    @classmethod
    def open(cls, folder: Path) -> Journal:
        """Open an existing game folder.

        Raises:
            JournalError: ``settings.json`` or the transcript is missing or unreadable.
        """
        path = folder / SETTINGS
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            settings = TableSettings.from_dict(data, str(path))
        except (OSError, json.JSONDecodeError, SettingsError) as exc:
            raise JournalError(f"{path}: cannot read the game's settings ({exc})") from exc
        if not (folder / TRANSCRIPT).is_file():
            raise JournalError(f"{folder / TRANSCRIPT}: missing")
        return cls(folder, settings)

    # -- writing ----------------------------------------------------------------------------
    def record(self, record: TurnRecord, frame: int = -1, photo: np.ndarray | None = None) -> None:
        """Append one committed turn: photo first, then the transcript line and its metadata, fsynced.

        Args:
            record: the turn as the engine committed it.
            frame: index of the frame whose reading was committed (-1 when none).
            photo: the board at the commit, BGR uint8 H x W x 3, or None.

        Raises:
            JournalError: a file cannot be written.
        """
        photo_name = None
        try:
            if photo is not None:
                photo_name = f"{PHOTOS}/turn-{record.number:03d}.jpg"
                if not cv2.imwrite(str(self.folder / photo_name), photo):
                    raise OSError(f"cv2.imwrite failed for {photo_name}")
            _append_line(self.transcript_path, _turn_line(record))
            meta = {"turn": record.number, "kind": record.kind, "frame": frame, "photo": photo_name}
            _append_line(self.folder / TURNS, json.dumps(meta))
        except OSError as exc:
            raise JournalError(f"{self.folder}: cannot record turn {record.number}: {exc}") from exc

    def rewrite(self, game: Game) -> None:
        """Rewrite the transcript and metadata to match ``game`` (after an undo), atomically.

        Raises:
            JournalError: a file cannot be read or written.
        """
        try:
            text, _ = self._read_transcript()
            header = text.split("\n\n", 1)[0] + "\n\n"
            lines = [_turn_line(r) + "\n" for r in game.history]
            kept = [m for m in self.turn_metadata() if m["turn"] <= len(game.history)]
            _write_atomic(self.transcript_path, header + "".join(lines))
            _write_atomic(self.folder / TURNS, "".join(json.dumps(m) + "\n" for m in kept))
        except OSError as exc:
            raise JournalError(f"{self.folder}: cannot rewrite the journal: {exc}") from exc

    def finish(self, game: Game) -> None:
        """Mark the game finished, with its final scores and winners."""
        data = {"scores": game.scores, "winners": game.winners(), "turns": len(game.history)}
        try:
            _write_atomic(self.folder / FINISHED, json.dumps(data, indent=2) + "\n")
        except OSError as exc:
            raise JournalError(f"{self.folder}: cannot mark the game finished: {exc}") from exc

    # -- reading ----------------------------------------------------------------------------
    def _read_transcript(self) -> tuple[str, Transcript]:
        try:
            text = self.transcript_path.read_text(encoding="utf-8")
        except OSError as exc:
            raise JournalError(f"{self.transcript_path}: {exc}") from exc
        if not text.endswith("\n"):  # a line torn by a power cut was never committed
            text = text[: text.rfind("\n") + 1]
        transcript, errors = parse_transcript(text)
        if errors:
            raise JournalError(f"{self.transcript_path}: {'; '.join(str(e) for e in errors)}")
        return text, transcript

    def restore(self) -> Game:
        """The game as it stood at the last committed turn (replaying the transcript).

        Raises:
            JournalError: the transcript cannot be read, has errors, or a turn does not replay.
        """
        _, transcript = self._read_transcript()
        game, turns = replay(transcript)
        bad = [t for t in turns if t.error is not None]
        if bad:
            first = bad[0]
            where = f"{self.transcript_path}:{first.turn.line}"
            raise JournalError(f"{where}: turn does not replay: {first.error}")
        return game

    def turn_metadata(self) -> list[dict[str, Any]]:
        """The ``turns.jsonl`` entries, in order (a torn last line after a crash is ignored)."""
        path = self.folder / TURNS
        out = []
        for line in path.read_text(encoding="utf-8").splitlines() if path.is_file() else []:
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                break
        return out

    def last_frame(self) -> int:
        """Index of the last frame a committed turn came from (-1 when none)."""
        frames = [int(m.get("frame", -1)) for m in self.turn_metadata()]
        return max(frames, default=-1)


def game_folders(games_dir: Path) -> Iterator[Path]:
    """Every game folder under ``games_dir``, oldest first."""
    if games_dir.is_dir():
        yield from sorted(p for p in games_dir.iterdir() if (p / TRANSCRIPT).is_file())


def summarise(folder: Path) -> GameSummary:
    """A summary of one game folder (problems are reported in the summary, not raised)."""
    try:
        journal = Journal.open(folder)
        game = journal.restore()
    except JournalError as exc:
        return GameSummary(folder, (), {}, 0, (folder / FINISHED).is_file(), (str(exc),))
    return GameSummary(folder, game.players, game.scores, len(game.history), journal.is_finished)


def latest_unfinished(games_dir: Path) -> Journal | None:
    """The most recent game that did not finish (to resume after a crash), or None."""
    for folder in reversed(list(game_folders(games_dir))):
        if not (folder / FINISHED).is_file():
            try:
                return Journal.open(folder)
            except JournalError:
                continue
    return None
