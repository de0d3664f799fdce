"""The table: the game in progress between the committed position and what the camera reads.

:class:`Table` holds the engine's ``Game`` (the committed turns)
and the latest settled reading of the board, and works out what the reading means:

- the turn in progress: the placements since the last committed position, their legality, the
  provisional score, the cells of an illegal placement and the rule broken in words;
- "board out of sync": tiles that vanished or changed since the last commit (the cells to restore);
- the end of a turn: on a signal (key, touch, GPIO, a recording's event) the turn is committed
  with the next settled reading (at once when the board has been quiet since the last one); an
  illegal turn is not committed; in auto mode a legal turn ends by itself after the board has
  stayed still for ``auto_end_seconds``;
- corrections of misread cells, undo, pass, freeze, the end of the game (§3-3);
- lift to undo: when every tile of the last committed turn has been lifted and a new turn lies in
  its place, that turn is taken back and the board read as the new turn in progress; tiles only
  knocked off are shown to be put back (or replaced by a new turn), and an end-of-turn signal with
  the last turn lifted and nothing new takes it back.

Pure logic: no camera, no screen, no files (tilescribe.session wires those in).
"""

from __future__ import annotations

from display.view import AlertLevel, HistoryLine, KioskView, PlayerLine
from engine.game import FREEZE, PASS, PLAY, Game, TurnRecord
from engine.hexgrid import Hex, format_address
from engine.rules import TurnResult
from engine.tiles import Placement, Tile
from tilescribe.faces import FaceMap
from tilescribe.observe import Observation
from tilescribe.settings import TableSettings
from tilescribe.turn_signals import TurnSignals

#: A reading below this confidence (0..1) is outlined on the kiosk for the players to check.
UNSURE_BELOW = 0.6


def turn_text(record: TurnRecord) -> str:
    """A committed turn in tilde notation (its primary sequence), or ``pass`` / ``freeze``."""
    if record.result is None:
        return record.kind
    primary = record.result.primary
    if primary is not None and len(primary.cells) > 1:
        return primary.tilde()
    return ", ".join(str(p) for p in record.placements)


class Table(TurnSignals[TurnRecord]):
    """The game at the table.

    Args:
        settings: the table settings (engine settings, timings).
        game: the engine game to continue (a resumed game), or None for a new one.
    """

    def __init__(self, settings: TableSettings, game: Game | None = None) -> None:
        super().__init__(settings, "board")
        self.game = game if game is not None else Game(settings.game)
        self.faces = FaceMap(settings.tileset, settings.game.modulus)
        self._raw: dict[Hex, str] = {}
        self._unsure: frozenset[Hex] = frozenset()
        self._unreadable: frozenset[Hex] = frozenset()
        #: cell -> (the face misread there, None until a tile is read there; the true face)
        self._corrections: dict[Hex, tuple[str | None, str]] = {}
        self._reading: dict[Hex, Tile] = {}
        self._turn: TurnResult | None = None
        self._vanished: dict[Hex, Tile] = {}
        self._lifted: list[TurnRecord] = []
        self._just_lifted = False
        self.game_over = self.game.is_over

    # -- observations ------------------------------------------------------------------------
    def observe(self, obs: Observation) -> TurnRecord | None:
        """Take one frame's observation; returns the turn committed by it, if any (auto mode, or an
        end-of-turn signal given before the board settled: it commits the turn the settled reading
        shows; when that reading took the last turn back (its tiles lifted, a new turn laid), with
        the next frame, so that the take-back is journalled first)."""
        self._see(obs)
        if obs.faces is not None:
            self._raw = dict(obs.faces)
            self._unsure = frozenset(c for c, p in obs.confidence.items() if p < UNSURE_BELOW)
            self._read(obs.t)
            self._update()
            if self._just_lifted:  # the take-back is journalled first; a pending end follows next frame
                return None
            if self._end_requested:
                return self.end_turn()
        elif self._end_requested and self._fresh:  # the reading before took the last turn back
            taken = self.alert if self._just_lifted else ""
            record = self.end_turn()
            if record is not None and taken:  # the turn laid in its place: say both
                self._say(f"{taken} {self.alert}", self.alert_level)
            return record
        return self._auto_end(obs.t)

    def _turn_is_legal(self) -> bool:
        return self._turn is not None and self._turn.legal

    # -- the players' requests ---------------------------------------------------------------
    def end_turn(self) -> TurnRecord | None:
        """Commit the turn in progress when it is legal (with nothing placed: a pass); otherwise say
        what is wrong and commit nothing."""
        self._end_requested = False
        if self._vanished:
            if not self._lift_last(require_new=False):
                self._say(self._sync_message(), AlertLevel.ERROR)
            return None
        if self._unreadable - set(self.game.position):
            return None  # the alert asks for a correction
        if self._turn is None:  # nothing placed: ending the turn is a pass
            return self.pass_turn()
        if not self._turn.legal:
            self._say(f"Not committed: {self._error_text(self._turn)}", AlertLevel.ERROR)
            return None
        self.game.play(self._turn.placements)
        return self._committed()

    def pass_turn(self, returned: str = "") -> TurnRecord | None:
        """The current player passes; a MODLINSEQ pass returns no tile (with ``returned``, None and
        the alert say so)."""
        if returned:
            self._say("Not committed: a MODLINSEQ pass returns no tile.", AlertLevel.ERROR)
            return None
        self.game.pass_turn()
        return self._committed()

    def freeze(self) -> TurnRecord:
        """The current player freezes (§3-3): keeps the points, takes no more turns."""
        self.game.freeze()
        return self._committed()

    def undo(self) -> TurnRecord | None:
        """Take back the last committed turn; returns it (None when there is none)."""
        if not self.game.history:
            self._say("Nothing to undo.", AlertLevel.INFO)
            return None
        turn = self.game.undo()
        self.game_over = self.game.is_over
        self._update()
        self._say(f"Undone: turn {turn.number} ({turn.player}: {turn_text(turn)}).", AlertLevel.WARN)
        return turn

    def end_game(self) -> None:
        """End the game (§3-3: every player frozen, or the players agree)."""
        self.game_over = True
        winners = " and ".join(self.game.winners())
        self._say(f"Game over: {winners} {'win' if ' and ' in winners else 'wins'}. {self._standings()}",
                  AlertLevel.INFO)

    def restart(self) -> None:
        """A rematch: a new game with the same players and settings; the board's reading is kept
        (tiles still on it show as out of place until cleared)."""
        self.game = Game(self.settings.game)
        self.game_over = False
        self._corrections.clear()
        self._end_requested = self._fresh = False
        self._update()
        self._say("Rematch: clear the board.", AlertLevel.INFO)

    def correct(self, cell: Hex, face: str) -> bool:
        """Correct a misread cell: while the reader sees what it saw there (or, corrected before the
        tile was read, what it reads there next), take ``face`` instead. When a committed turn holds
        another tile on ``cell`` (a misread that was committed, caught by a later re-read), that
        turn is amended and the game after it replayed.

        Args:
            cell: the misread cell.
            face: the true face (``"7"``, ``"#"``, ``"marker"``), or ``""`` for an empty cell.

        Returns:
            True when the committed record changed (the journal must be rewritten).

        Raises:
            ValueError: ``face`` is not a face of the tile set (the message names it and the cell).
        """
        where = f"correction of {format_address(cell)}"
        tile = self.faces.tile(face, where) if face else None
        self._corrections[cell] = (self._raw.get(cell), face)
        committed = self.game.position.get(cell)
        amended = tile is not None and committed is not None and not committed.same_face(tile)
        if amended and tile is not None:
            amended = self._amend(cell, tile)
        self._update()
        if amended:
            self._say(f"{format_address(cell)} corrected to {face}; the record is amended.", AlertLevel.WARN)
        elif self.alert_level is not AlertLevel.ERROR:
            self._say(f"{format_address(cell)} corrected to {face or 'empty'}.", AlertLevel.INFO)
        return amended

    def correct_tile(self, seen: str, true: str) -> tuple[str, str] | None:
        """Tiles of a layout are the other games' (tilescribe.game_table); a MODLINSEQ correction
        names a cell (:meth:`correct`). Says so and returns None."""
        self._say(f"Correct {seen} by its cell: touch it and type its face.", AlertLevel.INFO)
        return None

    def correct_shown(self, shown: str, true: str) -> str | None:
        """Tiles shown on a game's map are the other games' (tilescribe.game_table); a MODLINSEQ
        correction names a cell (:meth:`correct`). Says so and returns None."""
        self._say(f"Correct {shown} by its cell: touch it and type its face.", AlertLevel.INFO)
        return None

    def add_shown(self, true: str) -> bool:
        """Tiles are added on a game's map in the other games (tilescribe.game_table); on MODLINSEQ's
        board a tile the camera does not see is corrected by its cell (:meth:`correct`). Says so
        and returns False."""
        self._say(f"Add {true} by its cell: touch it and type its face.", AlertLevel.INFO)
        return False

    def _amend(self, cell: Hex, tile: Tile) -> bool:
        """Replay the game with ``tile`` on ``cell`` in the turn that placed it; False (and an alert)
        when a turn is then illegal."""
        game = Game(self.settings.game)
        for record in self.game.history:
            if record.kind == PLAY:
                placements = [Placement(p.cell, tile) if p.cell == cell else p for p in record.placements]
                result = game.evaluate(placements)
                if not result.legal:
                    amend = f"{tile.notation()}{format_address(cell)}"
                    self._say(f"Cannot amend turn {record.number} with {amend}: {self._error_text(result)}",
                              AlertLevel.ERROR)
                    return False
                game.play(placements)
            elif record.kind == PASS:
                game.pass_turn()
            else:
                game.freeze()
        self.game = game
        return True

    def take_lifted(self) -> list[TurnRecord]:
        """The turns taken back by lifting their tiles since the last call, in the order they were taken
        back (the latest turn first), for the journal."""
        lifted, self._lifted = self._lifted, []
        return lifted

    def _lift_last(self, require_new: bool) -> bool:
        """Take back the last committed turn when its tiles are all off the board (or replaced) and
        the board is otherwise the position before it.

        Args:
            require_new: also require a tile that the last turn did not lay (a new turn in its
                place), so that tiles merely knocked off are put back rather than undone.

        Returns:
            True when the turn was taken back (the reading is then derived again).
        """
        before = self.game.diff_before_last(self._reading)
        if self.game_over or before is None or not before.is_clean:
            return False
        last = self.game.history[-1]
        if set(self._vanished) != {p.cell for p in last.placements}:
            return False
        if require_new and not before.placements:
            return False
        turn = self.game.undo()
        self._lifted.append(turn)
        self._update()
        self._just_lifted = True
        taken = f"Turn {turn.number} taken back ({turn.player}: {turn_text(turn)} lifted)."
        if self.alert_level is AlertLevel.ERROR:
            self._say(f"{taken} {self.alert}", AlertLevel.ERROR)
        else:
            self._say(taken, AlertLevel.WARN)
        return True

    # -- state -------------------------------------------------------------------------------
    @property
    def turn(self) -> TurnResult | None:
        """The engine's verdict on the turn in progress (None when nothing new is on the board)."""
        return self._turn

    def _committed(self) -> TurnRecord:
        turn = self.game.history[-1]
        self.game_over = self.game.is_over
        self._update()
        self._say(f"{turn.player}: {turn_text(turn)}  +{turn.score}", AlertLevel.INFO)
        return turn

    def _update(self) -> None:
        """Re-derive the turn in progress from the raw reading, the corrections and the game."""
        faces = dict(self._raw)
        for cell, (misread, true) in list(self._corrections.items()):
            if misread is None:  # corrected before the tile was read: bind to what is read next
                if cell not in faces:
                    continue
                misread = faces[cell]
                self._corrections[cell] = (misread, true)
            if faces.get(cell) != misread:
                del self._corrections[cell]  # the reading changed: the correction no longer applies
            elif true:
                faces[cell] = true
            else:
                faces.pop(cell, None)
        self._reading, self._unreadable = {}, frozenset()
        committed = self.game.position
        for cell, face in faces.items():
            try:
                tile = self.faces.tile(face, f"cell {format_address(cell)}")
            except ValueError:  # the reader saw a tile but no face on it
                self._unreadable |= {cell}
                if cell in committed:  # a committed tile: taken as unchanged
                    self._reading[cell] = committed[cell]
                continue
            unsure = cell in self._unsure and face == self._raw.get(cell)
            if unsure and cell in committed and not committed[cell].same_face(tile):
                tile = committed[cell]  # an unsure re-read does not overrule the record
            self._reading[cell] = tile
        diff = self.game.diff(self._reading)
        self._vanished = {c: self.game.position[c] for c in (*diff.vanished, *diff.changed)}
        self._just_lifted = False
        if self._vanished and self._lift_last(require_new=True):
            return
        blocked = self._unreadable - set(self.game.position)
        if self._vanished or not diff.placements or blocked:
            self._turn = None
        else:
            self._turn = self.game.evaluate(diff.placements)
        if self._vanished:
            self._say(self._sync_message(), AlertLevel.ERROR)
        elif blocked:
            cells = ", ".join(format_address(c) for c in sorted(blocked))
            self._say(f"Cannot read the tile on {cells}: correct it (touch it, type its face).",
                      AlertLevel.ERROR)
        elif self._turn is not None and not self._turn.legal:
            self._say(self._error_text(self._turn), AlertLevel.ERROR)
        elif self.alert_level is AlertLevel.ERROR:
            self._say("", AlertLevel.INFO)

    def _sync_message(self) -> str:
        cells = ", ".join(f"{t.notation()}{format_address(c)}" for c, t in sorted(self._vanished.items()))
        history = self.game.history
        if history and set(self._vanished) == {p.cell for p in history[-1].placements}:
            return f"Board out of sync: put back {cells}, or lay a new turn in its place."
        return f"Board out of sync: put back {cells}."

    @staticmethod
    def _error_text(turn: TurnResult) -> str:
        error = turn.error
        return "" if error is None else f"{error.message} ({error.rule})"

    def _standings(self) -> str:
        ranked = sorted(self.game.scores.items(), key=lambda p: -p[1])
        return ", ".join(f"{name} {score}" for name, score in ranked)

    def _illegal_cells(self) -> frozenset[Hex]:
        """The new tiles among the cells of the broken rule (all its cells when none is new)."""
        turn = self._turn
        if turn is None or turn.error is None:
            return frozenset()
        broken = frozenset(turn.error.cells)
        placed = broken & {p.cell for p in turn.placements}
        return placed or broken or frozenset(p.cell for p in turn.placements)

    def _label(self, cell: Hex, tile: Tile) -> str:
        """A committed tile's label: its notation; a wild tile settled by the lines through it
        (§7-2, §7-3) shows the value it stands for (``#=8``)."""
        if tile.is_wild and tile.value is None:
            values = self.game.wild_values().get(cell, frozenset())
            if len(values) == 1:
                return f"#={next(iter(values))}"
        return tile.notation()

    def keypad_faces(self) -> tuple[str, ...]:
        """The faces a correction can set, for the kiosk's keypad: the numbers in value order, the
        wild face where the game has wild tiles (§7-1), the modulus marker where it is used (§8)."""
        values = self.faces.face_values()
        numbers = sorted((v, f) for f, v in values.items() if v is not None and f != "marker")
        faces = [f for _, f in numbers]
        if self.settings.game.wild_policy is not None:
            faces += [f for f, v in values.items() if v is None]
        if self.settings.game.marker and "marker" in values:
            faces.append("marker")
        return tuple(faces)

    def end_notes(self) -> tuple[str, ...]:
        """The end of the game in words (§3-3): who froze at which turn, how the game ended."""
        if not self.game_over:
            return ()
        frozen = [f"{r.player} froze at turn {r.number}" for r in self.game.history if r.kind == FREEZE]
        playing = [p for p in self.game.players if p not in self.game.frozen]
        ended = ("Every player froze (§3-3)." if not playing
                 else f"Ended by agreement (§3-3) with {', '.join(playing)} still playing.")
        notes = [ended]
        if frozen:
            notes.append("; ".join(frozen) + ".")
        notes.append("Every player keeps every point scored; no end-of-game points (§3-3).")
        return tuple(notes)

    def view(self) -> KioskView:
        """The kiosk's picture of the table now."""
        turn = self._turn
        committed = self.game.position
        provisional = {} if turn is None else {p.cell: p.tile.notation() for p in turn.placements}
        history = self.game.history
        last = history[-1].result if history else None
        current = None if self.game_over else self.game.current_player
        players = tuple(
            PlayerLine(name, score, is_current=name == current, is_frozen=name in self.game.frozen)
            for name, score in self.game.scores.items()
        )
        s = self.settings.game
        return KioskView(
            cells=s.board.cells,
            tiles={c: self._label(c, t) for c, t in committed.items() if c not in self._vanished},
            provisional=provisional,
            last_turn=frozenset(p.cell for p in last.placements) if last is not None else frozenset(),
            blocked=self.game.blocked_cells(),
            illegal=self._illegal_cells(),
            restore={c: t.notation() for c, t in self._vanished.items()},
            uncertain=frozenset(c for c in self._unsure | self._unreadable if c not in self._corrections),
            players=players,
            history=tuple(HistoryLine(h.number, h.player, turn_text(h), h.score) for h in history),
            provisional_points=turn.score if turn is not None and turn.legal else None,
            camera=self.camera,
            alert=self.alert,
            alert_level=self.alert_level,
            title=f"{s.game} M{s.modulus}, " + (f"{len(history)} turns" if self.game_over
                                                  else f"turn {len(history) + 1}")
            + (f" ({self.note})" if self.note else ""),
            is_over=self.game_over,
            faces=self.keypad_faces(),
            end_notes=self.end_notes(),
        )
