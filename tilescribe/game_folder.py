"""A recorded game as read from its folder, and the games folder's listing (nothing here writes).

A game folder (``GAMES/<yyyymmdd-hhmmss>[-N]/``) holds ``transcript.txt`` (the record: see
tilescribe.journal, which writes it), ``turns.jsonl`` (the index of the committed turns),
``photos/turn-NNN.jpg``, ``settings.json`` and ``lock``. :func:`read_game` reads one into a
:class:`GameRecord`; :func:`game_folders`, :func:`has_ended` and :func:`latest_unfinished` list and
sort the games without locking them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from calibration.files import InputFileError, read_text
from engine.game import Game
from engine.games import TableRules, rules_for
from engine.record import TAG_RE, format_tags, read_record
from engine.transcript import Transcript, parse_transcript, replay
from tilescribe.settings import SettingsError, TableSettings
from tilescribe.transcript_game import TranscriptGame

TRANSCRIPT = "transcript.txt"
TURNS = "turns.jsonl"
SETTINGS = "settings.json"
PHOTOS = "photos"
LOCK = "lock"
#: What marked a finished game before the Result tag did.
LEGACY_FINISHED = "finished.json"
#: The folder under the games folder that holds the games that could not be read.
DAMAGED = "damaged"
#: The games folder's own lock file (held while a game is made or the folder recovered).
GAMES_LOCK = ".lock"
#: The Result tag's value while the game goes on (PGN's).
UNFINISHED = "*"
#: Seconds a session waits for another one's short hold on the games folder.
GAMES_LOCK_WAIT = 30.0

_PHOTO = re.compile(rf"{PHOTOS}/turn-\d{{3,}}\.jpg")
#: A committed turn line's clock comment, ``{[%time 20:14:03]}``; group 1 is the time of day.
CLOCK = re.compile(r"\s*\{\[%time (\d\d:\d\d:\d\d)\]\}\s*$")


class JournalError(Exception):
    """A game folder cannot be read or written; the message names the file and the reason."""


def plain_turns(text: str) -> list[str]:
    """A record's committed turn lines without their clock comments (to compare with a transcript
    written elsewhere, e.g. a recording's truth)."""
    return [CLOCK.sub("", line) for line in text.splitlines() if line[:1].isdigit()]


def _index_entry(line: bytes, turn: int) -> dict[str, Any] | None:
    """One ``turns.jsonl`` line as an entry for ``turn``, None when torn or malformed."""
    try:
        entry = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    if (
        not isinstance(entry, dict)
        or entry.get("turn") != turn
        or not isinstance(entry.get("frame", -1), int)
    ):
        return None
    photo = entry.get("photo")
    if photo is not None and not (isinstance(photo, str) and _PHOTO.fullmatch(photo)):
        return None
    return entry


def read_index(folder: Path) -> list[dict[str, Any]]:
    """The ``turns.jsonl`` entries (``{"turn", "kind", "frame", "photo"}``) in order, up to the first
    that is torn or malformed."""
    path = folder / TURNS
    out: list[dict[str, Any]] = []
    if not path.is_file():
        return out
    for line in path.read_bytes().split(b"\n"):
        entry = _index_entry(line, len(out) + 1)
        if entry is None:
            break
        out.append(entry)
    return out


def index_text(index: list[dict[str, Any]]) -> str:
    """The ``turns.jsonl`` text of ``index``: one JSON object a line."""
    return "".join(json.dumps(e) + "\n" for e in index)


def replayed(path: Path, text: str) -> tuple[Transcript, Game]:
    """A record's text (``path``'s) parsed and replayed to the game after its last committed turn.

    Raises:
        JournalError: a line is malformed or a turn does not replay; the message names the file,
            the line (and column) and the reason.
    """
    transcript, errors = parse_transcript(text)
    if errors:
        first = errors[0]
        raise JournalError(f"{path}:{first.line}:{first.column}: {first.message}")
    try:
        game, turns = replay(transcript)
    except ValueError as exc:
        raise JournalError(f"{path}: cannot be replayed: {exc}") from exc
    bad = next((t for t in turns if t.error is not None), None)
    if bad is not None:
        raise JournalError(f"{path}:{bad.turn.line}: turn does not replay: {bad.error}")
    return transcript, game


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game folder as read, without a lock and without writing anything.

    Attributes:
        folder: the game folder.
        settings: the table settings the game was started with.
        text: the transcript's text up to its last complete line.
        game: the game after the last committed turn (MODLINSEQ's engine game, or another game's
            transcript, tilescribe.transcript_game.TranscriptGame).
        index: the ``turns.jsonl`` entries (see :func:`read_index`).
    """

    folder: Path
    settings: TableSettings
    text: str
    game: Game | TranscriptGame
    index: tuple[dict[str, Any], ...]

    def tag(self, name: str, default: str = "") -> str:
        """A header tag's value (Event, Site, Date, Result...)."""
        tags, _, _ = read_record(self.text)
        return next((t.value for t in tags if t.name.lower() == name.lower()), default)

    @property
    def result(self) -> str:
        """The Result tag: ``*`` while the game goes on."""
        return self.tag("Result", UNFINISHED)

    @property
    def is_finished(self) -> bool:
        """True once the game ended (a journal from before the Result tag has ``finished.json``)."""
        return self.result != UNFINISHED or (self.folder / LEGACY_FINISHED).is_file()


def _read_text(path: Path) -> str:
    """A game file's UTF-8 text.

    Raises:
        JournalError: missing, unreadable or not UTF-8 (the message names the file and the byte).
    """
    try:
        return read_text(path)
    except InputFileError as exc:
        raise JournalError(str(exc)) from exc


def read_game(folder: Path) -> GameRecord:
    """Read a game folder: settings, transcript (a torn last line is left out: never committed), index.

    Raises:
        JournalError: a file is missing, not UTF-8 or malformed, or a turn does not replay; the
            message names the file (and line) and the reason.
    """
    path = folder / SETTINGS
    try:
        settings = TableSettings.from_dict(json.loads(_read_text(path)), str(path))
    except (json.JSONDecodeError, SettingsError, TypeError, AttributeError) as exc:
        raise JournalError(f"{path}: not the game's settings ({exc})") from exc
    path = folder / TRANSCRIPT
    text = _read_text(path)
    text = text[: text.rfind("\n") + 1]
    game: Game | TranscriptGame
    if settings.table_game is None:
        game = replayed(path, text)[1]
    else:
        try:
            rules: TableRules = rules_for(settings.table_game)  # type: ignore[assignment]
            game = TranscriptGame.from_text(rules, text)
        except ValueError as exc:
            raise JournalError(f"{path}: cannot be replayed: {exc}") from exc
    return GameRecord(folder, settings, text, game, tuple(read_index(folder)))


def result_row(lines: list[str]) -> int | None:
    """The 0-based index of the Result tag's line among a record's ``lines``, None without one."""
    for i, line in enumerate(lines):
        tag = TAG_RE.fullmatch(line)
        if tag and tag.group(1).lower() == "result":
            return i
    return None


def game_folders(games_dir: Path) -> list[Path]:
    """Every game folder under ``games_dir`` (not the ones moved aside, not hidden ones), oldest first."""
    if not games_dir.is_dir():
        return []
    return sorted(
        p for p in games_dir.iterdir() if p.is_dir() and not p.name.startswith(".") and p.name != DAMAGED
    )


def has_ended(folder: Path) -> bool:
    """True when the game's header alone shows that it ended (a Result other than ``*``): cheap, for
    skipping finished games without replaying them; False when unsure."""
    try:
        text = (folder / TRANSCRIPT).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    header = text.split("\n\n", 1)[0].splitlines()
    at = result_row(header)
    ended = at is not None and header[at] != format_tags([("Result", UNFINISHED)])[0]
    return ended or (folder / LEGACY_FINISHED).is_file()


def latest_unfinished(games_dir: Path) -> Path | None:
    """The most recent readable game that did not finish (to resume after a crash), or None."""
    for folder in reversed(game_folders(games_dir)):
        if has_ended(folder):
            continue
        try:
            if not read_game(folder).is_finished:
                return folder
        except JournalError:
            continue
    return None
