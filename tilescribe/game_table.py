"""The table of a game read as a layout (Yushino, Super Wild, Holominoes): the game is its transcript.

:class:`GameTable` holds the transcript text of the committed turns and the latest settled layout
the camera read (``Observation.layout``), and works out what the layout means through the game's
rules (engine.games.TableRules):

- the turn in progress: ``RULES.table_turn(text, seen)`` gives its moves; replaying the transcript
  plus that line (``RULES.replay_text``) judges it: its provisional points, or the rule it breaks in
  words (the alert) and the banner; the map draws it as pending, in the alert colour when
  illegal (:func:`pending_map`);
- "board out of sync": a layout no turn leads to (a tile gone, moved where it may not be); the
  alert says what to put back, in the rules' words;
- the end of a turn: on a signal (key, touch, GPIO, a recording's event) the turn is committed
  with the next settled reading (at once when the table has been quiet since the last one); an
  illegal turn is not committed; in auto mode a legal turn ends by itself after the table has
  stayed still for ``auto_end_seconds``; with nothing new, ending the turn is the game's pass
  (Super Wild: a draw; Yushino and Holominoes: a pass);
- the reader's runner-ups as the rules' prior: where the layout read makes the turn illegal or no
  turn leads to it, the tiles' other readings (``Observation.alternatives``) at least
  RUNNER_UP_FLOOR as likely as the reading taken (another face, or no tile at all) are tried in
  their stead, one tile and then two,
  and the legal turn likeliest to the reader is taken; the alert says which tile was taken for
  what, so that a player can correct it; once the turn is committed the tile stays taken so
  while it is read the same (as a correction would). A confident reading is never overridden, so a tile laid
  where the rules refuse it stays flagged;
- corrections of misread tiles (:meth:`GameTable.correct_tile` in the reading's frame, a recording's
  event; :meth:`GameTable.correct_shown` where the kiosk's map shows the tile); a tile the camera
  does not see, added where the map shows none (:meth:`GameTable.add_shown`); both kept over a
  resume by the journal's notes (tilescribe.table_notes: a correction is taken again where the
  camera misreads the same tile on the same place, until the first turn committed); undo, the end
  of the game.

Pure logic: no camera, no screen, no files (tilescribe.session wires those in). Its public surface is
tilescribe.table.Table's, so that the session drives either.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache

from display.maps import GameMap, read_game
from display.replay import view_of
from display.view import AlertLevel, KioskView
from engine.games import TableRules, TurnReport, rules_for
from engine.placement import place_of
from engine.record import format_tags
from tilescribe.layout_frame import aligned_tiles, as_seen
from tilescribe.observe import Observation
from tilescribe.settings import TableSettings
from tilescribe.table_notes import table_notes
from tilescribe.transcript_game import TableRecord, TranscriptGame
from tilescribe.turn_signals import TurnSignals

#: Each game's turn with nothing laid (games.md): what ending a turn with nothing new writes.
PASS_MOVES = {"Yushino": "pass", "Super Wild": "draw", "Holominoes": "pass"}
#: The games whose pass names the pool tile it returns to the sack (games.md: ``pass 456``).
PASS_RETURNS_TILE = frozenset({"Holominoes"})
#: A tile's other reading is tried in its stead when the reader finds it at least this likely
#: against the reading taken. On 60 TRAIN-style tables per game (vision.sim.table_shots seeds
#: 4000..4059), floors 0.3 / 0.1 / 0.05 / 0.02 keep the true tile of a misread within reach in
#: Super Wild 71 / 71 / 86 / 100 % (7 misreads), Holominoes 58 / 75 / 100 / 100 % (12), and open
#: 7 / 18 / 32 / 62 % and 0.9 / 2 / 4 / 7 % of the tiles read right to a swap: 0.05 is the knee.
#: (Whole TRAIN-style games, 3 per game from seed 100, record the same turns at any floor from
#: 0.001 to 1: their errors there are tiles missed, not misread.)
RUNNER_UP_FLOOR = 0.05
#: The likeliest this many other readings are tried (one at a time, then two by two: 36 replays
#: of the transcript at most per reading of the table).
RUNNER_UPS = 8


def header_of(settings: TableSettings) -> str:
    """The transcript header of a new game with ``settings`` (its Game, Players and own tags)."""
    return "".join(line + "\n" for line in format_tags(list(settings.header_tags)))


class GameTable(TurnSignals[TableRecord]):
    """The table of a Yushino, Super Wild or Holominoes game.

    Args:
        settings: the table settings (``settings.table_game`` names the game).
        text: the transcript to go on with (a resumed game, its notes included: the tiles added
            that it leaves on the table count as read again), or None for a new one.

    Raises:
        ValueError: the settings name no layout-read game, or ``text`` does not replay.
    """

    def __init__(self, settings: TableSettings, text: str | None = None) -> None:
        if settings.table_game is None:
            raise ValueError("GameTable needs a Yushino, Super Wild or Holominoes game")
        super().__init__(settings, "table")
        self.rules: TableRules = rules_for(settings.table_game)  # type: ignore[assignment]
        self.game = (TranscriptGame(self.rules, header_of(settings)) if text is None
                     else TranscriptGame.from_text(self.rules, text))
        self.game_over = self.game.is_over
        self._seen: frozenset[str] | None = None
        self._alternatives: Mapping[str, tuple[tuple[str, float], ...]] = {}
        #: a tile misread as it is seen -> the true placement ("" for no tile), while it is seen
        self._fixes: dict[str, str] = {}
        notes = table_notes(self.rules.name, text or "")
        #: tiles the camera does not see, by place, in the transcript's frame (``"3,1"`` -> ``"R7@3,1"``);
        #: a resumed game's from its journal's notes
        self._added: dict[str, str] = notes.added
        #: a resumed game's corrections from its journal's notes, in the transcript's frame, taken
        #: where the camera misreads the same tile on the same place again until a turn is committed
        self._noted: dict[str, str] = notes.corrected
        #: each tile read -> the tile the turn in progress takes for it (corrected, or a runner-up)
        self._shown: dict[str, str] = {}
        self._swaps: tuple[tuple[str, str], ...] = ()  # runner-ups taken for the turn in progress
        self._moves = ""  # the turn in progress ("" when nothing new)
        self._turn: TurnReport | None = None
        self._sync = ""  # why no turn leads to the layout seen
        self._base: tuple[str, KioskView] | None = None  # the committed view, by transcript

    # -- observations ------------------------------------------------------------------------
    def observe(self, obs: Observation) -> TableRecord | None:
        """Take one frame's observation; returns the turn committed by it, if any (auto mode, or an
        end-of-turn signal given before the table settled)."""
        self._see(obs)
        if obs.layout is not None:
            self._seen, self._alternatives = obs.layout, obs.alternatives
            self._read(obs.t)
            self._update()
            if self._end_requested:
                return self.end_turn()
        return self._auto_end(obs.t)

    def _turn_is_legal(self) -> bool:
        return self._turn is not None and self._turn.legal

    # -- the players' requests ---------------------------------------------------------------
    def end_turn(self) -> TableRecord | None:
        """Commit the turn in progress when it is legal (with nothing new: the game's pass);
        otherwise say what is wrong and commit nothing."""
        self._end_requested = False
        if self._sync:
            self._say(self._sync_message(), AlertLevel.ERROR)
            return None
        if self._turn is None:
            return self.pass_turn()
        if not self._turn.legal:
            self._say(f"Not committed: {self._error_text(self._turn)}", AlertLevel.ERROR)
            return None
        return self._commit(self._turn)

    def pass_turn(self, returned: str = "") -> TableRecord | None:
        """The current player takes the game's turn with nothing laid (Super Wild: draws; Yushino,
        Holominoes: passes); None (and why in the alert) when the rules refuse it, when the table is
        out of sync, or when tiles lie laid or moved since the last turn (take them back first).

        Args:
            returned: Holominoes: the pool tile the pass returns to the sack (``"456"``); a
                Holominoes pass without one is refused, with the rule. The other games take none.
        """
        name = self.rules.name
        if returned and name not in PASS_RETURNS_TILE:
            self._say(f"Not committed: a {name} {PASS_MOVES[name]} returns no tile.", AlertLevel.ERROR)
            return None
        if self._sync:
            self._say(self._sync_message(), AlertLevel.ERROR)
            return None
        if self._turn is not None:
            self._say(f"Not committed: {self._moves} lies on the table; take it back to "
                      f"{PASS_MOVES[name]}, or end the turn.", AlertLevel.ERROR)
            return None
        report = self.game.judged(f"{PASS_MOVES[name]} {returned}".strip())
        if not report.legal:
            self._say(f"Not committed: {self._error_text(report)}", AlertLevel.ERROR)
            return None
        return self._commit(report)

    def freeze(self) -> None:
        """Freezing is MODLINSEQ's (§3-3): the other games have none; says so."""
        self._say(f"{self.rules.name} has no freeze: end the turn, or end the game.", AlertLevel.INFO)

    def correct(self, cell: object, face: str) -> bool:
        """Corrections by cell are MODLINSEQ's hex board's; here a tile is corrected by
        :meth:`correct_tile` (says so and returns False)."""
        self._say("Correct a tile of this table by the tile, not by a cell.", AlertLevel.INFO)
        return False

    def correct_tile(self, seen: str, true: str) -> tuple[str, str] | None:
        """Correct a misread tile: while the reader sees ``seen`` (a placement of the layout, e.g.
        ``7H8``), take ``true`` instead (``1H8``; ``""``: no tile there). Committed turns are not
        amended (undo the turn, then correct).

        Returns:
            the correction in the transcript's frame, as the journal notes it: (the tile read,
            what lies there; ``""`` for no tile).

        Raises:
            ValueError: ``seen`` is not in the layout read now (the message names it).
        """
        if self._seen is None or seen not in self._seen:
            raise ValueError(f"correction of {seen}: no such tile is read on the table now")
        was = self._aligned_reading().get(seen, seen)
        self._fixes[seen] = true
        self._update()
        if self.alert_level is not AlertLevel.ERROR:
            self._say(f"{seen} corrected to {true or 'no tile'}.", AlertLevel.INFO)
        return was, self._aligned(self._layout()).get(true, true) if true else ""

    def add_shown(self, true: str) -> bool:
        """A tile the camera does not see: ``true`` (a placement in the transcript's frame,
        ``R7@3,1``) lies where the kiosk's map shows no tile. It counts as read, brought into each
        reading's frame (tilescribe.layout_frame), until the camera reads a tile on its place; a
        correction there to no tile takes it back (:meth:`correct_shown`).

        Returns:
            True when it is taken (the journal notes it); False (the alert says why) when a tile is
            read on that place now.

        Raises:
            ValueError: ``true`` is not a placement of the game (the message quotes it).
        """
        name = self.rules.name
        place = place_of(name, true)
        if place in {place_of(name, t) for t in self._aligned(self._layout()).values()}:
            self._say(f"A tile is read on {place}: correct it instead.", AlertLevel.INFO)
            return False
        self._added[place] = true
        self._update()
        if self.alert_level is not AlertLevel.ERROR:
            self._say(f"{true} added (the camera does not see it).", AlertLevel.INFO)
        return True

    def correct_shown(self, shown: str, true: str) -> str | None:
        """Correct a tile where the kiosk's map shows it: the tile read on the place of ``shown`` (a
        placement in the transcript's frame, ``R1@2,0``) is truly ``true`` (``R7@2,0``; ``""``: no
        tile there), taken as :meth:`correct_tile` takes a reading's correction
        (tilescribe.layout_frame brings it into the reading's frame).

        Returns:
            the tile read there, in the transcript's frame (``R1@2,0``, for the journal); None when
            no tile is read on that place now (the alert says so).

        Raises:
            ValueError: ``shown`` or ``true`` is not a placement of the game, or ``true`` lies on
                another place (the message quotes it).
        """
        name = self.rules.name
        place = place_of(name, shown)
        if place in self._added:  # a tile added by hand: corrected, or taken back
            if true and place_of(name, true) != place:
                raise ValueError(f"correction of {shown} names another place: {true}")
            if true:
                self._added[place] = true
            else:
                del self._added[place]
            self._update()
            self._say(f"{shown} corrected to {true or 'no tile'}.", AlertLevel.INFO)
            return shown
        taken = list(self._shown.values())
        aligned = aligned_tiles(name, self.rules.layout(self.game.text), taken) if taken else {}
        seen = next((t for t, w in self._shown.items()
                     if w in aligned and place_of(name, aligned[w]) == place), None)
        if seen is None:
            self._say(f"No tile is read on {place} now: nothing to correct there.", AlertLevel.INFO)
            return None
        read = self._shown[seen]  # as the turn takes it, in the reading's frame
        self.correct_tile(seen, as_seen(name, read, aligned[read], true))
        if self.alert_level is not AlertLevel.ERROR:
            self._say(f"{aligned[read]} corrected to {true or 'no tile'}.", AlertLevel.INFO)
        return aligned[read]

    def undo(self) -> TableRecord | None:
        """Take back the last committed turn; returns it (None when there is none)."""
        if not self.game.history:
            self._say("Nothing to undo.", AlertLevel.INFO)
            return None
        turn = self.game.history[-1]
        self.game = self.game.undone()
        self.game_over = self.game.is_over
        self._update()
        self._say(f"Undone: turn {turn.number} ({turn.player}: {turn.moves}).", AlertLevel.WARN)
        return turn

    def end_game(self) -> None:
        """End the game (the players agree, or the recording ends)."""
        self.game_over = True
        ranked = sorted(self.game.scores.items(), key=lambda p: -p[1])
        standings = ", ".join(f"{name} {score}" for name, score in ranked)
        self._say(f"Game over. {standings}", AlertLevel.INFO)

    def restart(self) -> None:
        """A rematch: a new game with the same players and settings."""
        self.game = TranscriptGame(self.rules, header_of(self.settings))
        self.game_over = False
        self._fixes.clear()
        self._added.clear()
        self._noted.clear()
        self._end_requested = self._fresh = False
        self._update()
        self._say("Rematch: clear the table.", AlertLevel.INFO)

    def take_lifted(self) -> list[TableRecord]:
        """Turns taken back by lifting their tiles: none (a lifted tile is shown to be put back)."""
        return []

    # -- state -------------------------------------------------------------------------------
    @property
    def turn(self) -> TurnReport | None:
        """The engine's verdict on the turn in progress (None when nothing new is on the table)."""
        return self._turn

    @property
    def pending(self) -> tuple[str, ...]:
        """The moves of the turn in progress (tokens of ``table_turn``'s result)."""
        return tuple(self._moves.split(", ")) if self._turn is not None else ()

    def _commit(self, report: TurnReport) -> TableRecord:
        if report is self._turn:  # a runner-up committed stands for its tile while it is read so
            self._fixes.update(self._swaps)
        self._noted = {}  # the corrections taken again stand while their tiles are read so
        self.game = self.game.played(report)
        self.game_over = self.game.is_over
        self._update()
        turn = self.game.history[-1]
        self._say(f"{turn.player}: {turn.moves}  +{turn.score}", AlertLevel.INFO)
        return turn

    def _update(self) -> None:
        """Re-derive the turn in progress from the layout seen and the game."""
        self._moves, self._turn, self._sync, self._swaps, self._shown = "", None, "", (), {}
        if self._seen is None:
            return
        seen = self._seen
        self._fixes = {k: v for k, v in self._fixes.items() if k in seen}  # the reading changed
        if self._noted:
            self._fixes |= self._noted_fixes()
        layout = self._layout()
        layout |= self._added_as_read(layout)
        self._moves, self._turn, self._sync = self._judged(layout)
        taken = ""
        if self._sync or (self._turn is not None and not self._turn.legal):
            found = self._runner_up(layout)
            if found is not None:
                self._swaps, (self._moves, self._turn, self._sync) = found
                taken = "; ".join(f"read {t} as {a or 'no tile'}" for t, a in self._swaps)
        swapped = dict(self._swaps)
        self._shown = {t: s for t in seen if (w := self._fixes.get(t, t)) and (s := swapped.get(w, w))}
        if self._sync:
            self._say(self._sync_message(), AlertLevel.ERROR)
        elif self._turn is not None and not self._turn.legal:
            self._say(self._error_text(self._turn), AlertLevel.ERROR)
        elif taken:
            self._say(f"{taken[0].upper()}{taken[1:]} (the rules); correct it if wrong.", AlertLevel.INFO)
        elif self.alert_level is AlertLevel.ERROR:
            self._say("", AlertLevel.INFO)

    def _noted_fixes(self) -> dict[str, str]:
        """The journal's corrections (``_noted``) of tiles that the reading misreads as they were
        misread then: the reading's tile -> the true one, in the reading's frame."""
        name, noted, fixed = self.rules.name, self._noted, self._fixes
        return {word: as_seen(name, word, there, noted[there])
                for word, there in self._aligned_reading().items() if there in noted and word not in fixed}

    def _aligned_reading(self) -> dict[str, str]:
        """The layout as the camera read it (``_seen``) in the transcript's frame; {} where one of
        its tiles is no placement of the game (a broken reading: nothing of it is aligned)."""
        try:
            return self._aligned(self._seen or frozenset())
        except ValueError:
            return {}

    def _layout(self) -> frozenset[str]:
        """The layout read now with the corrections made (the reading's frame)."""
        return frozenset({self._fixes.get(t, t) for t in self._seen or ()} - {""})

    def _aligned(self, layout: frozenset[str]) -> dict[str, str]:
        """Each tile of ``layout`` (the reading's frame) -> the same tile in the transcript's frame."""
        if not layout:
            return {}
        return aligned_tiles(self.rules.name, self.rules.layout(self.game.text), sorted(layout))

    def _added_as_read(self, layout: frozenset[str]) -> frozenset[str]:
        """The tiles added by hand on places where ``layout`` (the reading's frame) has no tile, in
        the reading's frame; an addition where the camera reads a tile now is dropped."""
        if not self._added:
            return frozenset()
        name = self.rules.name
        ours = self._aligned(layout)
        held = {place_of(name, t) for t in ours.values()}
        self._added = {p: t for p, t in self._added.items() if p not in held}
        if not ours or not self._added:
            return frozenset(self._added.values())
        back = aligned_tiles(name, sorted(layout), [*ours.values(), *self._added.values()])  # to the reading
        return frozenset(back[t] for t in self._added.values() if t in back)

    def _judged(self, layout: frozenset[str]) -> tuple[str, TurnReport | None, str]:
        """(moves, the engine's verdict, why no turn leads there) of a layout: ("", None, "") with
        nothing new, ("", None, the rules' sentence) when no turn leads to it."""
        try:
            moves = self.rules.table_turn(self.game.text, layout)
        except ValueError as exc:
            return "", None, str(exc)
        if moves and moves != PASS_MOVES[self.rules.name] and not self.game_over:
            return moves, self.game.judged(moves), ""
        return "", None, ""

    def _runner_up(
        self, layout: frozenset[str]
    ) -> tuple[tuple[tuple[str, str], ...], tuple[str, TurnReport | None, str]] | None:
        """The likeliest (by the product of the reader's ratios) way of reading one tile of
        ``layout``, else two, as one of its other readings so that the table is in sync and the turn
        legal: (the tiles swapped (read, taken), the judged layout), None when there is none."""
        placed = self.rules.layout(self.game.text)  # read right: nothing to swap there
        options = sorted(
            ((ratio, seen, other) for seen, others in self._alternatives.items()
             if seen in layout and seen not in self._fixes and seen not in placed
             for other, ratio in others if ratio >= RUNNER_UP_FLOOR and other not in layout),
            reverse=True,
        )[:RUNNER_UPS]
        for size in (1, 2):
            best: tuple[float, tuple[tuple[str, str], ...], tuple[str, TurnReport | None, str]] | None = None
            for combo in itertools.combinations(options, size):
                joint = math.prod(r for r, _, _ in combo)
                if len({t for _, t, _ in combo}) < size or (best is not None and joint <= best[0]):
                    continue
                swaps = tuple((t, a) for _, t, a in combo)
                judged = self._judged(layout - {t for t, _ in swaps} | {a for _, a in swaps if a})
                if not judged[2] and (judged[1] is None or judged[1].legal):
                    best = (joint, swaps, judged)
            if best is not None:
                return best[1], best[2]
        return None

    def _sync_message(self) -> str:
        return f"Table out of sync: {self._sync}. Put the table back as it was, then go on."

    @staticmethod
    def _error_text(turn: TurnReport) -> str:
        error = turn.error
        return "" if error is None else f"{error.message} ({error.rule})"

    def view(self) -> KioskView:
        """The kiosk's picture of the table now: the game's map with the turn in progress."""
        text = self.game.text
        if self._base is None or self._base[0] != text:
            self._base = (text, view_of(text))
        base = self._base[1]
        turn = self._turn
        return replace(
            base,
            game_map=pending_map(text, self.pending, turn is not None and not turn.legal) if self.pending
            else base.game_map,
            provisional_points=turn.score if turn is not None and turn.legal else None,
            pending=self.pending,
            pending_illegal=turn is not None and not turn.legal,
            out_of_sync=bool(self._sync),
            pass_label=PASS_MOVES[self.rules.name].capitalize(),
            pass_returns_tile=self.rules.name in PASS_RETURNS_TILE,
            can_freeze=False,
            camera=self.camera,
            alert=self.alert,
            alert_level=self.alert_level,
            title=f"{self.rules.name}, " + (f"{len(self.game.history)} turns" if self.game_over
                                             else f"turn {len(self.game.history) + 1}")
            + (f" ({self.note})" if self.note else ""),
            is_over=self.game_over,
        )


@lru_cache(maxsize=8)
def pending_map(text: str, pending: tuple[str, ...], illegal: bool) -> GameMap:
    """The game's map after ``text`` with the turn in progress drawn on it.

    Args:
        text: the transcript of the committed turns.
        pending: the moves of the turn in progress (drawn provisionally).
        illegal: the turn in progress breaks a rule (drawn in the alert colour).
    """
    game_map, _ = read_game(text, pending, illegal)
    return game_map
