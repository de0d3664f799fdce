"""What every table does with the camera state and the end-of-turn signal, whatever its game.

:class:`TurnSignals` keeps the camera state, the alert, whether the latest settled reading is still
current (the board has stayed quiet since), and an end-of-turn signal waiting for the next settled
reading; it ends a legal turn by itself in auto mode. tilescribe.table.Table (MODLINSEQ) and
tilescribe.game_table.GameTable (the games read as a layout) build on it and supply the turn's
verdict (:meth:`TurnSignals._turn_is_legal`) and its commit (:meth:`TurnSignals.end_turn`).
"""

from __future__ import annotations

from typing import Generic, TypeVar

from display.view import AlertLevel, CameraState
from tilescribe.observe import Observation
from tilescribe.settings import TableSettings

#: A committed turn as the table returns it (for the journal).
Record = TypeVar("Record")

_CAMERA_LOST = "Camera lost"


class TurnSignals(Generic[Record]):
    """The camera state, the alert and the end-of-turn signal of a table.

    Args:
        settings: the table settings (``auto_end_seconds``).
        surface: what the tiles lie on, for the alerts (``"board"``, ``"table"``).
    """

    def __init__(self, settings: TableSettings, surface: str) -> None:
        self.settings = settings
        self.surface = surface
        self.camera = CameraState.STARTING
        self.alert = ""
        self.alert_level = AlertLevel.INFO
        self.game_over = False
        #: shown after the title (e.g. that a recording's truth stands in for the vision)
        self.note = ""
        self._reading_t = 0.0
        self._fresh = False  # the board has stayed quiet since the last reading
        self._end_requested = False

    def end_turn(self) -> Record | None:
        """Commit the turn in progress when the rules allow it (the table's own)."""
        raise NotImplementedError

    def _turn_is_legal(self) -> bool:
        """A legal turn is in progress (auto mode ends it)."""
        raise NotImplementedError

    def _see(self, obs: Observation) -> None:
        """Take the camera state of one frame's observation (before its reading, if any)."""
        if self.camera is CameraState.NO_CAMERA and self.alert.startswith(_CAMERA_LOST):
            self._say("Camera back.", AlertLevel.INFO)
        self.camera = obs.camera
        if obs.camera is not CameraState.LOCKED:
            self._fresh = False

    def _read(self, t: float) -> None:
        """A settled reading taken at stream time ``t`` seconds."""
        self._reading_t, self._fresh = t, True

    def _auto_end(self, t: float) -> Record | None:
        """In auto mode, end a legal turn once the board has stayed still ``auto_end_seconds`` since
        its reading (at stream time ``t``); the turn committed, if any."""
        auto = self.settings.auto_end_seconds
        if auto is not None and self._fresh and self._turn_is_legal() and t - self._reading_t >= auto:
            record = self.end_turn()
            if record is not None:
                self._say(f"{self.alert} (ended automatically: Undo takes it back)", AlertLevel.INFO)
            return record
        return None

    def camera_lost(self, message: str) -> None:
        """The camera disappeared (the session reopens it); shown until the next frame."""
        self.camera, self._fresh = CameraState.NO_CAMERA, False
        self._say(f"{_CAMERA_LOST}: {message}. Reconnecting; nothing committed is lost.", AlertLevel.WARN)

    def request_end(self) -> Record | None:
        """The end-of-turn signal: commit now if the last reading is current, else with the next."""
        if self.game_over:
            self._say("The game is over.", AlertLevel.INFO)
            return None
        if self._fresh:
            return self.end_turn()
        self._end_requested = True
        self._say(f"Ending the turn once the {self.surface} is still...", AlertLevel.INFO)
        return None

    def _say(self, text: str, level: AlertLevel) -> None:
        self.alert, self.alert_level = text, level
