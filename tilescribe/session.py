"""The table session loop: frames -> observer -> table -> kiosk, commits -> journal.

For every frame of the source: observe it (board located? still? hand? a settled
reading?), let the table work out the turn in progress, apply the end-of-turn signals (a recording's
events, Enter/space/keypad/touch on the kiosk, the GPIO button; auto mode lives in the table), the
corrections (a misread cell; on a layout-read table, a misread tile: a recording's event
``{"type": "correct_tile", "cell": "7H8", "face": "1H8"}``, or a tile tapped on the game's map and
its true face picked on the kiosk's keypad), the tiles the camera does not see (a recording's event
``{"type": "add_tile", "face": "R7@3,1"}`` in the transcript's frame, or an empty place tapped on
the map), undo, pass, freeze and the end of
the game; write every committed turn to the journal (fsync) before the kiosk shows it. A camera
that disappears is shown on the kiosk and reopened; the game goes on where it stood. On a screen,
the final standings stay until a tap or key; a rematch goes on in the same session with a new
journal.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from display.kiosk import ActionKind, Kiosk, KioskAction
from display.view import KioskView
from engine.hexgrid import Hex, format_address, parse_address
from tilescribe.gpio import EndTurnButton
from tilescribe.journal import CommittedGame, Journal, JournalTurn
from tilescribe.observe import Observation, Observer
from tilescribe.settings import TableSettings
from tilescribe.table_notes import added_note, corrected_note
from vision.capture.sources import Frame, FrameSource, SourceError, SourceEvent, SourceLostError

log = logging.getLogger(__name__)

#: Recording events the session acts on, besides "end_turn", "pass" (its ``face``: the tile a
#: Holominoes pass returns) and the corrections.
_EVENT_ACTIONS = {"freeze": ActionKind.FREEZE, "undo": ActionKind.UNDO, "end_game": ActionKind.END_GAME}


class SessionTable(Protocol):
    """The game at the table as the session drives it: MODLINSEQ's tilescribe.table.Table, or
    tilescribe.game_table.GameTable for the games read as a layout. Each request returns the turn
    it committed (None when none), for the journal."""

    game_over: bool
    #: shown after the kiosk's title (e.g. that a recording's truth stands in for the vision)
    note: str

    @property
    def settings(self) -> TableSettings:
        """The table settings."""
        ...

    @property
    def game(self) -> CommittedGame:
        """The committed turns and points."""
        ...

    def observe(self, obs: Observation) -> JournalTurn | None:
        """Take one frame's observation."""
        ...

    def camera_lost(self, message: str) -> None:
        """The camera disappeared."""
        ...

    def request_end(self) -> JournalTurn | None:
        """The end-of-turn signal."""
        ...

    def pass_turn(self, returned: str = "") -> JournalTurn | None:
        """The current player's turn with nothing laid (``returned``: the pool tile a Holominoes
        pass returns, ``"456"``)."""
        ...

    def freeze(self) -> JournalTurn | None:
        """The current player freezes (where the game has it)."""
        ...

    def undo(self) -> JournalTurn | None:
        """Take back the last committed turn."""
        ...

    def end_game(self) -> None:
        """End the game."""
        ...

    def correct(self, cell: Hex, face: str) -> bool:
        """Correct a misread cell; True when the committed record changed."""
        ...

    def correct_tile(self, seen: str, true: str) -> tuple[str, str] | None:
        """Correct a misread tile of a layout (``"7H8"`` is ``"1H8"``); when it is taken, the
        correction in the transcript's frame (seen, true), else None."""
        ...

    def add_shown(self, true: str) -> bool:
        """A tile the camera does not see, laid where a game's map shows none (``R7@3,1``)."""
        ...

    def correct_shown(self, shown: str, true: str) -> str | None:
        """Correct the tile read where a game's map shows ``shown`` (``"R1@2,0"`` is ``"R7@2,0"``, in
        the transcript's frame); the tile read there (for the journal), None when none is taken."""
        ...

    def take_lifted(self) -> Sequence[JournalTurn]:
        """Turns taken back by lifting their tiles since the last call."""
        ...

    def restart(self) -> None:
        """A rematch with the same settings."""
        ...

    def view(self) -> KioskView:
        """The kiosk's picture of the table now."""
        ...


@dataclass(frozen=True, slots=True)
class SessionResult:
    """How a session ended.

    Attributes:
        journal: the game's folder.
        transcript: the transcript file.
        scores: final points per player.
        turns: committed turns.
        frames: frames processed in this session.
        dropouts: times the camera was lost and reopened.
        is_finished: the game ended (else the session was quit and the game can be resumed).
        new_game: the players asked for a new game on the final standings (the start screen next).
    """

    journal: Path
    transcript: Path
    scores: dict[str, int]
    turns: int
    frames: int
    dropouts: int
    is_finished: bool
    new_game: bool = False


class Session:
    """One table session.

    Args:
        source: where frames come from.
        observer: turns frames into observations.
        table: the game at the table (either kind: :class:`SessionTable`).
        journal: where committed turns go.
        kiosk: the screen, or None (no screen at all).
        button: the GPIO end-of-turn button, or None.
        speed: pace a finite source at its recorded frame times, this many times faster (1.0: as
            recorded, to watch a recording); None: as fast as frames can be processed.
        on_frame: called after every frame with the frame (progress bars).
        max_dropouts: give up after this many camera losses in a row without a frame between.
        rematch: starts the journal of a rematch with the given settings; with it and a kiosk, a
            game that ends keeps its final standings on the kiosk until a tap or key: Rematch
            plays again, New game ends the session asking for the start screen, anything else
            ends it. Without it the session ends with the game (a headless run).
    """

    def __init__(self, source: FrameSource, observer: Observer, table: SessionTable, journal: Journal,
                 kiosk: Kiosk | None = None, button: EndTurnButton | None = None, speed: float | None = None,
                 on_frame: Callable[[Frame], None] | None = None, max_dropouts: int = 50,
                 rematch: Callable[[TableSettings], Journal] | None = None) -> None:
        self.source = source
        self.observer = observer
        self.table = table
        self.journal = journal
        self.kiosk = kiosk
        self.button = button
        if speed is not None and not speed > 0:
            raise ValueError(f"speed must be > 0, got {speed!r}")
        self.speed = speed
        self.on_frame = on_frame
        self.max_dropouts = max_dropouts
        self.rematch = rematch
        self.frames = 0
        self.dropouts = 0
        self._quit = False
        self._frame: Frame | None = None
        self._after_game: ActionKind | None = None

    def run(self) -> SessionResult:
        """Run until the source ends, the game ends, or the players quit; with ``rematch``, the final
        standings stay on the kiosk and a rematch plays on in the same session.

        At the end of a finite source (a recording, a video file) the game ends (§3-3, by
        agreement) and the journal marks it finished; a quit leaves it resumable.

        Raises:
            SourceError: the source cannot be opened, or stays lost ``max_dropouts`` times in a row.
            JournalError: the journal cannot be written.
        """
        while True:
            self._play()
            if self.table.game_over:
                self.journal.finish(self.table.game)
            self._show()
            if self._quit or not self.table.game_over or self.kiosk is None or self.rematch is None:
                break
            self._after_game = self._standings(self.kiosk)
            if self._after_game is not ActionKind.REMATCH:
                break
            self.journal.close()
            self.journal = self.rematch(self.table.settings)
            self.table.restart()
        game = self.table.game
        return SessionResult(self.journal.folder, self.journal.transcript_path, dict(game.scores),
                             len(game.history), self.frames, self.dropouts, self.table.game_over,
                             new_game=self._after_game is ActionKind.NEW_GAME)

    def _standings(self, kiosk: Kiosk) -> ActionKind:
        """Keep the final standings on ``kiosk`` until a tap or key; what it asked for."""
        while True:
            for action in kiosk.poll():
                if action.kind in (ActionKind.REMATCH, ActionKind.NEW_GAME, ActionKind.QUIT):
                    return action.kind
            kiosk.show(self.table.view())
            time.sleep(0.05)

    def _play(self) -> None:
        """Frames until the game ends, the source ends or the players quit."""
        lost_in_a_row = 0
        start_wall, start_t = time.monotonic(), None
        while not self._quit and not self.table.game_over:
            try:
                frame = self.source.read()
            except SourceLostError as exc:
                lost_in_a_row += 1
                self.dropouts += 1
                log.warning("%s", exc)
                if lost_in_a_row > self.max_dropouts:
                    message = f"{self.source.name}: lost {lost_in_a_row} times in a row, giving up"
                    raise SourceError(message) from exc
                self.table.camera_lost(str(exc))
                self.source.reopen()
                wait_until = time.monotonic() + (0.0 if self.source.finite else min(5.0, 0.2 * lost_in_a_row))
                while True:  # the kiosk keeps answering while the camera is away
                    self._poll()
                    self._show()
                    if time.monotonic() >= wait_until or self._quit:
                        break
                    time.sleep(0.05)
                continue
            if frame is None:
                if not self.table.game_over:
                    self.table.end_game()
                break
            lost_in_a_row = 0
            if self.speed is not None and self.source.finite:
                start_t = frame.t if start_t is None else start_t
                due = (frame.t - start_t) / self.speed
                time.sleep(max(0.0, due - (time.monotonic() - start_wall)))
            self._step(frame)

    def _step(self, frame: Frame) -> None:
        self._frame = frame
        self.frames += 1
        self._record(self.table.observe(self.observer.observe(frame)))
        for event in frame.events:
            self._event(event)
        self._poll()
        self._show()
        if self.on_frame is not None:
            self.on_frame(frame)

    def _poll(self) -> None:
        """The players' requests from the kiosk and the GPIO button."""
        if self.kiosk is not None:
            for action in self.kiosk.poll():
                self.act(action)
        if self.button is not None:
            for _ in range(self.button.presses()):
                self._record(self.table.request_end())

    def _event(self, event: SourceEvent) -> None:
        if event.type in ("end_turn", "pass"):
            if event.turn is not None and event.turn != len(self.table.game.history) + 1:
                log.info("frame %d: end of turn %d ignored (turn %d is in progress)", event.frame, event.turn,
                         len(self.table.game.history) + 1)
            elif event.type == "pass":  # its face: the pool tile a Holominoes pass returns
                self.act(KioskAction(ActionKind.PASS, face=event.face))
            else:
                self._record(self.table.request_end())
        elif event.type in _EVENT_ACTIONS:
            self.act(KioskAction(_EVENT_ACTIONS[event.type]))
        elif event.type == "correct" and event.cell is not None and event.face is not None:
            try:
                cell = parse_address(event.cell)
            except ValueError as exc:
                log.warning("frame %d: correction ignored: %s", event.frame, exc)
                return
            self.act(KioskAction(ActionKind.CORRECT, cell, event.face))
        elif event.type == "correct_tile" and event.cell is not None and event.face is not None:
            self._correct_tile(event.cell, event.face)
        elif event.type == "add_tile" and event.face:
            self.act(KioskAction(ActionKind.ADD_TILE, face=event.face))
        else:
            log.warning("frame %d: unknown event type %r ignored", event.frame, event.type)

    def act(self, action: KioskAction) -> None:
        """Carry out one request from the players (kiosk, keypad, touch, a recording's event), then
        journal the turns it took back (a correction can show the last turn lifted)."""
        self._carry_out(action)
        self._journal_lifted()

    def _carry_out(self, action: KioskAction) -> None:
        table = self.table
        if action.kind is ActionKind.QUIT:
            self._quit = True
        elif action.kind is ActionKind.END_TURN:
            self._record(table.request_end())
        elif action.kind is ActionKind.UNDO:
            if table.undo() is not None:
                self.journal.rewrite(table.game, "undone")
        elif table.game_over:
            return
        elif action.kind is ActionKind.PASS:
            self._record(table.pass_turn(action.face or ""))
        elif action.kind is ActionKind.FREEZE:
            self._record(table.freeze())
        elif action.kind is ActionKind.END_GAME:
            table.end_game()
        elif action.kind is ActionKind.CORRECT and action.cell is not None and action.face is not None:
            try:
                if table.correct(action.cell, action.face):
                    self.journal.rewrite(table.game, "corrected")
                else:
                    self.journal.note(f"corrected: {format_address(action.cell)} is {action.face or 'empty'}")
            except ValueError as exc:
                log.warning("%s", exc)
        elif action.kind is ActionKind.CORRECT_TILE and action.tile is not None and action.face is not None:
            try:
                seen = table.correct_shown(action.tile, action.face)
            except ValueError as exc:
                log.warning("%s", exc)
                return
            if seen is not None:
                self.journal.note(corrected_note(seen, action.face))
        elif action.kind is ActionKind.ADD_TILE and action.face:
            try:
                added = table.add_shown(action.face)
            except ValueError as exc:
                log.warning("%s", exc)
                return
            if added:
                self.journal.note(added_note(action.face))

    def _correct_tile(self, seen: str, true: str) -> None:
        """A misread tile of a layout-read table corrected (a recording's ``correct_tile`` event:
        ``cell`` the placement seen, ``face`` the true one or empty), noted in the journal in the
        transcript's frame."""
        if self.table.game_over:
            return
        try:
            noted = self.table.correct_tile(seen, true)
        except ValueError as exc:
            log.warning("%s", exc)
            return
        if noted is not None:
            self.journal.note(corrected_note(*noted))

    def _journal_lifted(self) -> None:
        """Journal the turns taken back by lifting their tiles since the last call."""
        if self.table.take_lifted():
            self.journal.rewrite(self.table.game, "taken back (tiles lifted)")

    def _record(self, record: JournalTurn | None) -> None:
        """Journal the turns taken back by lifting their tiles, then ``record`` (a committed turn)."""
        self._journal_lifted()
        if record is None:
            return
        frame = self._frame
        photo = frame.image if frame is not None and record.kind == "play" else None
        self.journal.record(record, frame.index if frame is not None else -1, photo)

    def _show(self) -> None:
        if self.kiosk is not None:
            self.kiosk.show(self.table.view())
